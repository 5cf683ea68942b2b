// An origin that speaks JSON-RPC (A2A 0.3 §3.2.1, 1.0 §9): the call goes as
// one JSON-RPC request (the caller's own bytes when it came as one in the
// origin's generation and the edge read them as they are), its reply is a
// JSON-RPC response, and each SSE event a JSON-RPC response of its own (0.3
// §7.2, 1.0 §9.4.2). A reply the edge reads is read once (src/messages/): its
// result under canonical names, and an envelope of the members JSON-RPC 2.0
// defines (§5) and nothing else, so that no member in another case (`Result`)
// reaches a client that would read it instead.
import type { Call, OriginCodec, Outcome } from "../call/call";
import { isJsonObject } from "../json";
import { readResult } from "../messages/calls";
import { foldName } from "../messages/reader";

const encoder = new TextEncoder();
const MEMBERS = ["jsonrpc", "id", "result", "error"];

function envelopeOf(call: Call, value: unknown): Outcome | undefined {
  if (!isJsonObject(value)) return undefined;
  const outcome: Outcome = {};
  for (const [key, member] of Object.entries(value)) {
    if (MEMBERS.includes(key)) outcome[key] = member;
    else if (MEMBERS.includes(foldName(key))) return undefined;
  }
  if (!Object.hasOwn(outcome, "result")) return outcome;
  const read = readResult(call.method, outcome.result);
  return "refused" in read ? undefined : { ...outcome, result: read.value };
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
  decode: (call, _status, body) => envelopeOf(call, body),
  decodeEvent: (call, _event, data) => envelopeOf(call, data),
};
