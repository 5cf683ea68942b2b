// One kept stream (STREAM_RESUME=on, docs/streams.md): a SQLite-backed Durable Object per streamed call,
// which makes the origin request itself, so the origin's stream lives as long as this object, not as long
// as the client's connection. Each event the origin sends is read once (call/origin-event.ts), numbered,
// appended to the log (its outcome without the JSON-RPC envelope: each client's own id and generation are
// put on it by the Worker that renders it) and passed to every attached client. A client re-attaching with
// Last-Event-ID reads the log after its id and then the live tail, in one synchronous step of this object:
// no event is appended in between, so there is no seam to de-duplicate.
//
// The object is named by a fresh id, not by its task: the task id is the origin's, known only from its first
// event, and the stream must be held from before its first byte. Event ids name the object (event-id.ts);
// what may read it is kept beside the log: the agent (host and agent path), the tenant, the task and the
// caller who started it. Anything else gets what an unknown id gets.
import { DurableObject } from "cloudflare:workers";
import type { Call, OriginCodec } from "../call/call";
import { mediaType } from "../call/classify";
import { readOriginEvent } from "../call/origin-event";
import { isFailure } from "../errors/failures";
import { rewriteEvents } from "../http/sse-events";
import { log } from "../log";
import { jsonRpcOrigin } from "../origins/jsonrpc-origin";
import { restOrigin } from "../origins/rest-origin";
import { runtimeFor } from "../runtime";
import { sendHeld } from "./send-held";
import {
  eventChunk,
  HEARTBEAT_MS,
  insertStream,
  Listeners,
  lastEvent,
  MAX_EVENT_BYTES,
  SCHEMA,
  type StreamRow,
  streamRow,
} from "./stream-log";
import type { Attached, AttachRequest, HoldAnswer, HoldRequest, StreamEnd } from "./stream-types";
import { taskIdOf } from "./task-of";

const encoder = new TextEncoder();

