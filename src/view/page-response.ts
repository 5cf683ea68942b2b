// Renders (once per built card) and serves the human view.
import { decodeBase64Url } from "hono/utils/encode";
import type * as v1 from "../a2a/v1";
import { jsonObject } from "../json";
import type { BuiltCard } from "../runtime";
import { CardPage, type SignatureInfo } from "./page";

const pages = new WeakMap<BuiltCard<"v1">, string>();
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

export function renderCardPage(built: BuiltCard<"v1">, cardUrl: string, maxAge: number): Response {
  let html = pages.get(built);
  if (html === undefined) {
    html = `<!doctype html>${CardPage({ card: built.card, cardUrl, signature: signatureOf(built.card) })}`;
    pages.set(built, html);
  }
  return new Response(html, {
    headers: {
      "content-type": "text/html; charset=utf-8",
      "cache-control": `public, max-age=${maxAge}`,
      vary: "Accept",
      // No script at all, styles inline, images from https only.
      "content-security-policy":
        "default-src 'none'; style-src 'unsafe-inline'; img-src https: data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
      "x-content-type-options": "nosniff",
      "referrer-policy": "no-referrer",
    },
  });
}
