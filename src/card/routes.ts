// GET/HEAD/OPTIONS on the two well-known card paths, and the human view of the
// same card (GET /, or a card path asked for with Accept: text/html).
import { errorResponse } from "../errors";
import type { KeepAlive } from "../http/body";
import { ifNoneMatchHits } from "../http/etag";
import { isServedHost, publicBaseUrl, publicHostname } from "../http/public-base";
import { searchParam, type RequestTarget } from "../http/request-url";
import type { BuiltCard, Runtime } from "../runtime";
import { renderCardPage } from "../view/page-response";
import { CARD_CORS, CARD_METHODS } from "./headers";
import type { CardVariant } from "./variant";
import type { CardSource } from "./source";
import { negotiateVariant, CARD_PATH } from "./variant";

type Later<T> = T | Promise<T>;
const then = <T, U>(value: Later<T>, fn: (v: T) => Later<U>): Later<U> => (value instanceof Promise ? value.then(fn) : fn(value));

/** The card for this request's public host, or a 404 for a host outside HOST_ALLOWLIST. */
function cardFor<V extends CardVariant>(request: Request, url: RequestTarget, runtime: Runtime, variant: V, keepAlive?: KeepAlive): Response | Later<{ built: BuiltCard<V>; base: string }> {
  const base = publicBaseUrl(url, request.headers, runtime.config);
  const hostname = publicHostname(base, url);
  // Multi-agent mode with an allowlist: an unknown host gets no agent at all.
  if (!isServedHost(runtime.config, hostname)) return errorResponse(404, "Not found");
  return then(runtime.source(hostname, keepAlive), (source: CardSource) => then(runtime.card(source, base, variant), (built) => ({ built, base })));
}

/** Browsers navigating to the card get the page; API clients (application/json, * / *) the JSON. */
function wantsHtml(request: Request): boolean {
  return request.headers.get("accept")?.includes("text/html") ?? false;
}

/**
 * The card response for one request. Synchronous when the isolate already
 * holds the document and the built card (the steady state), so the hot path
 * allocates one Response and awaits nothing.
 */
export function cardResponse(request: Request, url: RequestTarget, runtime: Runtime, keepAlive?: KeepAlive): Later<Response> {
  if (wantsHtml(request)) return pageResponse(request, url, runtime, keepAlive);
  const requested = request.headers.get("a2a-version") ?? searchParam(url, "A2A-Version");
  const found = cardFor(request, url, runtime, negotiateVariant(url.pathname, requested, runtime.config.cardCompat), keepAlive);
  if (found instanceof Response) return found;
  return then(found, ({ built }) => {
    if (ifNoneMatchHits(request.headers.get("if-none-match"), built.etag)) {
      return new Response(null, { status: 304, headers: built.notModifiedHeaders });
    }
    return new Response(built.body, { status: 200, headers: built.okHeaders });
  });
}

/** The human view, rendered from the strict 1.0 card (signatures included). */
export function pageResponse(request: Request, url: RequestTarget, runtime: Runtime, keepAlive?: KeepAlive): Later<Response> {
  const found = cardFor(request, url, runtime, "v1", keepAlive);
  if (found instanceof Response) return found;
  return then(found, ({ built, base }) => renderCardPage(built, `${base}${CARD_PATH}`, runtime.config.cardMaxAge));
}

export function cardPreflight(): Response {
  return new Response(null, {
    status: 204,
    headers: [
      ...CARD_CORS,
      ["access-control-allow-methods", CARD_METHODS],
      ["access-control-allow-headers", "A2A-Version, If-None-Match"],
      ["access-control-max-age", "86400"],
      ["allow", CARD_METHODS],
    ],
  });
}
