// The Worker's side of kept streams (STREAM_RESUME=on, docs/streams.md): a streamed call of a known caller
// (SendStreamingMessage / message/stream, SubscribeToTask / tasks/resubscribe, every binding) goes to a
// TaskStream of its own, which sends it to the origin and keeps the origin's stream; a SubscribeToTask with
// a cursor (Last-Event-ID, or ?lastEventId=) attaches to the stream the cursor names if its caller may read
// it, and is answered as an unknown task otherwise; without a cursor it is sent to the origin, and kept.
// The kept events come back in the origin's generation, without an envelope, and are rendered here as the
// reply path renders an origin's events: translated to the client's generation, in its binding, with its
// JSON-RPC id, each with its event id.
import type { Admitted } from "../call/admit";
import type { Call, ClientCodec, Outcome } from "../call/call";
import { logUnreadable, translated } from "../call/reply";
import { type Failure, failure } from "../errors/failures";
import type { EdgeRequest } from "../http/edge-request";
import { rewriteEvents } from "../http/sse-events";
import { log } from "../log";
import type { CallScope } from "../observe/call-scope";
import { clientResponseHeaders } from "../proxy/forwarding-headers";
import { withClientQuery } from "../proxy/origin-router";
import type { OriginReply, OriginRequest } from "../proxy/send";
import { endStreamCleanly } from "../proxy/sse-guard";
import { cursorOf, eventId } from "./event-id";
import type { StreamEnd, StreamOwner } from "./stream-types";

/** The operations whose answer is a stream (A2A 1.0 §3.1.2, §3.1.6). */
const STREAMED: ReadonlySet<string | undefined> = new Set(["sendStreamingMessage", "subscribeToTask"]);

/** What the call's origin request is, as run.ts prepares it for sendWithFailover. */
export interface Prepared {
  candidates: string[];
  request: OriginRequest;
}

export type KeptAnswer = { response: Response } | { failure: Failure } | { reply: OriginReply };

/** How a kept stream's end reaches a client that did not see the origin's own end. */
const ENDS: Record<Exclude<StreamEnd, "done">, Failure> = {
  broken: failure("ORIGIN_STREAM_BROKEN", "origin agent stream ended abruptly"),
  unreadable: failure("ORIGIN_INVALID_RESPONSE", "origin agent sent an unreadable event"),
  bound: failure("STREAM_CUT", "the edge's log of this stream reached its bound (STREAM_RESUME_MAX_*)"),
  lost: failure("STREAM_CUT", "the edge lost the origin's stream (a restart); every event kept before was sent"),
  behind: failure("STREAM_CUT", "the client read slower than the origin sent; re-attach with Last-Event-ID"),
};

/** The namespace when this call's stream is kept: STREAM_RESUME=on, a streamed operation, a caller the edge authenticated. */
export function keeperOf(edge: EdgeRequest, plan: Admitted): Env["TASK_STREAMS"] | undefined {
  const streams = edge.runtime.taskStreams;
  return streams && plan.caller && STREAMED.has(plan.call.operation) ? streams : undefined;
}

function ownerOf(edge: EdgeRequest, plan: Admitted): StreamOwner {
  const params = plan.call.params as { tenant?: unknown } | undefined;
  const tenant = typeof params?.tenant === "string" ? params.tenant : "";
  const caller = plan.caller ? `${plan.caller.scheme}:${plan.caller.subject}` : "";
  return { agent: edge.agentKey, tenant, caller };
}

/** The kept events rendered for this call's client, each with its event id; an end the origin did not send, as its error event. */
function rendered(
  edge: EdgeRequest,
  plan: Admitted,
  codec: ClientCodec,
  kept: Pick<Call, "generation" | "method">,
  stream: ReadableStream<Uint8Array>,
  id: string,
  origin: string,
) {
  const { call } = plan;
  // The log's events answer the call that started it, in its origin's generation: a re-attach may be of the other one.
  const from = { call, origin: { ...plan.origin, ...kept } };
  const rewrite = (block: string) => {
    let seq = "";
    let type = "";
    let data = "";
    for (const line of block.split("\n")) {
      if (line.startsWith("id: ")) seq = line.slice(4);
      else if (line.startsWith("event: ")) type = line.slice(7);
      else if (line.startsWith("data: ")) data = line.slice(6);
    }
    if (type === "end") return { text: codec.failureEvent(call, ENDS[data as keyof typeof ENDS] ?? ENDS.broken), end: true };
    const event = JSON.parse(data) as Outcome;
    const { outcome, unreadable } = translated(from, { jsonrpc: "2.0", id: call.id, ...event });
    const lines = codec.binding === "jsonrpc" && Object.hasOwn(outcome, "error") ? ["event: error"] : [];
    const text = codec.event(call, outcome, lines, unreadable);
    const idLine = `id: ${eventId(id, Number(seq))}`;
    if (typeof text === "string") return { text: `${idLine}\n${text}` };
    logUnreadable(plan, { origin }, { unreadable: text.unreadable });
    return { text: text.text, end: true };
  };
  // The TaskStream bounds each event (ORIGIN_REPLY_MAX_BYTES, 1 MiB kept); this bound only backs that up.
  const maxEventChars = edge.runtime.config.originReplyMaxBytes * 2;
  const overflow = () => codec.failureEvent(call, ENDS.broken);
  const events = rewriteEvents(stream, rewrite, { maxEventChars, overflow });
  const onBreak = () => log("error", "origin_failed", { kind: "stream_broken", method: call.method, origin });
  return endStreamCleanly(events, () => codec.failureEvent(call, ENDS.broken), onBreak);
}

