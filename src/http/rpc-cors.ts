// CORS of the JSON-RPC endpoint (CORS_ALLOWED_ORIGINS): `*` by default
// (requests carry Authorization explicitly, never cookies), or the listed
// origins reflected with `Vary: Origin`; never credentials. Preflights and
// routed requests go through hono/cors with these options.
import type { cors } from "hono/cors";
import type { Config } from "../config";

/** The paths of the endpoint: RPC_PATH with and without the trailing slash (the 1.0 TCK posts to "<interface url>/"). */
export function rpcPaths(rpcPath: string): string[] {
  return rpcPath === "/" ? ["/"] : [rpcPath, `${rpcPath}/`];
}

/** What a browser page may send to the RPC endpoint. */
const ALLOW_HEADERS = ["Content-Type", "Authorization", "A2A-Version", "A2A-Extensions", "X-A2A-Extensions"];
export const RPC_METHODS = ["POST", "OPTIONS"];

type CorsOptions = NonNullable<Parameters<typeof cors>[0]>;

export function rpcCorsOptions(config: Pick<Config, "corsAllowedOrigins">): CorsOptions {
  return { origin: config.corsAllowedOrigins, allowMethods: RPC_METHODS, allowHeaders: ALLOW_HEADERS, maxAge: 86_400 };
}

/**
 * What hono/cors adds to an actual (not preflight) response with those
 * options, for the RPC fast path (app.ts) that skips the router: the same
 * headers, checked side by side by test/worker/routes.test.ts.
 */
export function addRpcCors(response: Response, requestOrigin: string | null, allowed: Config["corsAllowedOrigins"]): Response {
  if (allowed === "*") {
    response.headers.set("access-control-allow-origin", "*");
    return response;
  }
  if (requestOrigin !== null && allowed.includes(requestOrigin)) response.headers.set("access-control-allow-origin", requestOrigin);
  response.headers.append("vary", "Origin");
  return response;
}
