// What every route knows about one request once it is admitted: the public
// base it is served under (and that base's host, normalized), the isolate's
// runtime, where it came from and how to keep shared work alive.
import type { Failure } from "../errors/failures";
import { failure } from "../errors/failures";
import type { RequestLocation } from "../proxy/origin-router";
import type { Runtime } from "../runtime";
import type { KeepAlive } from "./body";
import { isServedHost, publicBaseUrl, publicHostname } from "./public-base";
import type { RequestTarget } from "./request-target";

export interface EdgeRequest {
  request: Request;
  target: RequestTarget;
  runtime: Runtime;
  /** Public base URL (scheme://host[/prefix]) every URL of the answer is built from. */
  base: string;
  /** Its host, lower case, without a trailing dot. */
  hostname: string;
  /** request.cf.colo / continent, for origin choice. */
  where: RequestLocation;
  /** Work started for later requests survives this one (ctx.waitUntil). */
  keepAlive: KeepAlive;
}

/** The request as routes see it, or NOT_FOUND for a host outside HOST_ALLOWLIST (an unknown host gets no agent at all). */
export function admitRequest(request: Request, target: RequestTarget, runtime: Runtime, keepAlive: KeepAlive): EdgeRequest | Failure {
  const base = publicBaseUrl(target, request.headers, runtime.config);
  const hostname = publicHostname(base, target);
  if (!isServedHost(runtime.config, hostname)) return failure("NOT_FOUND");
  const cf = request.cf as IncomingRequestCfProperties | undefined;
  return { request, target, runtime, base, hostname, where: { colo: cf?.colo, continent: cf?.continent }, keepAlive };
}