function streamHeaders(edge: EdgeRequest, plan: Admitted, from: Headers): Headers {
  const headers = clientResponseHeaders(from, edge.runtime.secretFragments, plan.route.privateHosts);
  if (plan.call.generation !== plan.origin.generation) headers.set("a2a-version", plan.call.version);
  return headers;
}

/**
 * An unknown task, as an origin answers it in the call's generation (TaskNotFoundError, A2A 1.0 §3.3.2 / 0.3 §8.2;
 * REST renders it 404): what a cursor gets that names no log this caller may read (expired, another caller's,
 * made up), so that it tells nothing about which.
 */
function unknownTask(plan: Admitted, codec: ClientCodec): Response {
  const { call } = plan;
  const error =
    call.generation === "1.0"
      ? { code: -32001, message: "Task not found", data: [{ "@type": ERROR_INFO, reason: "TASK_NOT_FOUND", domain: "a2a-protocol.org" }] }
      : { code: -32001, message: "Task not found" };
  return codec.reply(call, { jsonrpc: "2.0", id: call.id, error }, { status: 200, headers: new Headers() });
}

const ERROR_INFO = "type.googleapis.com/google.rpc.ErrorInfo";

/** A re-attach its owner may read: the log after the cursor, then the live tail; undefined for no cursor. */
async function attached(
  edge: EdgeRequest,
  plan: Admitted,
  scope: CallScope,
  codec: ClientCodec,
  streams: Env["TASK_STREAMS"],
): Promise<Response | undefined> {
  if (plan.call.operation !== "subscribeToTask") return undefined;
  const cursor = cursorOf(edge.request.headers, edge.target.search);
  if (!cursor) return undefined;
  const task = (plan.call.params as { id?: unknown } | undefined)?.id;
  let id: DurableObjectId;
  try {
    id = streams.idFromString(cursor.stream);
  } catch {
    return unknownTask(plan, codec); // not an id of this namespace: no log
  }
  const found = typeof task === "string" ? await streams.get(id).attach({ ...ownerOf(edge, plan), task, after: cursor.after }) : null;
  if (!found) return unknownTask(plan, codec);
  scope.fields.replayed = found.replayed;
  const headers = streamHeaders(edge, plan, new Headers({ "content-type": "text/event-stream", "cache-control": "no-cache" }));
  return new Response(rendered(edge, plan, codec, found.kept, found.stream, cursor.stream, "kept"), { status: 200, headers });
}

/** The call through a TaskStream of its own, which keeps the origin's stream (or hands back any other answer). */
export async function keptCall(
  edge: EdgeRequest,
  plan: Admitted,
  scope: CallScope,
  codec: ClientCodec,
  streams: Env["TASK_STREAMS"],
  prepared: Prepared,
): Promise<KeptAnswer> {
  try {
    const resumed = await attached(edge, plan, scope, codec, streams);
    if (resumed) return { response: resumed };
    const { request, candidates } = prepared;
    const attempts: { candidate: string; headers: [string, string][] }[] = [];
    for (const candidate of candidates) {
      const headers = new Headers(request.headers);
      await request.beforeAttempt?.(candidate, withClientQuery(candidate, request.search), headers);
      attempts.push({ candidate, headers: [...headers] });
    }
    const { origin } = plan;
    const { bytes: _bytes, ...originCall } = origin;
    const answer = await streams.get(streams.newUniqueId()).hold({
      owner: ownerOf(edge, plan),
      origin: originCall,
      originBinding: plan.codec.binding,
      attempts,
      through: plan.route.through?.name,
      body: request.body,
      httpMethod: request.httpMethod ?? "POST",
      search: request.search,
    });
    for (const label of answer.origins) scope.attempt(label);
    const label = answer.origins.at(-1) ?? "none";
    if (answer.kind === "failure") return { failure: answer.failure };
    if (answer.kind === "reply") return { reply: { response: answer.response, origin: label } };
    const headers = streamHeaders(edge, plan, new Headers(answer.headers));
    const body = rendered(edge, plan, codec, origin, answer.stream, answer.id, label);
    return { response: new Response(body, { status: 200, headers }) };
  } catch (error) {
    log("error", "stream_keeper_failed", { method: plan.call.method, error: (error as Error).name });
    return { failure: failure("UNAVAILABLE", "the stream keeper is unavailable") };
  }
}
