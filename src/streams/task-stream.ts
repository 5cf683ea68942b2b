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
import type { Failure } from "../errors/failures";
import { isFailure } from "../errors/failures";
import { Deadlines } from "../http/deadlines";
import { rewriteEvents } from "../http/sse-events";
import { log } from "../log";
import { jsonRpcOrigin } from "../origins/jsonrpc-origin";
import { restOrigin } from "../origins/rest-origin";
import { sendWithFailover } from "../proxy/send";
import { runtimeFor } from "../runtime";
import { taskIdOf } from "./task-of";

/** Who may read a log: the agent's document key (host and agent path), the tenant ("" for none), the caller. */
export interface StreamOwner {
  agent: string;
  tenant: string;
  /** `<scheme>:<subject>` as the edge authenticated the caller. */
  caller: string;
}

/** What the Worker hands over: the admitted call's origin request, ready for each candidate (failover). */
export interface HoldRequest {
  owner: StreamOwner;
  /** The call in the origin's generation (without its bytes), as the origin's codec decodes its events. */
  origin: Omit<Call, "bytes">;
  originBinding: OriginCodec["binding"];
  /** The route's candidates in order, each with its URL (the client's query merged) and its headers (its assertion). */
  attempts: { candidate: string; headers: [string, string][] }[];
  /** The route's binding by env name (ORIGIN, ORIGIN_VPC, a DOCUMENT_VPC_SERVICES entry); none: fetch. */
  through?: string;
  body: Uint8Array;
  httpMethod: string;
  search: string;
}

export type HoldAnswer =
  | { kind: "failure"; failure: Failure; origins: string[] }
  /** Not a stream (a JSON error, a 4xx): the Worker's reply path takes it as any reply. */
  | { kind: "reply"; response: Response; origins: string[] }
  | { kind: "held"; stream: ReadableStream<Uint8Array>; headers: [string, string][]; origins: string[]; id: string };

export interface AttachRequest extends StreamOwner {
  task: string;
  /** The last event the client has. */
  after: number;
}

export interface Attached {
  stream: ReadableStream<Uint8Array>;
  replayed: number;
  /** The origin call the log's events answer: their generation and method, as the bridge translates them. */
  kept: Pick<Call, "generation" | "method">;
}

/** How a log ended: `done` is the origin's own end; the others reach a client as its generation's error event. */
export type StreamEnd = "done" | "broken" | "unreadable" | "bound" | "lost" | "behind";

