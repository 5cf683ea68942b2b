// A call from decoding to the client's answer, the same for every binding:
//   client codec decodes -> admit (every policy, admit.ts) -> the origin
//   codec's request, sent with failover and the caller's headers -> the one
//   reply path (reply.ts) -> the client codec renders.
// Each stage returns its value or a Failure (a row of errors/failures.ts),
// which the client codec renders in its binding's form. Every call, of every
// binding, runs in one observed scope (observe/call-scope.ts): its W3C trace,
// its access record and data point.
import { decodeJsonRpc, jsonRpcClient } from "../bindings/jsonrpc-client";
import { decodeRest, restClient } from "../bindings/rest-client";
import { type Failure, isFailure } from "../errors/failures";
import { rpcFailureResponse } from "../errors/responses";
import type { EdgeRequest } from "../http/edge-request";
import { type CallScope, observeCall } from "../observe/call-scope";
import { setTraceHeaders } from "../observe/trace-context";
import { clientQuery, originRequestHeaders } from "../proxy/forwarding-headers";
import type { OriginRoute } from "../proxy/origin-router";
import { type OriginReply, sendWithFailover } from "../proxy/send";
import { withoutCursor } from "../streams/event-id";
import { keeperOf, keptCall, type Prepared } from "../streams/kept-calls";
import { type Admitted, admit, operationName } from "./admit";
import type { Call, ClientCodec } from "./call";
import { callerHeaders } from "./caller";
import { respond } from "./reply";

/** The admitted call's origin request: the forwarded headers, the caller's, the version it runs, its candidates. */
function prepare(edge: EdgeRequest, plan: Admitted, scope: CallScope, kept: boolean): Prepared & { through: OriginRoute["through"] } {
  const { config } = edge.runtime;
  const { caller, origin, request, route } = plan;
  const consumed = caller && !config.forwardCredentials ? caller.consumed : [];
  const headers = originRequestHeaders(edge.request.headers, config, {
    scheme: edge.publicScheme,
    host: edge.publicHost,
    clientIp: edge.request.headers.get("cf-connecting-ip") ?? undefined,
    consumed,
    originHeaders: route.headers,
  });
  // The body is the origin codec's: the client's own type (none on a GET, or application/a2a+json) is not the origin's.
  if (request.contentType === undefined) headers.delete("content-type");
  else if (headers.get("content-type")?.split(";")[0]?.trim().toLowerCase() !== request.contentType)
    headers.set("content-type", request.contentType);
  // The origin runs the version the edge checked (or translated to), never the client's own header: a call
  // without one (the @a2a-js/sdk 1.3 client's GetExtendedAgentCard) was admitted by its method's generation,
  // which an origin would read as 0.3 (§3.6); a REST call's version is its route's.
  headers.set("a2a-version", origin.version);
  // The edge is a span of the call's trace: the origin's parent is the edge (W3C Trace Context §3.2.2.4).
  setTraceHeaders(headers, scope.trace);
  const assert = caller ? callerHeaders(headers, edge, caller, operationName(plan.call.method)) : undefined;
  const { body, httpMethod, url, audience } = request;
  const clientSearch = clientQuery(edge.target.search, consumed);
  return {
    // A REST origin's request has its own URL (checked under its base); a JSON-RPC origin's is the route's, with failover.
    candidates: url === undefined ? route.candidates : [url],
    through: route.through,
    request: {
      headers,
      body,
      method: plan.call.method,
      // A kept stream's cursor is the edge's, never the origin's.
      search: url === undefined ? (kept ? withoutCursor(clientSearch) : clientSearch) : request.query,
      httpMethod,
      onAttempt: (origin) => scope.attempt(origin),
      // The assertion's audience is the origin this attempt goes to (a region's, a document's, ORIGIN_URL, ORIGIN_REST_URL).
      beforeAttempt: assert && ((candidate, target, out) => assert(audience ?? candidate, httpMethod, target, body, out)),
    },
  };
}

/** The admitted call to its origin, with failover. */
function send(edge: EdgeRequest, prepared: ReturnType<typeof prepare>): Promise<OriginReply | Failure> {
  return sendWithFailover(edge, prepared, prepared.request);
}

async function runCall(edge: EdgeRequest, codec: ClientCodec, call: Call, scope: CallScope): Promise<Response> {
  const refused = (failure: Failure) => {
    scope.failedWith(failure);
    return codec.failure(failure, call);
  };
  scope.decoded(call, operationName(call.method));
  const plan = await admit(edge, call);
  if (isFailure(plan)) return refused(plan);
  scope.admitted(plan);
  const keeper = keeperOf(edge, plan);
  let reply: OriginReply | Failure;
  if (keeper) {
    // STREAM_RESUME=on: a TaskStream sends it and keeps the stream; any other answer comes back as a reply.
    const kept = await keptCall(edge, plan, scope, codec, keeper, prepare(edge, plan, scope, true));
    if ("response" in kept) return kept.response;
    reply = "failure" in kept ? kept.failure : kept.reply;
  } else reply = await send(edge, prepare(edge, plan, scope, false));
  if (isFailure(reply)) return refused(reply);
  const answer = await respond(edge, plan, reply, codec);
  return isFailure(answer) ? refused(answer) : answer;
}

/** POST <RPC_PATH>: a JSON-RPC call. */
export function handleRpc(edge: EdgeRequest): Promise<Response> {
  return observeCall(edge, "jsonrpc", edge.runtime.config.rpcPath, async (scope) => {
    const call = await decodeJsonRpc(edge);
    if (!("failure" in call)) return runCall(edge, jsonRpcClient, call, scope);
    scope.failedWith(call.failure);
    return rpcFailureResponse(call.failure, call.id);
  });
}

/** Any method under <REST_PATH>: an HTTP+JSON call. */
export function handleRest(edge: EdgeRequest, restPath: string): Promise<Response> {
  return observeCall(edge, "http+json", restPath, async (scope) => {
    const call = await decodeRest(edge, restPath);
    if (!("refused" in call)) return runCall(edge, restClient, call, scope);
    scope.failedWith(call.refused);
    return call.response;
  });
}
