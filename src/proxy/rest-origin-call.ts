// An origin that speaks the HTTP+JSON binding only (ORIGIN_BINDING=http+json,
// issue 13): the call, in the origin's version, goes as that version's REST
// request to ORIGIN_REST_URL, and the REST answer comes back as the JSON-RPC
// answer it stands for (an error status as the A2A error, each SSE event as a
// JSON-RPC event), so every later stage (classify, bridge, extended card)
// sees what a JSON-RPC origin would have sent. The mapping is pure (src/rest/).
import { operationOf } from "../a2a/correspondence";
import { type Failure, failure, isFailure } from "../errors/failures";
import type { RpcId } from "../errors/responses";
import { readBody } from "../http/body";
import type { EdgeRequest } from "../http/edge-request";
import { joinUrl } from "../http/urls";
import { parseJson } from "../json";
import { jsonRpcToRest, restEventToJsonRpc, restResponseToJsonRpc } from "../rest";
import { generationOf } from "../rpc/bridge-call";
import { mapSseData, ORIGIN_REPLY_MAX_BYTES } from "./bridge-reply";
import type { AssertAttempt } from "./forwarding-headers";
import type { OriginRoute } from "./origin-router";
import { type OriginReply, sendWithFailover } from "./send";

const encoder = new TextEncoder();

export interface OriginCall {
  id: RpcId;
  method: string;
  params: unknown;
  /** `Major.Minor` the origin speaks for this call. */
  version: string;
}

/** The REST answer as a JSON-RPC one: JSON (any status) becomes one envelope, SSE one envelope per event. */
async function asJsonRpc(
  edge: EdgeRequest,
  reply: OriginReply,
  call: OriginCall,
  operation: NonNullable<ReturnType<typeof operationOf>>,
): Promise<OriginReply> {
  const { response } = reply;
  const version = generationOf(call.version);
  const type = response.headers.get("content-type") ?? "";
  const headers = new Headers(response.headers);
  if (type.startsWith("text/event-stream") && response.body) {
    const events = mapSseData(response.body, (data, other) => {
      const event = other
        .find((line) => line.startsWith("event:"))
        ?.slice(6)
        .trim();
      return `data: ${JSON.stringify(restEventToJsonRpc(version, event, parseJson(data), call.id))}`;
    });
    return { ...reply, response: new Response(events, { status: 200, headers }) };
  }
  if (!type.includes("json") && response.status !== 204) return reply; // HTML and the like: classify refuses it
  const read = await readBody(response.body, {
    maxBytes: ORIGIN_REPLY_MAX_BYTES,
    timeoutMs: edge.runtime.config.originTimeoutMs,
    excess: "cancel",
  });
  const body = read.ok && read.bytes.length > 0 ? parseJson(new TextDecoder().decode(read.bytes)) : undefined;
  const envelope = restResponseToJsonRpc(operation, version, response.status, body, call.id);
  headers.set("content-type", "application/json");
  headers.delete("content-length");
  return { ...reply, response: new Response(JSON.stringify(envelope), { status: 200, headers }) };
}

/**
 * `path` under the origin's REST base, checked after the URL is built (not only by encoding the ids):
 * the same origin, and a path that stays below the base's own path.
 */
export function underBase(base: string, path: string): string | undefined {
  const root = new URL(base);
  const url = new URL(joinUrl(base, path));
  const prefix = root.pathname.endsWith("/") ? root.pathname : `${root.pathname}/`;
  return url.origin === root.origin && url.pathname.startsWith(prefix) ? url.href : undefined;
}

/** Sends the call to the REST origin; the answer as a JSON-RPC origin's. */
export async function sendToRestOrigin(
  edge: EdgeRequest,
  call: OriginCall,
  headers: Headers,
  route: OriginRoute,
  assert?: AssertAttempt,
): Promise<OriginReply | Failure> {
  const version = generationOf(call.version);
  const operation = operationOf(version, call.method);
  const rest = jsonRpcToRest({ method: call.method, params: call.params }, version);
  const base = edge.runtime.config.originRestUrl;
  if (!operation || !rest || base === undefined)
    return failure("METHOD_NOT_FOUND", `${call.method} has no REST route in A2A ${call.version}`);
  if ("invalid" in rest) return failure("INVALID_PARAMS", rest.invalid);
  const url = underBase(base, rest.path);
  if (url === undefined) return failure("INVALID_PARAMS", "the call's ids do not name a path under the origin");
  const body = rest.body === undefined ? new Uint8Array() : encoder.encode(JSON.stringify(rest.body));
  if (rest.body === undefined) headers.delete("content-type");
  const restRoute = { ...route, candidates: [url] };
  const reply = await sendWithFailover(edge, restRoute, {
    headers,
    body,
    method: call.method,
    search: rest.query,
    httpMethod: rest.method,
    // The assertion's audience is the REST origin (ORIGIN_REST_URL), its htu the route's URL.
    beforeAttempt: assert && ((_candidate, target, out) => assert(base, rest.method, target, body, out)),
  });
  return isFailure(reply) ? reply : asJsonRpc(edge, reply, call, operation);
}
