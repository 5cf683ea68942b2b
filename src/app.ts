// The exported worker: the route table of this configuration (routes.ts), and
// one measured shortcut into it.
import type { Hono } from "hono/tiny";
import { frameworkPath } from "./agents/framework-paths";
import { findAgent, requestPrefix } from "./agents/request-agent";
import { handleRpc } from "./call/run";
import { cardResponse, wantsHtml } from "./card/card-routes";
import { CARD_PATH, LEGACY_CARD_PATH } from "./card/variant";
import { isFailure } from "./errors/failures";
import { httpFailureResponse, renderError } from "./errors/responses";
import { lingerBehind } from "./http/body";
import { admitRequest } from "./http/edge-request";
import { routedTarget } from "./http/request-target";
import { addRpcCors, rpcPaths } from "./http/rpc-cors";
import { type AppEnv, createRoutes } from "./routes";
import { type Runtime, type RuntimeDeps, runtimeFor } from "./runtime";

/**
 * A JSON-RPC POST is answered before the router too, by the same pipeline as
 * its route, with the CORS headers hono/cors would add (http/rpc-cors.ts).
 * Measured in workerd (A/B of the built bundle with and without it, ~1 KiB
 * SendMessage, fixed-JSON origin): 1.18x the req/s, 36 µs less per call.
 */
function rpcFastPath(request: Request, runtime: Runtime, ctx: ExecutionContext): Promise<Response> | undefined {
  if (request.method !== "POST") return undefined;
  const target = routedTarget(request.url, requestPrefix(request, runtime));
  if (!rpcPaths(runtime.config.rpcPath).includes(target.pathname)) return undefined;
  const edge = admitRequest(request, target, runtime, (promise) => ctx.waitUntil(promise));
  if (isFailure(edge)) return undefined; // the router answers it (404), as for any other path
  const origin = request.headers.get("origin");
  return handleRpc(edge).then((response) => addRpcCors(response, origin, runtime.config.corsAllowedOrigins), renderError);
}

/**
 * The card GET (the traffic that matters: every peer, registry and browser
 * fetches it) is answered before the router, by the same handler as its
 * route; everything else, HEAD, pages and errors included, goes through the
 * route table. Measured in workerd: ~15% more card req/s (`npm run bench:card`).
 */
function cardFastPath(request: Request, runtime: Runtime, ctx: ExecutionContext): Response | Promise<Response> | undefined {
  if (request.method !== "GET" || wantsHtml(request)) return undefined;
  const target = routedTarget(request.url, requestPrefix(request, runtime));
  if (target.pathname !== CARD_PATH && target.pathname !== LEGACY_CARD_PATH) return undefined;
  const edge = admitRequest(request, target, runtime, (promise) => ctx.waitUntil(promise));
  if (isFailure(edge)) return httpFailureResponse(edge);
  const response = cardResponse(edge);
  return response instanceof Promise ? response.catch(renderError) : response;
}

/**
 * A framework client's path (MASTRA_API_PREFIX: agents/framework-paths.ts) as a request for the edge path it
 * means, everything else as it came (its `cf`, the client certificate's verdict included, goes with it).
 */
function atEdgePath(request: Request, runtime: Runtime): Request {
  if (runtime.config.mastraApiPrefix === undefined) return request;
  const target = routedTarget(request.url, runtime.pathPrefix);
  const path = frameworkPath(target.pathname, runtime.config);
  if (path === undefined) return request;
  const url = `${target.origin}${runtime.pathPrefix}${path}${target.search}`;
  return new Request(url, { method: request.method, headers: request.headers, body: request.body, cf: request.cf });
}

export function createWorker(deps: RuntimeDeps = {}): ExportedHandler<Env> {
  const apps = new WeakMap<Runtime, Hono<AppEnv>>();
  const appFor = (runtime: Runtime) => {
    let app = apps.get(runtime);
    if (!app) {
      app = createRoutes(runtime);
      apps.set(runtime, app);
    }
    return app;
  };
  return {
    fetch(received, env, ctx) {
      let runtime: Runtime;
      try {
        runtime = runtimeFor(env, deps);
      } catch (error) {
        return renderError(error);
      }
      const request = atEdgePath(received, runtime);
      const keepAlive = (promise: Promise<unknown>) => ctx.waitUntil(promise);
      // A refusal sent with the request body unread ends only once the rest is read (http/body.ts).
      const settle = (response: Response) => lingerBehind(request, response, runtime.config.bodyTimeoutMs, keepAlive);
      const dispatch = () => {
        let response: Response | Promise<Response>;
        try {
          response = cardFastPath(request, runtime, ctx) ?? rpcFastPath(request, runtime, ctx) ?? appFor(runtime).fetch(request, env, ctx);
        } catch (error) {
          response = renderError(error);
        }
        if (request.body === null) return response;
        return response instanceof Promise ? response.then(settle) : settle(response);
      };
      // The agent first (agents by path): synchronous once the isolate holds the host's index.
      const found = findAgent(request, runtime, keepAlive);
      return found ? found.then(dispatch, renderError) : dispatch();
    },
  };
}

/** The route table alone, without the fast path (tests check that both answer alike). */
export function createApp(deps: RuntimeDeps = {}): {
  fetch: (request: Request, env: Env, ctx: ExecutionContext) => Response | Promise<Response>;
} {
  return { fetch: (request, env, ctx) => createRoutes(runtimeFor(env, deps)).fetch(request, env, ctx) };
}
