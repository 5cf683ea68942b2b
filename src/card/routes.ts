// GET/HEAD/OPTIONS on the two well-known card paths.
import { ifNoneMatchHits } from "../http/etag";
import { publicBaseUrl } from "../http/public-base";
import { searchParam, type RequestTarget } from "../http/request-url";
import type { Runtime } from "../runtime";
import { errorResponse } from "../errors";
import { CARD_CORS, CARD_METHODS } from "./headers";
import { negotiateVariant } from "./variant";

/**
 * The card response for one request. Synchronous when the isolate already
 * holds the document and the built card (the steady state), so the hot path
 * allocates one Response and awaits nothing.
 */
export function cardResponse(request: Request, url: RequestTarget, runtime: Runtime): Response | Promise<Response> {
  const { config } = runtime;
  const base = publicBaseUrl(url, request.headers, config);
  const hostname = base === url.origin ? url.hostname : new URL(base).hostname;
  // Multi-agent mode with an allowlist: an unknown host gets no agent at all.
  if (config.hostAllowlist && !config.hostAllowlist.has(hostname)) return errorResponse(404, "Not found");
  const source = runtime.source(hostname);
  if (source instanceof Promise) return source.then((s) => respond(runtime.card(s, base, variantOf(request, url, runtime)), request));
  return respond(runtime.card(source, base, variantOf(request, url, runtime)), request);
}

function variantOf(request: Request, url: RequestTarget, runtime: Runtime) {
  const requested = request.headers.get("a2a-version") ?? searchParam(url, "A2A-Version");
  return negotiateVariant(url.pathname, requested, runtime.config.cardCompat);
}

type Built = ReturnType<Runtime["card"]>;

function respond(built: Built, request: Request): Response | Promise<Response> {
  if (built instanceof Promise) return built.then((card) => respond(card, request));
  if (ifNoneMatchHits(request.headers.get("if-none-match"), built.etag)) {
    return new Response(null, { status: 304, headers: built.notModifiedHeaders });
  }
  return new Response(built.body, { status: 200, headers: built.okHeaders });
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
