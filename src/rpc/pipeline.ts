// POST <rpc path>: a JSON-RPC call, validated at the edge and streamed to the
// origin agent, as named stages (README "How a request flows"):
//   read body -> validate -> version -> authenticate -> rate limit
//   -> resolve origin -> send with failover -> classify the reply -> transform.
// Each stage returns its value or a Failure (a row of errors/failures.ts); a
// failure becomes a JSON-RPC envelope with the request's id (null when it
// could not be read). One structured log line per failure, in the stage.
import { methodFor, operationOfMethod } from "../a2a/correspondence";
import type { Caller } from "../auth/edge-auth";
import type { CardSource } from "../card/source";
import type { OperationAllowlist } from "../config/values";
import { EdgeError, type Failure, failure, isFailure } from "../errors/failures";
import { type RpcId, rpcFailureResponse } from "../errors/responses";
import type { EdgeRequest } from "../http/edge-request";
import { searchParam } from "../http/request-target";
import { log } from "../log";
import { classifyReply } from "../proxy/classify";
import { callerHeaders, clientQuery, originRequestHeaders } from "../proxy/forwarding-headers";
import type { OriginRoute } from "../proxy/origin-router";
import { type OriginCall, sendToRestOrigin } from "../proxy/rest-origin-call";
import { sendWithFailover } from "../proxy/send";
import { transformReply } from "../proxy/transform";
import { authenticate, withinRateLimit } from "./authenticate";
import { type BridgedCall, bridgeCall } from "./bridge-call";
import { readRpcBody } from "./read-body";
import { type RpcCall, validateRpcRequest } from "./validate";
import { requestVersion, unservedVersion } from "./version";

/** A call the edge admitted, with the A2A version it was checked as (`Major.Minor`), translated if the origin needs it. */
export type AdmittedCall = RpcCall & { version: string; bridge?: BridgedCall };

/** Stages 1-3: the call as read and validated, with its A2A version, or why not (with the id, once it could be read). */
async function admitCall(edge: EdgeRequest): Promise<(RpcCall & { version: string }) | { id: RpcId; failure: Failure }> {
  const { config } = edge.runtime;
  const body = await readRpcBody(edge.request, config);
  if (isFailure(body)) return { id: null, failure: body };
  const validated = validateRpcRequest(body);
  if (!validated.ok) return validated;
  const { call } = validated;
  return { ...call, version: requestVersion(versionHeaderOf(edge), call.method) };
}

/** The caller's `A2A-Version`: the header, else the query parameter (A2A 1.0 §3.6); null when neither is sent. */
export function versionHeaderOf(edge: EdgeRequest): string | null {
  return edge.request.headers.get("a2a-version") ?? searchParam(edge.target, "A2A-Version");
}

/**
 * METHOD_ALLOWLIST names operations: a call passes when its operation is listed under either version's
 * name, whatever the binding; a method that is no A2A operation (an extension's) only when listed as written.
 */
function allowedBy(allowlist: OperationAllowlist | undefined, method: string): boolean {
  if (!allowlist) return true;
  const operation = operationOfMethod(method);
  return operation ? allowlist.operations.has(operation) : allowlist.extensionMethods.has(method);
}

/** The operation's 1.0 name (`message/send` -> `SendMessage`), as the caller assertion names it; an extension method as it is. */
function operationName(method: string): string {
  const operation = operationOfMethod(method);
  return operation ? (methodFor("1.0", operation) ?? method) : method;
}

/** Stages 4-5: the caller the card's schemes identify (or none), within its rate limit. */
async function admitCaller(edge: EdgeRequest, call: RpcCall): Promise<Caller | undefined | Failure> {
  let source: CardSource;
  try {
    const found = edge.runtime.cards.source(edge.hostname, edge.keepAlive);
    source = found instanceof Promise ? await found : found;
  } catch (error) {
    // The host's card cannot be read (CARD_UNAVAILABLE): its security is unknown, so the call is refused, in the caller's binding.
    if (error instanceof EdgeError) return error.failure;
    throw error;
  }
  const caller = await authenticate(edge, call, source);
  // A refused call counts too, against the client's address: guessing credentials is rate limited.
  if (isFailure(caller)) return (await withinRateLimit(edge, undefined)) ?? caller;
  return (await withinRateLimit(edge, caller)) ?? caller;
}

