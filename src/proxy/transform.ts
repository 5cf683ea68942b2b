// Stage 7 of the JSON-RPC path: the client's answer from the origin's reply.
// Headers pass through the response allowlist; SSE passes through the stream
// guard, unbuffered; the extended card is made public; every other JSON reply
// passes through as it arrives (no buffering). Version translation goes here.
import { type Failure, isFailure } from "../errors/failures";
import type { EdgeRequest } from "../http/edge-request";
import { log } from "../log";
import type { RpcCall } from "../rpc/validate";
import type { ClassifiedReply } from "./classify";
import { EXTENDED_CARD_METHODS, publicExtendedCard } from "./extended-card";
import { clientResponseHeaders } from "./forwarding-headers";
import type { OriginRoute } from "./origin-router";
import { endStreamCleanly } from "./sse-guard";

export async function transformReply(
  edge: EdgeRequest,
  call: RpcCall,
  route: OriginRoute,
  reply: ClassifiedReply,
): Promise<Response | Failure> {
  const { response } = reply;
  const headers = clientResponseHeaders(response.headers, edge.runtime.secretFragments, route.privateHosts);
  const init = { status: response.status, headers };
  if (reply.kind === "stream" && response.body) {
    const onBreak = () => log("error", "origin_failed", { kind: "stream_broken", method: call.method, origin: reply.origin });
    return new Response(endStreamCleanly(response.body, call.id, onBreak), init);
  }
  if (reply.kind === "json" && response.ok && EXTENDED_CARD_METHODS.has(call.method)) {
    const card = await publicExtendedCard(edge, reply, route.privateOrigins, call.method);
    return isFailure(card) ? card : new Response(card, init);
  }
  return new Response(response.body, init);
}
