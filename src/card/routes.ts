// GET/HEAD/OPTIONS on the two well-known card paths.
import type { Context } from "hono";
import type { AppEnv } from "../app";
import { ifNoneMatchHits } from "../http/etag";
import { publicBaseUrl } from "../http/public-base";
import { negotiateVariant, CARD_PATH } from "./variant";

export const CARD_METHODS = "GET, HEAD, OPTIONS";

// The card is public and carries no credentials: `*` is safe, and it must never
// be combined with Access-Control-Allow-Credentials (browsers reject that).
const CORS = {
  "access-control-allow-origin": "*",
  "access-control-expose-headers": "ETag",
} as const;

export async function serveCard(c: Context<AppEnv>): Promise<Response> {
  const runtime = c.get("runtime");
  const { config } = runtime;
  const url = new URL(c.req.url);
  const base = publicBaseUrl(url, c.req.raw.headers, config);
  const { source } = await runtime.store.lookup(new URL(base).hostname);
  const requested = c.req.header("a2a-version") ?? url.searchParams.get("A2A-Version");
  const variant = negotiateVariant(url.pathname, requested, config.cardCompat);
  const card = await runtime.card(source, base, variant);

  const headers = new Headers({
    ...CORS,
    "cache-control": `public, max-age=${config.cardMaxAge}, stale-while-revalidate=${config.cardStaleWhileRevalidate}`,
    etag: card.etag,
    "x-content-type-options": "nosniff",
  });
  // Only the current path negotiates on the header (the legacy path has one shape).
  if (url.pathname === CARD_PATH) headers.set("vary", "A2A-Version");
  if (ifNoneMatchHits(c.req.header("if-none-match") ?? null, card.etag)) {
    return new Response(null, { status: 304, headers });
  }
  headers.set("content-type", "application/json");
  return new Response(card.body, { status: 200, headers });
}

export function cardPreflight(): Response {
  return new Response(null, {
    status: 204,
    headers: {
      ...CORS,
      "access-control-allow-methods": CARD_METHODS,
      "access-control-allow-headers": "A2A-Version, If-None-Match",
      "access-control-max-age": "86400",
      allow: CARD_METHODS,
    },
  });
}
