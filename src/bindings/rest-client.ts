// The HTTP+JSON (REST) binding on the client's side, at REST_PATH (A2A 1.0
// §11, 0.3 §3.2.3): a REST request is matched (src/rest, pure), its body read
// within the same caps as any call's (MAX_BODY_BYTES, BODY_TIMEOUT_MS,
// application/json or application/a2a+json), and decoded into the Call of its
// route's version: the operation, and its parameters in that generation's
// canonical form. Every answer is rendered as REST: a status and a body
// (google.rpc.Status errors in 1.0, the error object in 0.3), SSE events
// carrying the StreamResponse itself.
import type { Call, ClientCodec } from "../call/call";
import { requestVersion, versionHeaderOf } from "../call/version";
import { FAILURES, type Failure, failure, isFailure } from "../errors/failures";
import { httpFailureBody, rpcErrorBody } from "../errors/responses";
import type { EdgeRequest } from "../http/edge-request";
import { readCallBody } from "../http/request-body";
import { readJsonText } from "../json";
import { readRestBody } from "../messages/calls";
import { jsonRpcEventToRestEvent, jsonRpcToRestResponse, matchRestRoute, type RestRoute, restToJsonRpc } from "../rest";
import { BODY_V1 } from "../rest/rest-request";

const REST_TYPES = ["application/json", "application/a2a+json"];

/**
 * The route of `path` (after REST_PATH), or the 404/405 of an unknown path or method. A REST route's
 * version is its route's: an `A2A-Version` the caller sends chooses among the routes of that version
 * (`/v1/message:send` is 1.0's SendMessage of tenant `v1` with `A2A-Version: 1.0`, as A2A 1.0 §3.6 reads
 * it), and one that names a version no route of this path has is refused (-32009), never forwarded.
 */
function matched(edge: EdgeRequest, path: string): RestRoute | Failure {
  const { method } = edge.request;
  const header = versionHeaderOf(edge);
  const wanted = header === null ? undefined : requestVersion(header, "");
  const match =
    wanted === undefined
      ? matchRestRoute(method, path || "/")
      : wanted === "0.3" || wanted === "1.0"
        ? matchRestRoute(method, path || "/", wanted)
        : ({ notFound: true } as const);
  if ("notFound" in match && wanted !== undefined && !("notFound" in matchRestRoute(method, path || "/"))) {
    const requestedVersion = /^\d+\.\d+$/.test(wanted) ? wanted : "unreadable";
    return failure("VERSION_NOT_SUPPORTED", "no route of this path is in the A2A-Version sent", {
      metadata: { requestedVersion, supportedVersions: edge.runtime.cards.servedVersions().join(",") },
    });
  }
  if ("notFound" in match) return failure("NOT_FOUND", "no such A2A REST route");
  if ("methodNotAllowed" in match)
    return failure("METHOD_NOT_ALLOWED", undefined, { headers: { allow: match.methodNotAllowed.join(", ") } });
  return match;
}

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/**
 * The request's JSON body (none for GET and DELETE, or an empty POST such as CancelTask's), its members
 * under their JSON names (ProtoJSON readers take proto names too: src/messages/calls.ts), or why not.
 */
async function bodyOf(edge: EdgeRequest, route: RestRoute): Promise<unknown | Failure> {
  const { request } = edge;
  if (request.method !== "POST" || request.headers.get("content-length") === "0") return undefined;
  const bytes = await readCallBody(request, edge.runtime.config, edge.deadlines, REST_TYPES);
  if (isFailure(bytes) || bytes.length === 0) return isFailure(bytes) ? bytes : undefined;
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return failure("BAD_REQUEST", "the body is not UTF-8 JSON");
  }
  const json = readJsonText(text);
  if ("error" in json) return failure("BAD_REQUEST", json.duplicate ? json.error : "the body is not UTF-8 JSON");
  // A 1.0 body is the request message itself (`body: "*"`): read strictly here, not again in admission.
  const read = readRestBody(route.version, route.operation, "request", json.value, route.version === "1.0");
  if (!("refused" in read)) return read.value;
  const { path, message } = read.refused;
  // The same refusal as for a JSON-RPC call's params (call/admit.ts readCall): invalid params, naming the member.
  return failure("INVALID_PARAMS", `${path || "the body"} ${message}`, { violations: [{ path, message }] });
}

