// Response headers of a served card (A2A 1.0 §8.6 caching; CORS for browser UIs).
import type { Config } from "../config";
import type { CardVariant } from "./variant";

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
 * Only what peers use: every extra header costs ~2% of card throughput in workerd.
 */
export function cardHeaders(config: Config, variant: CardVariant, etag: string): Array<[string, string]> {
  const headers: Array<[string, string]> = [
    ["access-control-allow-origin", CARD_CORS_ORIGIN],
    ["cache-control", `public, max-age=${config.cardMaxAge}, stale-while-revalidate=${config.cardStaleWhileRevalidate}`],
    ["etag", etag],
  ];
  // Browsers get the page at the same URL (Accept); only agent-card.json negotiates on A2A-Version.
  headers.push(["vary", variant === "legacy" ? "Accept" : "A2A-Version, Accept"]);
  return headers;
}
