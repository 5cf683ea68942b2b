// An origin that speaks JSON-RPC (A2A 0.3 §3.2.1, 1.0 §9): the call goes as
// one JSON-RPC request (the caller's own bytes when it came as one in the
// origin's generation), its reply is a JSON-RPC response, and each SSE event
// a JSON-RPC response of its own (0.3 §7.2, 1.0 §9.4.2).
import type { Call, OriginCodec, Outcome } from "../call/call";
import { jsonObject } from "../json";

const encoder = new TextEncoder();

function envelopeOf(value: unknown): Outcome | undefined {
  return jsonObject(value);
}

export const jsonRpcOrigin: OriginCodec = {
  binding: "jsonrpc",
  encode(call: Call) {
    const body =
      call.bytes ??
      encoder.encode(
        JSON.stringify(
          call.params === undefined
            ? { jsonrpc: "2.0", id: call.id, method: call.method }
            : { jsonrpc: "2.0", id: call.id, method: call.method, params: call.params },
        ),
      );
    return { httpMethod: "POST", query: "", body, contentType: "application/json" };
  },
  decode: (_call, _status, body) => envelopeOf(body),
  decodeEvent: (_call, _event, data) => envelopeOf(data),
};
