// The worker: middleware and routes in one readable place.
import { Hono } from "hono";
import { CARD_METHODS } from "./card/headers";
import { cardPreflight, cardResponse, pageResponse } from "./card/routes";
import { CARD_PATH, LEGACY_CARD_PATH } from "./card/variant";
import { errorResponse, HttpError, renderError } from "./errors";
import type { KeepAlive } from "./http/body";
import { isServedHost, publicBaseUrl, publicHostname } from "./http/public-base";
import { requestTarget } from "./http/request-url";
import { proxyRpc } from "./proxy/forward";
import { rpcCorsHeaders, RPC_CORS_ALLOW_HEADERS, RPC_METHODS } from "./proxy/headers";
import { JWKS_PATH, runtimeFor, type Runtime, type RuntimeDeps } from "./runtime";
import { publicJwk } from "./sign/keys";
import { createAdminApp } from "./admin/routes";

export type AppEnv = { Bindings: Env; Variables: { runtime: Runtime } };

export const CARD_PATHS: ReadonlySet<string> = new Set([CARD_PATH, LEGACY_CARD_PATH]);

/** Shared work started by one request survives that request's cancellation (see KeepAlive). */
function keepAliveOf(ctx: Pick<ExecutionContext, "waitUntil">): KeepAlive {
  return (promise) => ctx.waitUntil(promise);
}

/** The RPC path answers with and without a trailing slash (the 1.0 TCK posts to "<interface url>/"). */
function isRpcPath(pathname: string, rpcPath: string): boolean {
  return pathname === rpcPath || pathname === `${rpcPath}/`;
}

export function createApp(deps: RuntimeDeps = {}): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.use(async (c, next) => {
    c.set("runtime", runtimeFor(c.env, deps));
    await next();
  });

  for (const path of CARD_PATHS) {
    // Hono answers HEAD from the GET route, without the body.
    app.get(path, (c) => cardResponse(c.req.raw, requestTarget(c.req.url), c.get("runtime"), keepAliveOf(c.executionCtx)));
    app.options(path, cardPreflight);
    app.all(path, () => {
      throw new HttpError(405, "Method not allowed", { allow: CARD_METHODS });
    });
  }

  // The human view of this host's card.
  app.get("/", (c) => pageResponse(c.req.raw, requestTarget(c.req.url), c.get("runtime"), keepAliveOf(c.executionCtx)));

  // The JSON-RPC endpoint lives at a configured path, so it is matched in the handler.
  app.post("*", (c, next) => {
    const target = requestTarget(c.req.url);
    const runtime = c.get("runtime");
    if (!isRpcPath(target.pathname, runtime.config.rpcPath)) return next();
    const cf = c.req.raw.cf as IncomingRequestCfProperties | undefined;
    return proxyRpc(c.req.raw, target, runtime, { colo: cf?.colo, continent: cf?.continent }, keepAliveOf(c.executionCtx));
  });
  app.options("*", (c, next) => {
    const runtime = c.get("runtime");
    if (!isRpcPath(requestTarget(c.req.url).pathname, runtime.config.rpcPath)) return next();
    const headers = rpcCorsHeaders(c.req.header("origin") ?? null, runtime.config);
    headers.set("access-control-allow-methods", RPC_METHODS);
    headers.set("access-control-allow-headers", RPC_CORS_ALLOW_HEADERS);
    headers.set("access-control-max-age", "86400");
    headers.set("allow", RPC_METHODS);
    return new Response(null, { status: 204, headers });
  });
  // GET stays 404 on the RPC path (`/` may become a human page); other writes get 405.
  app.on(["PUT", "PATCH", "DELETE"], "*", (c, next) => {
    if (!isRpcPath(requestTarget(c.req.url).pathname, c.get("runtime").config.rpcPath)) return next();
    throw new HttpError(405, "Method not allowed", { allow: RPC_METHODS });
  });

  // The admin API lives under a configured prefix, so it is matched in the handler.
  const admin = createAdminApp(deps);
  app.all("*", (c, next) => {
    const { adminPath } = c.get("runtime").config;
    const url = new URL(c.req.url);
    if (url.pathname !== adminPath && !url.pathname.startsWith(`${adminPath}/`)) return next();
    url.pathname = url.pathname.slice(adminPath.length) || "/";
    return admin.fetch(new Request(url, c.req.raw), c.env, c.executionCtx);
  });

  // The JWKS named by every card signature's `jku` (A2A 1.0 §8.4.3); the listed
  // extra keys let verifiers accept cards signed before a key rotation.
  app.get(JWKS_PATH, async (c) => {
    const runtime = c.get("runtime");
    const { config } = runtime;
    const target = requestTarget(c.req.url);
    const hostname = publicHostname(publicBaseUrl(target, c.req.raw.headers, config), target);
    if (!config.signingKey || !isServedHost(config, hostname)) throw new HttpError(404, "Not found");
    // Never publish a key the cards cannot be signed with (an unimportable key fails both alike).
    await runtime.signer();
    const keys = [publicJwk(config.signingKey), ...config.extraPublicKeys.filter((k) => k.kid !== config.signingKey!.kid)];
    return new Response(JSON.stringify({ keys }), {
      headers: {
        "content-type": "application/jwk-set+json",
        "cache-control": `public, max-age=${config.cardMaxAge}`,
        "access-control-allow-origin": "*",
      },
    });
  });

  app.notFound(() => errorResponse(404, "Not found"));
  app.onError(renderError);
  return app;
}

/**
 * The exported worker. A card GET (the traffic that matters: every peer,
 * registry and browser fetches it) is answered before the router, by the same
 * handler as the route; everything else, including HEAD and errors, goes
 * through the app. Measured in workerd: ~15% more card req/s (`npm run bench:card`).
 */
export function createWorker(deps: RuntimeDeps = {}): ExportedHandler<Env> {
  const app = createApp(deps);
  return {
    fetch(request, env, ctx) {
      if (request.method === "GET") {
        const url = requestTarget(request.url);
        if (CARD_PATHS.has(url.pathname)) {
          try {
            const response = cardResponse(request, url, runtimeFor(env, deps), keepAliveOf(ctx));
            return response instanceof Promise ? response.catch(renderError) : response;
          } catch (error) {
            return renderError(error);
          }
        }
      }
      return app.fetch(request, env, ctx);
    },
  };
}
