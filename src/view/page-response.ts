// Renders (once per built card) and serves the human view.
import type { BuiltCard } from "../runtime";
import { CardPage, type SignatureInfo } from "./page";

const pages = new WeakMap<BuiltCard, string>();

function signatureOf(card: Record<string, unknown>): SignatureInfo | undefined {
  const first = (card.signatures as { protected: string }[] | undefined)?.[0];
  if (!first) return undefined;
  try {
    const json = atob(first.protected.replace(/-/g, "+").replace(/_/g, "/"));
    const header = JSON.parse(json) as SignatureInfo;
    return { alg: String(header.alg), kid: String(header.kid), ...(header.jku ? { jku: String(header.jku) } : {}) };
  } catch {
    return undefined;
  }
}

export function renderCardPage(built: BuiltCard, cardUrl: string, maxAge: number): Response {
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
      "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; img-src https: data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
      "x-content-type-options": "nosniff",
      "referrer-policy": "no-referrer",
    },
  });
}