export class TaskStream extends DurableObject<Env> {
  /** Only while this instance reads the origin: a log left `open` without it was cut by a restart. */
  #pumping = false;
  readonly #listeners = new Listeners();
  #seq = 0;
  #bytes = 0;
  #lastAt = 0;
  #taskId: string | null = null;
  #stop: (() => void) | undefined;
  #ended = false;
  /** The origin call's method, as log lines name it. */
  #method = "";

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    for (const statement of SCHEMA) ctx.storage.sql.exec(statement);
  }

  get #config() {
    return runtimeFor(this.env).config;
  }

  #row(): StreamRow | undefined {
    return streamRow(this.ctx.storage.sql);
  }

  /** Sends the origin request and, when the origin answers with a stream, keeps it; the first client is attached from its start. */
  async hold(request: HoldRequest): Promise<HoldAnswer> {
    const runtime = runtimeFor(this.env);
    const { reply, origins } = await sendHeld(runtime, request);
    if (isFailure(reply)) return { kind: "failure", failure: reply, origins };
    const { response } = reply;
    const stream =
      response.status >= 200 && response.status < 300 && mediaType(response.headers.get("content-type")) === "text/event-stream";
    if (!stream || !response.body) return { kind: "reply", response, origins };
    const { owner } = request;
    const now = Date.now();
    insertStream(this.ctx.storage.sql, owner, request.origin, now);
    this.#lastAt = now;
    // Not awaited: the output gate holds the answer until the write is durable, and the first event need not wait.
    void this.ctx.storage.setAlarm(now + HEARTBEAT_MS);
    this.#method = request.origin.method;
    const first = this.#listen([], false);
    const codec = request.originBinding === "jsonrpc" ? jsonRpcOrigin : restOrigin;
    this.ctx.waitUntil(this.#pump(response.body, codec, request.origin as Call, reply.origin));
    return { kind: "held", stream: first, headers: [...response.headers], origins, id: this.ctx.id.toString() };
  }

  /** Reads the origin's stream to its end, whoever is attached. */
  async #pump(body: ReadableStream<Uint8Array>, codec: OriginCodec, origin: Call, label: string): Promise<void> {
    this.#pumping = true;
    const config = this.#config;
    const end = (reason: StreamEnd, fields: Record<string, unknown> = {}) => this.#finish(reason, { origin: label, ...fields });
    const rewrite = (block: string) => {
      const read = readOriginEvent(block, codec, origin);
      if (read.kind === "none") return { text: "" };
      if (read.kind === "unreadable") {
        end("unreadable");
        return { text: "", end: true };
      }
      const { jsonrpc: _jsonrpc, id: _id, ...result } = read.outcome;
      const text = JSON.stringify(result);
      const size = encoder.encode(text).length;
      const bound =
        this.#seq >= config.streamResumeMaxEvents
          ? "events"
          : this.#bytes + size > config.streamResumeMaxBytes || size > MAX_EVENT_BYTES
            ? "bytes"
            : undefined;
      if (bound) {
        end("bound", { bound });
        return { text: "", end: true };
      }
      this.#append(text, size, result.result);
      return { text: "" };
    };
    const overflow = () => {
      end("unreadable", { read: "event_too_large" });
      return "";
    };
    const events = rewriteEvents(body, rewrite, { maxEventChars: config.originReplyMaxBytes, overflow });
    const reader = events.getReader();
    this.#stop = () => void reader.cancel().catch(() => undefined);
    try {
      for (;;) {
        const { done } = await reader.read();
        if (done) break;
      }
      end("done");
    } catch {
      end("broken");
    } finally {
      this.#pumping = false;
      this.#stop = undefined;
    }
  }

  #append(text: string, size: number, result: unknown): void {
    const seq = this.#seq + 1;
    const now = Date.now();
    const sql = this.ctx.storage.sql;
    sql.exec("INSERT INTO events (seq, at, body) VALUES (?, ?, ?)", seq, now, text);
    if (this.#taskId === null) {
      const task = taskIdOf(result);
      if (task !== undefined) {
        this.#taskId = task;
        sql.exec("UPDATE stream SET task_id = ?", task);
      }
    }
    this.#seq = seq;
    this.#bytes += size;
    this.#lastAt = now;
    this.#listeners.send(eventChunk(seq, text));
  }

  /** The end of the origin's stream, once: logged unless it is the origin's own. */
  #finish(reason: StreamEnd, fields: Record<string, unknown>): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#end(reason);
    if (reason === "done") return;
    // The origin's faults are logged as the reply path logs them; the edge's own cuts as stream_cut.
    if (reason === "broken" || reason === "unreadable") {
      const kind = reason === "broken" ? "stream_broken" : "invalid_response";
      log("error", "origin_failed", { kind, method: this.#method, stream: this.ctx.id.toString(), events: this.#seq, ...fields });
      return;
    }
    log(reason === "bound" ? "warn" : "error", "stream_cut", {
      stream: this.ctx.id.toString(),
      reason,
      events: this.#seq,
      bytes: this.#bytes,
      ...fields,
    });
  }

  #end(reason: StreamEnd): void {
    const now = Date.now();
    this.ctx.storage.sql.exec("UPDATE stream SET state = 'ended', end_reason = ?, ended_at = ?", reason, now);
    this.#lastAt = now;
    this.#listeners.end(reason);
    void this.ctx.storage.setAlarm(now + this.#config.streamResumeMaxAge * 1000);
  }

  #listen(replay: readonly Uint8Array[], ended: StreamEnd | false): ReadableStream<Uint8Array> {
    return this.#listeners.listen(replay, ended, this.#config.streamResumeMaxBytes + MAX_EVENT_BYTES);
  }

  /**
   * The log after `after`, then the live tail; null for anyone but its owner, for another task, or no log. Its
   * events are in the generation of the call that started it (`kept`), whatever the re-attaching call's.
   */
  attach(request: AttachRequest): Attached | null {
    let row = this.#row();
    if (
      !row ||
      row.agent !== request.agent ||
      row.tenant !== request.tenant ||
      row.caller !== request.caller ||
      row.task_id !== request.task
    )
      return null;
    if (row.state === "open" && !this.#pumping) {
      this.#lost();
      row = this.#row() as StreamRow;
    }
    const rows = this.ctx.storage.sql.exec<{ seq: number; body: string }>(
      "SELECT seq, body FROM events WHERE seq > ? ORDER BY seq",
      request.after,
    );
    const replay: Uint8Array[] = [];
    for (const { seq, body } of rows) replay.push(eventChunk(seq, body));
    const ended = row.state === "ended" ? ((row.end_reason ?? "lost") as StreamEnd) : false;
    return { stream: this.#listen(replay, ended), replayed: replay.length, kept: { generation: row.generation, method: row.method } };
  }

  /** The origin's stream was open when this object stopped (a deploy, a restart): what was logged stays, its end is `lost`. */
  #lost(): void {
    const last = lastEvent(this.ctx.storage.sql);
    this.#seq = last.seq ?? 0;
    this.#finish("lost", {});
  }

  override async alarm(): Promise<void> {
    const row = this.#row();
    if (!row) return;
    const now = Date.now();
    const maxAgeMs = this.#config.streamResumeMaxAge * 1000;
    if (row.state === "open") {
      if (!this.#pumping) this.#lost();
      else if (now - this.#lastAt >= maxAgeMs) {
        this.#finish("bound", { bound: "age" });
        this.#stop?.();
      } else await this.ctx.storage.setAlarm(Math.min(this.#lastAt + maxAgeMs, now + HEARTBEAT_MS));
      return;
    }
    const endedAt = row.ended_at ?? row.started_at;
    if (now >= endedAt + maxAgeMs) await this.ctx.storage.deleteAll();
    else await this.ctx.storage.setAlarm(endedAt + maxAgeMs);
  }
}
