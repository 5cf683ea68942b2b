// Which card a request gets (design "Variants"; A2A 1.0 §3.6 for the header).
import type { CardCompat } from "../config";

/**
 * - `v1`: strict A2A 1.0 card (no 0.3 fields; validates against the v1.0.1 schema).
 * - `v0.3`: A2A 0.3.0 card.
 * - `hybrid`: the 0.3 card plus 1.0 `supportedInterfaces` (readable by both).
 * - `legacy`: what `/.well-known/agent.json` serves: the hybrid shape.
 * (build-card.ts: CardOfVariant is the card type of each.)
 */
export const CARD_VARIANTS = ["v1", "v0.3", "hybrid", "legacy"] as const;
export type CardVariant = (typeof CARD_VARIANTS)[number];

export const CARD_PATH = "/.well-known/agent-card.json";
/** A2A 0.2 discovery path, still requested by directories and old clients. */
export const LEGACY_CARD_PATH = "/.well-known/agent.json";

/**
 * `A2A-Version` is `Major.Minor`; clients may send it as a query parameter
 * instead of a header (§3.6). 1.x gets the strict 1.0 card, 0.x the 0.3 card;
 * absent or unreadable gets the default (hybrid, or strict 1.0 with
 * CARD_COMPAT=strict).
 */
export function negotiateVariant(path: string, requestedVersion: string | null, compat: CardCompat): CardVariant {
  if (path === LEGACY_CARD_PATH) return "legacy";
  const fallback: CardVariant = compat === "strict" ? "v1" : "hybrid";
  const match = requestedVersion
    ?.split(",")[0]
    ?.trim()
    .match(/^(\d{1,4})(?:\.\d{1,4})?$/);
  if (!match) return fallback;
  return Number(match[1]) >= 1 ? "v1" : "v0.3";
}
