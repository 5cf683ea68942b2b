// Response headers of a served card (A2A 1.0 §8.6 caching; CORS for browser UIs).
import type { Config } from "../config";
import type { CardVariant } from "./variant";

export const CARD_METHODS = "GET, HEAD, OPTIONS";

// The card is public and carries no credentials: `*` is safe, and it is never
// combined with Access-Control-Allow-Credentials (browsers reject that pair).
export const CARD_CORS: ReadonlyArray<[string, string]> = [
  ["access-control-allow-origin", "*"],
];

/**
 * Headers shared by the 200 and the 304 (RFC 9110 §15.4.5), without Content-Type.
 * Only what peers use: every extra header costs ~2% of card throughput in workerd.
 */
export function cardHeaders(config: Config, variant: CardVariant, etag: string): Array<[string, string]> {
  const headers: Array<[string, string]> = [
    ...CARD_CORS,
    ["cache-control", `public, max-age=${config.cardMaxAge}, stale-while-revalidate=${config.cardStaleWhileRevalidate}`],
    ["etag", etag],
  ];
  // Browsers get the page at the same URL (Accept); only agent-card.json negotiates on A2A-Version.
  headers.push(["vary", variant === "legacy" ? "Accept" : "A2A-Version, Accept"]);
  return headers;
}
