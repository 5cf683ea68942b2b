// The one reply path, for every origin kind and client binding: the origin's
// reply is classified (classify.ts: 3xx, 5xx, media types), its headers pass
// the response allowlist, and then either
//   - native (same binding and generation on both sides, not the extended
//     card): the bytes go through unread and unbuffered, SSE behind the
//     stream guard; or
//   - read: a JSON body within ORIGIN_REPLY_MAX_BYTES, or SSE event by event
//     (each within the same bound, http/sse-events.ts), decoded by the origin
//     codec, translated into the caller's generation (src/bridge/) and
//     rendered by the client codec. What cannot be read is a 502, or a
//     stream's last event: never a truncated or an empty answer.
import { translateResponseReporting } from "../bridge";
import { type Failure, failure, isFailure } from "../errors/failures";
import { readMessageBody } from "../http/body";
import type { EdgeRequest } from "../http/edge-request";
import { rewriteEvents } from "../http/sse-events";
import { exceedsDepth, parseJson } from "../json";
import { log } from "../log";
import { clientResponseHeaders } from "../proxy/forwarding-headers";
import type { OriginReply } from "../proxy/send";
import { endStreamCleanly } from "../proxy/sse-guard";
import type { Admitted } from "./admit";
import type { ClientCodec, Outcome } from "./call";
import { classifyReply } from "./classify";
import { EXTENDED_CARD_METHODS, publicExtendedCard } from "./extended-card";
import { readOriginEvent } from "./origin-event";

const decoder = new TextDecoder();

/** Says why the edge could not read the origin's reply (a JSON body or one event) in its log line. */
export function logUnreadable(plan: Admitted, reply: Pick<OriginReply, "origin">, fields: Record<string, unknown> = {}): void {
  log("error", "origin_failed", { kind: "invalid_response", method: plan.call.method, origin: reply.origin, ...fields });
}

function invalid(plan: Admitted, reply: OriginReply, detail: string, fields: Record<string, unknown> = {}): Failure {
  logUnreadable(plan, reply, fields);
  return failure("ORIGIN_INVALID_RESPONSE", detail);
}

/** The outcome of the origin's generation in the caller's, and what of it could not be read. */
export function translated(
  plan: Pick<Admitted, "call" | "origin">,
  outcome: Outcome,
): { outcome: Outcome; unreadable?: string | undefined } {
  const { call, origin } = plan;
  if (call.generation === origin.generation) return { outcome };
  const { response, unreadable } = translateResponseReporting(origin.method, outcome, origin.generation, call.generation);
  return { outcome: response as Outcome, unreadable };
}

/** A whole JSON reply, read within the bound, decoded, translated and rendered. */
async function readJson(edge: EdgeRequest, plan: Admitted, reply: OriginReply, codec: ClientCodec, headers: Headers) {
  const { response } = reply;
  const { originReplyMaxBytes: maxBytes, originTimeoutMs: timeoutMs } = edge.runtime.config;
  const read = await readMessageBody(response, { maxBytes, timeoutMs, excess: "cancel", deadlines: edge.deadlines });
  if (!read.ok)
    return invalid(plan, reply, read.reason === "too_large" ? "origin reply too large" : "origin reply cut off", { read: read.reason });
  const text = read.bytes.length === 0 ? undefined : decoder.decode(read.bytes);
  const body = text === undefined ? undefined : parseJson(text);
  // JSON has no undefined: a body that is there but not JSON (an HTML page under application/json) is no
  // answer, nor one nested deeper than any reader of the edge recurses (MAX_JSON_DEPTH).
  if (text !== undefined && (body === undefined || exceedsDepth(body)))
    return invalid(plan, reply, "origin agent returned an unreadable reply");
  const decoded = plan.codec.decode(plan.origin, response.status, body);
  if (decoded === undefined) return invalid(plan, reply, "origin agent returned an unreadable reply");
  // The relay's configs in the origin's words: the client's own webhook back, the config bound or ended.
  if (plan.relay) await plan.relay.settle(decoded);
  const isCard = EXTENDED_CARD_METHODS.has(plan.call.method);
  const outcome = isCard
    ? await publicExtendedCard(edge, decoded, plan.route.privateOrigins, plan.call, plan.origin)
    : translated(plan, decoded).outcome;
  // A JSON-RPC origin's own status stays (a 4xx with its error); a REST origin's status is in the outcome.
  const status = plan.codec.binding === "jsonrpc" ? response.status : 200;
  return codec.reply(plan.call, outcome, { status, headers });
}

/** The origin's SSE stream, each event decoded, translated and rendered as it arrives. */
function readEvents(edge: EdgeRequest, plan: Admitted, reply: OriginReply, codec: ClientCodec, body: ReadableStream<Uint8Array>) {
  const { call } = plan;
  const fromRest = plan.codec.binding === "http+json";
  const rewrite = (block: string) => {
    const read = readOriginEvent(block, plan.codec, plan.origin);
    // A comment or a `retry:` alone carries no outcome: it passes as it came.
    if (read.kind === "none") return { text: block };
    if (read.kind === "unreadable") {
      logUnreadable(plan, reply, { unreadable: "an SSE event that is not JSON" });
      return { text: codec.failureEvent(call, failure("ORIGIN_INVALID_RESPONSE", "origin agent sent an unreadable event")), end: true };
    }
    const { other } = read;
    const { outcome, unreadable } = translated(plan, read.outcome);
    // A REST origin's `event:` type is its error marker, now in the outcome; a JSON-RPC origin's lines stay.
    const event = codec.event(call, outcome, fromRest ? other.filter((line) => !line.startsWith("event:")) : other, unreadable);
    if (typeof event === "string") return { text: event };
    // Nothing after an event the edge cannot read is passed on: the stream ends with the caller's error event.
    logUnreadable(plan, reply, { unreadable: event.unreadable });
    return { text: event.text, end: true };
  };
  const maxEventChars = edge.runtime.config.originReplyMaxBytes;
  const overflow = () => {
    logUnreadable(plan, reply, { read: "event_too_large" });
    return codec.failureEvent(call, failure("ORIGIN_INVALID_RESPONSE", "origin agent sent an event too large"));
  };
  return rewriteEvents(body, rewrite, { maxEventChars, overflow });
}

export async function respond(edge: EdgeRequest, plan: Admitted, reply: OriginReply, codec: ClientCodec): Promise<Response | Failure> {
  const classified = classifyReply(reply, plan.call.method);
  if (isFailure(classified)) return classified;
  const { response } = classified;
  const { call } = plan;
  const headers = clientResponseHeaders(response.headers, edge.runtime.secretFragments, plan.route.privateHosts);
  if (call.generation !== plan.origin.generation) headers.set("a2a-version", call.version);
  if (classified.kind === "stream" && response.body) {
    const onBreak = () => log("error", "origin_failed", { kind: "stream_broken", method: call.method, origin: reply.origin });
    const events = plan.native ? response.body : readEvents(edge, plan, reply, codec, response.body);
    const broken = () => codec.failureEvent(call, failure("ORIGIN_STREAM_BROKEN", "origin agent stream ended abruptly"));
    return new Response(endStreamCleanly(events, broken, onBreak), { status: response.status, headers });
  }
  if (plan.native && !EXTENDED_CARD_METHODS.has(call.method)) {
    // The origin's own bytes, unread: its declared length frames them (and is the access record's bytes out).
    const length = response.headers.get("content-length");
    if (length !== null && /^\d{1,15}$/.test(length)) headers.set("content-length", length);
    return new Response(response.body, { status: response.status, headers });
  }
  return readJson(edge, plan, reply, codec, headers);
}
