// Every route of the worker, in one table, built once per configuration (the
// RPC and admin paths are configured). Read top to bottom: the card, the page,
// the JWKS, the JSON-RPC endpoint, the admin API, then the fallbacks.
import type { Context } from "hono";
import { cors } from "hono/cors";
// hono/tiny (PatternRouter): 2.4 KiB gzip less than the default SmartRouter (62.9 -> 60.5 KiB); the card GET and
// the JSON-RPC POST are answered before the router (app.ts), so its matching speed is off the hot path.
import { Hono } from "hono/tiny";
import { getPath } from "hono/utils/url";
import { createAdminApp } from "./admin/admin-api";
import { AI_CATALOG_PATH, API_CATALOG_PATH, ARD_PATH } from "./agents/catalog";
import { catalogResponse } from "./agents/catalog-routes";
import { requestPrefix } from "./agents/request-agent";
import { handleRest, handleRpc } from "./call/run";
import { CARD_CORS_ORIGIN, CARD_METHODS } from "./card/card-headers";
import { cardResponse, pageResponse } from "./card/card-routes";
import { CARD_PATH, LEGACY_CARD_PATH } from "./card/variant";
import { EdgeError, isFailure } from "./errors/failures";
import { httpFailureResponse, renderError } from "./errors/responses";
import { subscribe } from "./feed/feed-routes";
import { feedEnabled } from "./feed/publish";
import { admitRequest, type EdgeRequest } from "./http/edge-request";
import { routedTarget, withoutPrefix } from "./http/request-target";
import { RPC_METHODS, rpcCorsOptions, rpcPaths } from "./http/rpc-cors";
import { RELAY_PATH } from "./push/relay-configs";
import { handleRelayPost } from "./push/relay-endpoint";
import type { Runtime } from "./runtime";
import { JWKS_PATH } from "./sign/card-signer";
import { type PublicJwk, publicJwk } from "./sign/keys";

export type AppEnv = { Bindings: Env };

const CARD_PATHS = [CARD_PATH, LEGACY_CARD_PATH];
const CATALOGS = [
  [API_CATALOG_PATH, "api"],
  [AI_CATALOG_PATH, "ai"],
  [ARD_PATH, "ard"],
] as const;
const ONE_DAY = 86_400;

/** The request as every route sees it; a host outside HOST_ALLOWLIST ends here with 404. */
function edgeOf(c: Context<AppEnv>, runtime: Runtime): EdgeRequest {
  const edge = admitRequest(c.req.raw, routedTarget(c.req.url, requestPrefix(c.req.raw, runtime)), runtime, (promise) =>
    c.executionCtx.waitUntil(promise),
  );
  if (isFailure(edge)) throw new EdgeError(edge.reason);
  return edge;
}

const methodNotAllowed = (allow: string[]) => () => {
  throw new EdgeError("METHOD_NOT_ALLOWED", undefined, { headers: { allow: allow.join(", ") } });
};

/** The JWKS: the card signing key (with the keys of a rotation), and the key that signs A2A-Caller-Assertion. */
async function publishedKeys(runtime: Runtime): Promise<{ keys: PublicJwk[] }> {
  const keys = runtime.signer ? (await runtime.signer.jwks()).keys : [];
  const assertionKey = runtime.config.assertionKey;
  if (assertionKey && !keys.some((key) => key.kid === assertionKey.kid)) keys.push(publicJwk(assertionKey));
  return { keys };
}

/** The HTTP+JSON binding under REST_PATH: every A2A REST route of both versions (bindings/rest-client.ts), CORS as for JSON-RPC. */
function mountRest(app: Hono<AppEnv>, runtime: Runtime, restPath: string): void {
  const under = `${restPath === "/" ? "" : restPath}/*`;
  app.use(under, cors({ ...rpcCorsOptions(runtime.config), allowMethods: ["GET", "POST", "DELETE", "OPTIONS"] }));
  app.all(under, (c) => handleRest(edgeOf(c, runtime), restPath));
}

export function createRoutes(runtime: Runtime): Hono<AppEnv> {
  const { adminPath } = runtime.config;
  const paths = rpcPaths(runtime.config.rpcPath);
  // Hono's own path reading (percent-decoding included), minus the PUBLIC_BASE_URL path and the agent's.
  const app = new Hono<AppEnv>({ getPath: (request) => withoutPrefix(getPath(request), requestPrefix(request, runtime)) });

  // The card (A2A discovery), and its page for browsers. Hono answers HEAD from GET, without the body.
  const cardCors = cors({
    origin: CARD_CORS_ORIGIN,
    allowMethods: CARD_METHODS,
    allowHeaders: ["A2A-Version", "If-None-Match"],
    maxAge: ONE_DAY,
  });
  for (const path of CARD_PATHS) app.use(path, cardCors);
  app.get("/", (c) => pageResponse(edgeOf(c, runtime)));
  app.get(CARD_PATH, (c) => cardResponse(edgeOf(c, runtime)));
  app.get(LEGACY_CARD_PATH, (c) => cardResponse(edgeOf(c, runtime)));
  app.on(["PUT", "POST", "PATCH", "DELETE"], CARD_PATHS, methodNotAllowed(CARD_METHODS));

  // The host's catalogs of its agents (RFC 9727 api-catalog, the AI Catalog draft's ai-catalog.json, ARD's ard.json).
  for (const [path, which] of CATALOGS) app.get(path, (c) => catalogResponse(edgeOf(c, runtime), which));

  // The JWKS named by every card signature's `jku` (A2A 1.0 §8.4.3).
  app.get(JWKS_PATH, async (c) => {
    edgeOf(c, runtime);
    const jwks = await publishedKeys(runtime);
    if (jwks.keys.length === 0) throw new EdgeError("NOT_FOUND");
    const headers = {
      "content-type": "application/jwk-set+json",
      "cache-control": `public, max-age=${runtime.config.cardMaxAge}`,
      "access-control-allow-origin": "*",
    };
    return new Response(JSON.stringify(jwks), { headers });
  });

  // JSON-RPC, with and without the trailing slash; CORS as http/rpc-cors.ts says.
  const rpcCors = cors(rpcCorsOptions(runtime.config));
  for (const path of paths) {
    app.use(path, rpcCors);
    app.post(path, (c) => handleRpc(edgeOf(c, runtime)));
  }
  // GET stays the page at `/` (404 elsewhere); other writes get 405.
  app.on(["PUT", "PATCH", "DELETE"], paths, methodNotAllowed(RPC_METHODS));

  // The push relay's endpoint for the origin's notifications (PUSH_RELAY=on), before REST's catch-all.
  if (runtime.config.pushRelay === "on") {
    app.post(`${RELAY_PATH}/:ref`, (c) => handleRelayPost(edgeOf(c, runtime), c.req.param("ref")));
  }
  // The live feed of card changes (a WebSocket per subscriber), only with FEED_TOKEN or FEED_PUBLIC, on a host the edge serves.
  if (feedEnabled(runtime.config)) app.get(`${runtime.config.feedPath}/:feed`, (c) => subscribe(c, edgeOf(c, runtime)));
  if (runtime.config.restPath !== undefined) mountRest(app, runtime, runtime.config.restPath);

  // The admin API, only with ADMIN_TOKEN (otherwise its paths are unknown).
  if (runtime.config.adminToken) app.route(adminPath, createAdminApp(runtime));

  app.notFound(() => httpFailureResponse({ failed: true, reason: "NOT_FOUND" }));
  app.onError(renderError);
  return app;
}
