// Renders (once per built card) and serves the human view.
import { decodeBase64Url } from "hono/utils/encode";
import type * as v1 from "../a2a/v1";
import { type CardDataSource, LAST_GOOD_AGE_HEADER } from "../card/card-headers";
import type { BuiltCard } from "../card/card-service";
import { jsonObject } from "../json";
import { CardPage, type CardPageProps, type SignatureInfo } from "./page";

const pages = new WeakMap<BuiltCard<"v1">, string>();

/**
 * The page's security headers: no script at all (the CSP forbids any), styles inline, images from https
 * only, plus what hono/secure-headers sets by default. Static, so written out: the middleware cost
 * 1.1 KiB gzip of the bundle (measured with the REST binding) for a fixed list.
 */
const PAGE_SECURITY = {
  "content-security-policy":
    "default-src 'none'; style-src 'unsafe-inline'; img-src https: data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  "cross-origin-resource-policy": "same-origin",
  "cross-origin-opener-policy": "same-origin",
  "origin-agent-cluster": "?1",
  "referrer-policy": "no-referrer",
  "strict-transport-security": "max-age=15552000; includeSubDomains",
  "x-content-type-options": "nosniff",
  "x-dns-prefetch-control": "off",
  "x-download-options": "noopen",
  "x-frame-options": "SAMEORIGIN",
  "x-permitted-cross-domain-policies": "none",
  "x-xss-protection": "0",
};
const decoder = new TextDecoder();

/** The first signature's protected header (base64url JSON, §8.4.2); undefined if it cannot be read. */
function signatureOf(card: v1.AgentCard): SignatureInfo | undefined {
  const first = card.signatures?.[0];
  if (!first) return undefined;
  try {
    const header = jsonObject(JSON.parse(decoder.decode(decodeBase64Url(first.protected))));
    if (!header) return undefined;
    return { alg: String(header.alg), kid: String(header.kid), ...(header.jku ? { jku: String(header.jku) } : {}) };
  } catch {
    return undefined;
  }
}

/** The Card-Source header in words: a developer editing skills.json sees when a KV document wins. */
function describeDataSource(source: CardDataSource): string {
  if (source === "bundled") return "the bundled skills.json";
  if (source === "origin") return "the origin's own card (CARD_SOURCE=origin)";
  return `KV key ${source.slice("kv:".length)}`;
}

/**
 * The same built card always gets the same page: the URL and the enforcement are per runtime and host, as the
 * card is. A last good copy's page says its age, so it is rendered per request (only while the document cannot be read).
 */
export function renderCardPage(
  built: BuiltCard<"v1">,
  context: Pick<CardPageProps, "cardUrl" | "enforcement" | "lastGoodAge" | "pushRelayed" | "unsignedHost">,
  maxAge: number,
): Response {
  let html = context.lastGoodAge === undefined ? pages.get(built) : undefined;
  if (html === undefined) {
    const page = {
      card: built.card,
      ...context,
      signature: signatureOf(built.card),
      cardData: describeDataSource(built.dataSource),
      repairs: built.repairs,
      sample: built.sample,
    };
    html = `<!doctype html>${CardPage(page)}`;
    if (context.lastGoodAge === undefined) pages.set(built, html);
  }
  return new Response(html, {
    headers: {
      "content-type": "text/html; charset=utf-8",
      "cache-control": `public, max-age=${maxAge}`,
      vary: "Accept",
      "card-source": built.dataSource,
      ...(context.lastGoodAge === undefined ? {} : { [LAST_GOOD_AGE_HEADER]: String(context.lastGoodAge) }),
      ...Object.fromEntries(built.okHeaders.has("card-repaired") ? [["card-repaired", built.okHeaders.get("card-repaired") ?? ""]] : []),
      ...PAGE_SECURITY,
    },
  });
}
