// What every route knows about one request once it is admitted: the public
// base it is served under (and that base's host, normalized), the isolate's
// runtime, where it came from and how to keep shared work alive.
import { agentPathOf } from "../agents/request-agent";
import type { Failure } from "../errors/failures";
import { failure } from "../errors/failures";
import type { RequestLocation } from "../proxy/origin-router";
import type { Runtime } from "../runtime";
import type { KeepAlive } from "./body";
import { Deadlines } from "./deadlines";
import { isServedHost, publicBaseUrl } from "./public-base";
import type { RequestTarget } from "./request-target";

export interface EdgeRequest {
  request: Request;
  target: RequestTarget;
  runtime: Runtime;
  /** Public base URL (scheme://host[/prefix][/agent path]) every URL of the answer is built from. */
  base: string;
  /** The same without the agent path: where the host's catalogs are. */
  hostBase: string;
  /** Its host, lower case, without a trailing dot. */
  hostname: string;
  /** The key of the agent's card-source document: the hostname, or `<hostname><agent path>` (agents by path). */
  agentKey: string;
  /** Its `host[:port]` and scheme (`https`), as X-Forwarded-Host/-Proto tell the origin. */
  publicHost: string;
  publicScheme: string;
  /** request.cf.colo / continent, for origin choice. */
  where: RequestLocation;
  /** Work started for later requests survives this one (ctx.waitUntil). */
  keepAlive: KeepAlive;
  /** Every wait of this request bounded on one timer (its body, its origin, the origin's reply). */
  deadlines: Deadlines;
}

/** The request as routes see it, or NOT_FOUND for a host outside HOST_ALLOWLIST (an unknown host gets no agent at all). */
export function admitRequest(request: Request, target: RequestTarget, runtime: Runtime, keepAlive: KeepAlive): EdgeRequest | Failure {
  const base = publicBaseUrl(target, request.headers, runtime.config);
  // The common case, a base that is the request's own origin, needs no URL parsing (a hot path).
  const own = base === target.origin;
  const url = own ? undefined : new URL(base);
  const hostname = url ? url.hostname : target.hostname;
  if (!isServedHost(runtime.config, hostname)) return failure("NOT_FOUND");
  const publicHost = url ? url.host : target.host;
  const publicScheme = (url ? url.protocol : target.protocol).slice(0, -1);
  const cf = request.cf as IncomingRequestCfProperties | undefined;
  const where = { colo: cf?.colo, continent: cf?.continent };
  // A path agent's URLs are all under its path, and its document is its own key (request-agent.ts).
  const agentPath = agentPathOf(request);
  const agentKey = `${hostname}${agentPath}`;
  return {
    request,
    target,
    runtime,
    base: `${base}${agentPath}`,
    hostBase: base,
    hostname,
    agentKey,
    publicHost,
    publicScheme,
    where,
    keepAlive,
    deadlines: new Deadlines(),
  };
}