/** Stage 6: the origin for this host's call. */
async function resolveOrigin(edge: EdgeRequest, method: string): Promise<OriginRoute | Failure> {
  const { cards, origins } = edge.runtime;
  const found = cards.store.lookup(edge.hostname, edge.keepAlive);
  const document = found instanceof Promise ? await found : found;
  const route = origins.route(document, edge.hostname, edge.where);
  if (route.candidates.length > 0) return route;
  log("error", "origin_failed", { kind: "not_configured", method });
  return failure("ORIGIN_NOT_CONFIGURED", "no origin agent is configured");
}

/** The call as the origin receives it: translated into its version when bridged. */
function originCall(call: AdmittedCall): OriginCall {
  const { bridge } = call;
  return bridge
    ? { id: call.id, method: bridge.originMethod, params: bridge.originParams, version: bridge.originVersion }
    : { id: call.id, method: call.method, params: call.params, version: call.version };
}

/** Stages 7-9: the origin's answer, made the client's. */
async function forward(edge: EdgeRequest, call: AdmittedCall, caller: Caller | undefined, route: OriginRoute): Promise<Response | Failure> {
  const { config } = edge.runtime;
  const consumed = caller && !config.forwardCredentials ? caller.consumed : [];
  const headers = originRequestHeaders(edge.request.headers, config, {
    scheme: edge.publicScheme,
    host: edge.publicHost,
    clientIp: edge.request.headers.get("cf-connecting-ip") ?? undefined,
    consumed,
  });
  // The body is a JSON-RPC request, application/json: a REST call's own type (none on a GET, or application/a2a+json) is not the origin's.
  if (headers.get("content-type")?.split(";")[0]?.trim().toLowerCase() !== "application/json")
    headers.set("content-type", "application/json");
  // The origin runs the version the edge checked (or translated to), never the client's own header: a call
  // without one (the @a2a-js/sdk 1.3 client's GetExtendedAgentCard) was admitted by its method's generation,
  // which an origin would read as 0.3 (§3.6); a REST call's version is its route's.
  headers.set("a2a-version", call.bridge ? call.bridge.originVersion : call.version);
  const assert = caller ? callerHeaders(headers, edge, caller, operationName(call.method)) : undefined;
  const bytes = call.bridge?.bytes ?? call.bytes;
  const reply =
    config.originBinding === "http+json"
      ? await sendToRestOrigin(edge, originCall(call), headers, route, assert)
      : await sendWithFailover(edge, route, {
          headers,
          body: bytes,
          method: call.method,
          search: clientQuery(edge.target.search, consumed),
          // The assertion's audience is the origin this attempt goes to (a region's, a document's, ORIGIN_URL).
          beforeAttempt: assert && ((candidate, url, out) => assert(candidate, "POST", url, bytes, out)),
        });
  if (isFailure(reply)) return reply;
  const classified = classifyReply(reply, call.method);
  if (isFailure(classified)) return classified;
  return transformReply(edge, call, route, classified);
}

/** Stages 3b-9 for a call read and validated (JSON-RPC here, a REST call translated by rest/rest-handler.ts). */
export async function runCall(edge: EdgeRequest, call: RpcCall, version: string): Promise<Response | Failure> {
  if (!allowedBy(edge.runtime.config.methodAllowlist, call.method)) return failure("METHOD_NOT_FOUND");
  const unserved = unservedVersion(version, edge.runtime.cards.servedVersions());
  if (unserved) return unserved;
  const bridge = bridgeCall(call, version, edge.runtime.cards.originVersions());
  if (isFailure(bridge)) return bridge;
  const admitted: AdmittedCall = bridge ? { ...call, version, bridge } : { ...call, version };
  const caller = await admitCaller(edge, admitted);
  if (isFailure(caller)) return caller;
  const route = await resolveOrigin(edge, call.method);
  if (isFailure(route)) return route;
  return forward(edge, admitted, caller, route);
}

export async function handleRpc(edge: EdgeRequest): Promise<Response> {
  const call = await admitCall(edge);
  if ("failure" in call) return rpcFailureResponse(call.failure, call.id);
  const answer = await runCall(edge, call, call.version);
  return isFailure(answer) ? rpcFailureResponse(answer, call.id) : answer;
}
