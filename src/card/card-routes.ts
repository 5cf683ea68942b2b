// GET/HEAD on the two well-known card paths, and the human view of the same
// card (GET /, or a card path asked for with Accept: text/html).
import { catalogLinks } from "../agents/catalog";
import { requirementsOf } from "../auth/requirements";
import type { EdgeRequest } from "../http/edge-request";
import { ifNoneMatchHits } from "../http/etag";
import { signsFor } from "../http/public-base";
import { searchParam } from "../http/request-target";
import { renderCardPage } from "../view/page-response";
import { LAST_GOOD_AGE_HEADER, lastGoodAge } from "./card-headers";
import type { BuiltCard } from "./card-service";
import type { Resolved } from "./store";
import { CARD_PATH, type CardVariant, negotiateVariant } from "./variant";

type Later<T> = T | Promise<T>;

/** Applies `next` to a value that may still be coming, without a microtask when it is already there (the hot path). */
function andThen<T, U>(value: Later<T>, next: (v: T) => Later<U>): Later<U> {
  return value instanceof Promise ? value.then(next) : next(value);
}

/** The built card of this request's host and variant, and how its document was resolved: synchronous once the isolate holds it. */
function builtCard<V extends CardVariant>(edge: EdgeRequest, variant: V): Later<[BuiltCard<V>, Resolved]> {
  const { cards } = edge.runtime;
  return andThen(cards.resolve(edge.agentKey, edge.keepAlive), (resolved) =>
    andThen(cards.card(resolved.source, edge.base, variant), (built): [BuiltCard<V>, Resolved] => [built, resolved]),
  );
}

/** The memoized headers, plus the copy's age when it is the last good copy of a document that cannot be read now. */
function headersOf(memoized: Headers, resolved: Resolved): Headers {
  if (!resolved.lastGood) return memoized;
  const headers = new Headers(memoized);
  headers.set(LAST_GOOD_AGE_HEADER, String(lastGoodAge(resolved.lastGood.savedAt)));
  return headers;
}

/** Browsers navigating to the card get the page; API clients (application/json, * / *) the JSON. */
export function wantsHtml(request: Request): boolean {
  return request.headers.get("accept")?.includes("text/html") ?? false;
}

/**
 * The card response for one request. Synchronous when the isolate already
 * holds the document and the built card (the steady state), so the hot path
 * allocates one Response and awaits nothing.
 */
export function cardResponse(edge: EdgeRequest): Later<Response> {
  if (wantsHtml(edge.request)) return pageResponse(edge);
  const { request, target, runtime } = edge;
  const requested = request.headers.get("a2a-version") ?? searchParam(target, "A2A-Version");
  const variant = negotiateVariant(target.pathname, requested, runtime.config.cardCompat);
  return andThen(builtCard(edge, variant), ([built, resolved]) => {
    if (ifNoneMatchHits(request.headers.get("if-none-match"), built.etag)) {
      return new Response(null, { status: 304, headers: headersOf(built.notModifiedHeaders, resolved) });
    }
    return new Response(built.body, { status: 200, headers: headersOf(built.okHeaders, resolved) });
  });
}

/** The human view, rendered from the strict 1.0 card (signatures included). */
export function pageResponse(edge: EdgeRequest): Later<Response> {
  const { config } = edge.runtime;
  return andThen(builtCard(edge, "v1"), ([built, resolved]) => {
    const page = renderCardPage(
      built,
      {
        cardUrl: `${edge.base}${CARD_PATH}`,
        enforcement: edge.runtime.authFor(resolved.source).enforcement(requirementsOf(resolved.source)),
        pushRelayed: edge.runtime.config.pushRelay === "on",
        lastGoodAge: resolved.lastGood ? lastGoodAge(resolved.lastGood.savedAt) : undefined,
        unsignedHost: config.signingKey && !signsFor(config, edge.base) ? new URL(edge.base).host : undefined,
      },
      config.cardMaxAge,
    );
    page.headers.set("link", catalogLinks(edge.hostBase));
    return page;
  });
}