const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS stream (
     one INTEGER PRIMARY KEY CHECK (one = 1), agent TEXT NOT NULL, tenant TEXT NOT NULL, caller TEXT NOT NULL,
     generation TEXT NOT NULL, method TEXT NOT NULL, task_id TEXT, state TEXT NOT NULL, end_reason TEXT, started_at INTEGER NOT NULL, ended_at INTEGER)`,
  "CREATE TABLE IF NOT EXISTS events (seq INTEGER PRIMARY KEY, at INTEGER NOT NULL, body TEXT NOT NULL)",
];

/** SQLite in a Durable Object stores at most 2 MB per row (Cloudflare's limits); an event is kept up to 1 MiB. */
const MAX_EVENT_BYTES = 1024 * 1024;
/** While the origin's stream is open, an alarm this often finds the object lost (a restart) or the stream idle. */
const HEARTBEAT_MS = 60_000;

interface StreamRow {
  agent: string;
  tenant: string;
  caller: string;
  generation: Call["generation"];
  method: string;
  task_id: string | null;
  state: "open" | "ended";
  end_reason: StreamEnd | null;
  started_at: number;
  ended_at: number | null;
}

const encoder = new TextEncoder();
const endEvent = (end: StreamEnd) => encoder.encode(`event: end\ndata: ${end}\n\n`);

interface Listener {
  controller: ReadableStreamDefaultController<Uint8Array>;
}

export class TaskStream extends DurableObject<Env> {
  /** Only while this instance reads the origin: a log left `open` without it was cut by a restart. */
  #pumping = false;
  #listeners = new Set<Listener>();
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
    return this.ctx.storage.sql.exec<Record<string, SqlStorageValue>>("SELECT * FROM stream").toArray()[0] as StreamRow | undefined;
  }

  /** Sends the origin request and, when the origin answers with a stream, keeps it; the first client is attached from its start. */
  async hold(request: HoldRequest): Promise<HoldAnswer> {
    const runtime = runtimeFor(this.env);
    const deadlines = new Deadlines();
    const through = request.through === undefined ? undefined : runtime.origins.bindingNamed(request.through);
    const headersOf = new Map(request.attempts.map((attempt) => [attempt.candidate, attempt.headers]));
    const origins: string[] = [];
    const reply = await sendWithFailover(
      { runtime, deadlines },
      { candidates: request.attempts.map((attempt) => attempt.candidate), through },
      {
        headers: new Headers(),
        body: request.body,
        method: request.origin.method,
        search: request.search,
        httpMethod: request.httpMethod,
        onAttempt: (origin) => origins.push(origin),
        beforeAttempt: async (candidate, _url, headers) => {
          for (const name of [...headers.keys()]) headers.delete(name);
          for (const [name, value] of headersOf.get(candidate) ?? []) headers.set(name, value);
        },
      },
    );
    deadlines.release();
    if (isFailure(reply)) return { kind: "failure", failure: reply, origins };
    const { response } = reply;
    const stream =
      response.status >= 200 && response.status < 300 && mediaType(response.headers.get("content-type")) === "text/event-stream";
    if (!stream || !response.body) return { kind: "reply", response, origins };
    const { owner } = request;
    const now = Date.now();
    this.ctx.storage.sql.exec(
      "INSERT INTO stream (one, agent, tenant, caller, generation, method, state, started_at) VALUES (1, ?, ?, ?, ?, ?, 'open', ?)",
      owner.agent,
      owner.tenant,
      owner.caller,
      request.origin.generation,
      request.origin.method,
      now,
    );
    this.#lastAt = now;
    await this.ctx.storage.setAlarm(now + HEARTBEAT_MS);
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
    const chunk = encoder.encode(`id: ${seq}\ndata: ${text}\n\n`);
    for (const listener of this.#listeners) {
      // A client that reads slower than the origin sends is let go (it re-attaches from the log), never buffered without bound.
      if ((listener.controller.desiredSize ?? 0) < 0) this.#close(listener, "behind");
      else listener.controller.enqueue(chunk);
    }
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
    for (const listener of this.#listeners) this.#close(listener, reason);
    void this.ctx.storage.setAlarm(now + this.#config.streamResumeMaxAge * 1000);
  }

  #close(listener: Listener, reason: StreamEnd): void {
    this.#listeners.delete(listener);
    try {
      if (reason !== "done") listener.controller.enqueue(endEvent(reason));
      listener.controller.close();
    } catch {
      // Already cancelled by its client.
    }
  }

  /** A stream of `replay` and then, unless `ended`, every event appended from now on. */
  #listen(replay: readonly Uint8Array[], ended: StreamEnd | false): ReadableStream<Uint8Array> {
    const listeners = this.#listeners;
    let listener: Listener | undefined;
    const highWaterMark = this.#config.streamResumeMaxBytes + MAX_EVENT_BYTES;
    return new ReadableStream<Uint8Array>(
      {
        start(controller) {
          for (const chunk of replay) controller.enqueue(chunk);
          if (ended !== false) {
            if (ended !== "done") controller.enqueue(endEvent(ended));
            controller.close();
            return;
          }
          listener = { controller };
          listeners.add(listener);
        },
        cancel() {
          if (listener) listeners.delete(listener);
        },
      },
      new ByteLengthQueuingStrategy({ highWaterMark }),
    );
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
    for (const { seq, body } of rows) replay.push(encoder.encode(`id: ${seq}\ndata: ${body}\n\n`));
    const ended = row.state === "ended" ? ((row.end_reason ?? "lost") as StreamEnd) : false;
    return { stream: this.#listen(replay, ended), replayed: replay.length, kept: { generation: row.generation, method: row.method } };
  }

  /** The origin's stream was open when this object stopped (a deploy, a restart): what was logged stays, its end is `lost`. */
  #lost(): void {
    const last = this.ctx.storage.sql
      .exec<{ seq: number | null; at: number | null }>("SELECT MAX(seq) AS seq, MAX(at) AS at FROM events")
      .one();
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