/** An edge-made refusal's status and body in the REST client's error shape. */
function refusalBody(refused: Failure, version: "0.3" | "1.0"): { status: number; body: string } {
  if (version === "1.0") return httpFailureBody(refused);
  const { status, code, message } = FAILURES[refused.reason];
  return { status: refused.status ?? status, body: JSON.stringify({ code, message: refused.detail ?? message }) };
}

/**
 * An edge-made refusal in the REST client's error shape: 1.0's google.rpc.Status (§11.6), or for 0.3
 * (its routes under /v1) the JSON-RPC error object its SDKs read from a REST error body.
 */
function refusal(refused: Failure, version: "0.3" | "1.0"): Response {
  const { status, body } = refusalBody(refused, version);
  return new Response(body, { status, headers: { "content-type": "application/json", ...refused.headers } });
}

/** A refusal of the edge's or a JSON-RPC error (-32009, -32601: HTTP 200 in the failure table) as the REST client's answer. */
function restFailure(refused: Failure, route: Pick<RestRoute, "operation" | "version">): Response {
  // A failure with an HTTP status of its own (401, 429, 502, ...) keeps it; a JSON-RPC error maps as the origin's would.
  if (FAILURES[refused.reason].status !== 200) return refusal(refused, route.version);
  const rest = jsonRpcToRestResponse(route.operation, route.version, JSON.parse(rpcErrorBody(1, refused)));
  return new Response(JSON.stringify(rest.body), { status: rest.status, headers: { "content-type": "application/json" } });
}

/** The version a REST path's refusal is rendered in before its route is known: 0.3's routes are under /v1. */
function pathVersion(path: string): "0.3" | "1.0" {
  return path.startsWith("/v1/") ? "0.3" : "1.0";
}

/** A REST request the edge refused before it was a call: the answer, and why (for the call's access record). */
export interface RestRefusal {
  refused: Failure;
  response: Response;
}

/** The call a REST request makes, or its refusal already rendered (an unknown route, an unreadable body). */
export async function decodeRest(edge: EdgeRequest, restPath: string): Promise<Call | RestRefusal> {
  const path = edge.target.pathname.slice(restPath === "/" ? 0 : restPath.length);
  const route = matched(edge, path);
  if (isFailure(route)) return { refused: route, response: restFailure(route, { operation: "sendMessage", version: pathVersion(path) }) };
  const body = await bodyOf(edge, route);
  if (isFailure(body)) return { refused: body, response: restFailure(body, route) };
  const call = restToJsonRpc(route, new URLSearchParams(edge.target.search), body);
  if ("invalid" in call) {
    const invalid = failure("BAD_REQUEST", call.invalid);
    return { refused: invalid, response: refusal(invalid, route.version) };
  }
  const { version, operation } = route;
  const read = version === "1.0" && BODY_V1.has(operation) ? { read: true as const } : {};
  return { binding: "http+json", version, generation: version, operation, method: call.method, params: call.params, id: 1, ...read };
}

/** The route a decoded REST call came from (its operation and version are the route's). */
function routeOf(call: Call): Pick<RestRoute, "operation" | "version"> {
  return { operation: call.operation ?? "sendMessage", version: call.generation };
}

export const restClient: ClientCodec = {
  binding: "http+json",
  failure: (failure, call) => restFailure(failure, call ? routeOf(call) : { operation: "sendMessage", version: "1.0" }),
  reply(call, outcome, init) {
    const { operation, version } = routeOf(call);
    const rest = jsonRpcToRestResponse(operation, version, outcome);
    init.headers.set("content-type", "application/json");
    return new Response(rest.body === undefined ? null : JSON.stringify(rest.body), { status: rest.status, headers: init.headers });
  },
  event(call, outcome, _lines, unreadable) {
    const event = jsonRpcEventToRestEvent(call.generation, outcome);
    return unreadable !== undefined && typeof event === "string" ? { text: event, end: true, unreadable } : event;
  },
  // The stream's last event carries what a refusal's body would (REST 1.0 §11.7 error events: a google.rpc.Status).
  failureEvent: (call, refused) => `event: error\ndata: ${refusalBody(refused, call.generation).body}`,
};
