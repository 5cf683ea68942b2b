// Stage 7 of the JSON-RPC path: the client's answer from the origin's reply.
// Headers pass through the response allowlist; SSE passes through the stream
// guard, unbuffered; the extended card is made public; every other JSON reply
// passes through as it arrives (no buffering), unless the call was bridged to
// another A2A version: then the reply is translated back (bridge-reply.ts).
import { type Failure, failure, isFailure } from "../errors/failures";
import type { EdgeRequest } from "../http/edge-request";
import { log } from "../log";
import type { AdmittedCall } from "../rpc/pipeline";
import { asErrorEvent, errorForStream, translatedJson, translatedStream } from "./bridge-reply";
import type { ClassifiedReply } from "./classify";
import { EXTENDED_CARD_METHODS, publicExtendedCard } from "./extended-card";
import { clientResponseHeaders } from "./forwarding-headers";
import type { OriginRoute } from "./origin-router";
import { endStreamCleanly } from "./sse-guard";

export async function transformReply(
  edge: EdgeRequest,
  call: AdmittedCall,
  route: OriginRoute,
  reply: ClassifiedReply,
): Promise<Response | Failure> {
  const { response } = reply;
  const { bridge } = call;
  const headers = clientResponseHeaders(response.headers, edge.runtime.secretFragments, route.privateHosts);
  if (bridge) headers.set("a2a-version", call.version);
  const init = { status: response.status, headers };
  if (reply.kind === "stream" && response.body) {
    const onBreak = () => log("error", "origin_failed", { kind: "stream_broken", method: call.method, origin: reply.origin });
    const events = bridge ? translatedStream(response.body, bridge) : response.body;
    return new Response(endStreamCleanly(events, call.id, onBreak), init);
  }
  if (reply.kind === "json" && response.ok && EXTENDED_CARD_METHODS.has(call.method)) {
    const card = await publicExtendedCard(edge, reply, route.privateOrigins, call.method, bridge);
    return isFailure(card) ? card : new Response(card, init);
  }
  if (!bridge) return new Response(response.body, init);
  const translated = await translatedJson(response.body, bridge, edge.runtime.config.originTimeoutMs);
  if (translated !== undefined && errorForStream(call.method, bridge, translated)) return asErrorEvent(translated, init);
  if (translated !== undefined) return new Response(translated, init);
  log("error", "origin_failed", { kind: "invalid_response", method: call.method, origin: reply.origin, status: response.status });
  return failure("ORIGIN_INVALID_RESPONSE", "origin agent returned an unreadable reply");
}
