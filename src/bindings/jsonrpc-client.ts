// The JSON-RPC binding on the client's side (A2A 0.3 §3.2.1, 1.0 §9): a POST
// to RPC_PATH decoded into a Call (body read within the caps, the envelope
// validated on the exact bytes, the version from A2A-Version or the method's
// generation), and every answer rendered as JSON-RPC: an edge refusal as an
// error envelope with the request's id, a reply as its response, a stream's
// events as `data:` envelopes.
import { operationOfMethod } from "../a2a/correspondence";
import type { Call, ClientCodec, Outcome } from "../call/call";
import { generationOf, requestVersion, versionHeaderOf } from "../call/version";
import { type Failure, isFailure } from "../errors/failures";
import { type RpcId, rpcErrorBody, rpcFailureResponse } from "../errors/responses";
import type { EdgeRequest } from "../http/edge-request";
import { readCallBody } from "../http/request-body";
import { validateRpcRequest } from "./jsonrpc-envelope";

/** 0.3's streaming methods: their clients read only `text/event-stream` (@a2a-js/sdk 0.3.14 and 0.2.5 throw on JSON). */
const V03_STREAMS: ReadonlySet<string> = new Set(["message/stream", "tasks/resubscribe"]);

/** The call a JSON-RPC request makes, or why not (with its id, once it could be read). */
export async function decodeJsonRpc(edge: EdgeRequest): Promise<Call | { id: RpcId; failure: Failure }> {
  const body = await readCallBody(edge.request, edge.runtime.config, edge.deadlines);
  if (isFailure(body)) return { id: null, failure: body };
  const validated = validateRpcRequest(body);
  if (!validated.ok) return validated;
  const { id, method, params, bytes } = validated.call;
  const version = requestVersion(versionHeaderOf(edge), method);
  return {
    binding: "jsonrpc",
    version,
    generation: generationOf(version),
    operation: operationOfMethod(method),
    method,
    params,
    id,
    bytes,
  };
}

function sseErrorEvent(envelope: string): string {
  return `event: error\ndata: ${envelope}`;
}

export const jsonRpcClient: ClientCodec = {
  binding: "jsonrpc",
  failure: (failure, call) => rpcFailureResponse(failure, call?.id ?? null),
  reply(call, outcome, init) {
    const envelope = JSON.stringify(outcome);
    init.headers.set("content-type", "application/json");
    // A 1.0 or REST origin may refuse a 0.3 streaming call with a plain error (a resubscribe to a finished
    // task): it goes out as one SSE `error` event, as a 0.3 server frames it.
    if (V03_STREAMS.has(call.method) && Object.hasOwn(outcome, "error")) {
      init.headers.set("content-type", "text/event-stream");
      init.headers.set("cache-control", "no-cache");
      return new Response(`${sseErrorEvent(envelope)}\n\n`, init);
    }
    return new Response(envelope, init);
  },
  event(_call, outcome: Outcome, lines, unreadable) {
    const data = JSON.stringify(outcome);
    // The InvalidAgentResponseError envelope, as a 0.3 or 1.0 JSON-RPC server frames an error event.
    if (unreadable !== undefined) return { text: sseErrorEvent(data), end: true, unreadable };
    return [...lines, `data: ${data}`].join("\n");
  },
  failureEvent: (call, failure) => sseErrorEvent(rpcErrorBody(call.id, failure)),
};
