// The admission pipeline: every policy of the edge, once, for a call of any
// binding and version (README "How a request flows"), in this order:
//   operation allowlist -> version served -> the params read once, into their
//   canonical form (src/messages/: every later stage, and the origin, gets
//   that reading) -> the origin's version has the
//   operation -> authentication -> rate limit -> parameter checks (the call
//   as the origin's request) -> the origin of this host -> push notification
//   configs (their webhook URLs, push/guard-stage.ts: the origin's hosts are
//   among those a webhook may not name) -> with PUSH_RELAY=on, the relay's
//   URL in place of the client's webhook (push/relay-stage.ts).
// The body cap, deadline and media type come first, where a client codec
// reads the body (http/request-body.ts). A policy added later is a stage here
// and a row of the parity table (test/support/parity.ts).
import { methodFor, operationOfMethod } from "../a2a/correspondence";
import type { Caller } from "../auth/edge-auth";
import { translateRequest } from "../bridge";
import type { OperationAllowlist } from "../config/values";
import { type Failure, failure, isFailure } from "../errors/failures";
import type { EdgeRequest } from "../http/edge-request";
import { log } from "../log";
import { readParams } from "../messages/calls";
import { jsonRpcOrigin } from "../origins/jsonrpc-origin";
import { restOrigin } from "../origins/rest-origin";
import type { OriginRoute } from "../proxy/origin-router";
import { guardPushConfigs, pushRulesFor } from "../push/guard-stage";
import { serializedUrls } from "../push/push-configs";
import { type RelayPlan, relayStage } from "../push/relay-stage";
import type { Call, OriginCodec, OriginRequest } from "./call";
import { admitCaller } from "./caller";
import { generationOf, unservedVersion } from "./version";

/** A call the edge admitted: the caller's, the origin's (translated when its generation differs), who called and where it goes. */
export interface Admitted {
  call: Call;
  origin: Call;
  codec: OriginCodec;
  request: OriginRequest;
  caller: Caller | undefined;
  route: OriginRoute;
  /** Same binding and generation on both sides: the origin's reply can go to the client unread. */
  native: boolean;
  /** PUSH_RELAY=on and the call touches a push config: what the reply path does for the relay. */
  relay?: RelayPlan;
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
export function operationName(method: string): string {
  const operation = operationOfMethod(method);
  return operation ? (methodFor("1.0", operation) ?? method) : method;
}

/**
 * The call in the version the origin speaks (ORIGIN_PROTOCOL_VERSIONS, first, when it does not speak the
 * caller's): translated by the bridge, or METHOD_NOT_FOUND for an operation that version lacks (1.0
 * ListTasks for a 0.3 origin).
 */
function originSide(call: Call, originVersions: readonly string[]): Call | Failure {
  const originVersion = originVersions[0];
  if (originVersion === undefined || originVersions.includes(call.version)) return call;
  const generation = generationOf(originVersion);
  if (generation === call.generation) return call;
  const translated = translateRequest({ method: call.method, params: call.params }, call.generation, generation);
  if ("unsupported" in translated) return failure("METHOD_NOT_FOUND", `${call.method} has no counterpart in A2A ${originVersion}`);
  return { ...withoutBytes(call), version: originVersion, generation, method: translated.method, params: translated.params };
}

/**
 * The call with its params in their one canonical form (src/messages/reader.ts), or INVALID_PARAMS naming
 * the member two readers would read differently. The bytes received go on only when they were canonical.
 */
function readCall(call: Call): Call | Failure {
  const read = readParams(call.method, call.params);
  if ("refused" in read) {
    const { path, message } = read.refused;
    const at = call.binding === "jsonrpc" ? `params${path === "" || path.startsWith("[") ? "" : "."}${path}` : path || "body";
    return failure("INVALID_PARAMS", `${at} ${message}`, { violations: [{ path: at, message }] });
  }
  return read.changed ? { ...withoutBytes(call), params: read.value } : call;
}

/** The call without the bytes it was received as (its params are no longer those bytes'). */
function withoutBytes(call: Call): Call {
  const { bytes: _received, ...rest } = call;
  return rest;
}

/** The origin for this host's call. */
async function resolveOrigin(edge: EdgeRequest, method: string): Promise<OriginRoute | Failure> {
  const { cards, origins } = edge.runtime;
  const found = cards.store.lookup(edge.agentKey, edge.keepAlive);
  const document = found instanceof Promise ? await found : found;
  const route = origins.route(document, edge.agentKey, edge.where);
  if (route.candidates.length > 0) return route;
  log("error", "origin_failed", { kind: "not_configured", method });
  return failure("ORIGIN_NOT_CONFIGURED", "no origin agent is configured");
}

export async function admit(edge: EdgeRequest, received: Call): Promise<Admitted | Failure> {
  const { config, cards } = edge.runtime;
  if (!allowedBy(config.methodAllowlist, received.method)) return failure("METHOD_NOT_FOUND");
  const unserved = unservedVersion(received.version, cards.servedVersions());
  if (unserved) return unserved;
  const call = received.read ? received : readCall(received);
  if (isFailure(call)) return call;
  const speaks = cards.originVersions(edge.keepAlive);
  const translated = originSide(call, speaks instanceof Promise ? await speaks : speaks);
  if (isFailure(translated)) return translated;
  let origin = translated;
  const caller = await admitCaller(edge, call);
  if (isFailure(caller)) return caller;
  const codec = config.originBinding === "http+json" ? restOrigin : jsonRpcOrigin;
  let request = codec.encode(origin, config);
  if (isFailure(request)) return request;
  const route = await resolveOrigin(edge, call.method);
  if (isFailure(route)) return route;
  // Both sides: what the caller sent and what the origin receives (the bridge moves configs between places).
  const sides = origin === call ? [call] : [call, origin];
  const refused = guardPushConfigs(sides, () => pushRulesFor(config, route, edge));
  if (refused) return refused;
  // The origin's HTTP client reads each webhook URL as the guard serialized it.
  const serialized = serializedUrls(origin.operation, origin.params);
  const checked = serialized === undefined ? origin : { ...withoutBytes(origin), params: serialized };
  const relayed = await relayStage(edge, call, checked);
  if (isFailure(relayed)) return relayed;
  const sent = relayed?.origin ?? checked;
  if (sent !== origin) {
    origin = sent;
    request = codec.encode(origin, config);
    if (isFailure(request)) return request;
  }
  const native = call.binding === codec.binding && call.generation === origin.generation && !relayed?.plan.readsReply;
  return { call, origin, codec, request, caller, route, native, ...(relayed ? { relay: relayed.plan } : {}) };
}
