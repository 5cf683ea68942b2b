// Response headers of a served card (A2A 1.0 §8.6 caching; CORS for browser UIs).
import type { Config } from "../config";
import type { Repair } from "./repairs";
import type { CardVariant } from "./variant";

/**
 * Where a served card's data came from (the `Card-Source` header, and a line on
 * the page): the KV key that served it, the bundled skills.json, or the
 * origin's own card (CARD_SOURCE=origin). A local KV document silently wins
 * over an edited skills.json under `wrangler dev`; this says so.
 */
export type CardDataSource = `kv:${string}` | "bundled" | "origin";

/** Seconds since the copy served was last known good: set only while a host's document cannot be read. */
export const LAST_GOOD_AGE_HEADER = "card-last-good-age";

/** The age of a last good copy, in whole seconds. */
export function lastGoodAge(savedAt: number, now: number = Date.now()): number {
  return Math.max(0, Math.floor((now - savedAt) / 1000));
}

/** What the card paths answer to (Allow of a 405). */
export const CARD_METHODS = ["GET", "HEAD", "OPTIONS"];

/**
 * CORS of the card (preflights go through hono/cors with the same origin; this
 * copy rides in the memoized headers of the fast path). The card is public and
 * carries no credentials: `*` is safe, and it is never combined with
 * Access-Control-Allow-Credentials (browsers reject that pair).
 */
export const CARD_CORS_ORIGIN = "*";

/**
 * Headers shared by the 200 and the 304 (RFC 9110 §15.4.5), without Content-Type.
 * Only what peers use, and Card-Source (short, and the one way to see which
 * document won): every extra header costs ~2% of card throughput in workerd.
 */
/** `Card-Repaired`: how many repairs card intake made, and their rules (the page lists each one). */
export function repairedHeader(repairs: readonly Repair[]): string {
  return `${repairs.length}; rules=${[...new Set(repairs.map((r) => r.rule))].join(",")}`;
}

export function cardHeaders(
  config: Config,
  variant: CardVariant,
  etag: string,
  dataSource: CardDataSource,
  repairs: readonly Repair[] = [],
): Array<[string, string]> {
  const headers: Array<[string, string]> = [
    ["access-control-allow-origin", CARD_CORS_ORIGIN],
    ["cache-control", `public, max-age=${config.cardMaxAge}, stale-while-revalidate=${config.cardStaleWhileRevalidate}`],
    ["etag", etag],
    ["card-source", dataSource],
  ];
  if (repairs.length > 0) headers.push(["card-repaired", repairedHeader(repairs)]);
  // Browsers get the page at the same URL (Accept); only agent-card.json negotiates on A2A-Version.
  headers.push(["vary", variant === "legacy" ? "Accept" : "A2A-Version, Accept"]);
  return headers;
}
