// A TaskStream's storage and its attached clients: one row for the stream (who may read it, its generation,
// its state and end), one row per event (its number, when, its outcome's JSON), and the clients' streams,
// each fed the log's replay and then every appended event, bounded in what it may hold unread.
import type { Call } from "../call/call";
import type { StreamEnd, StreamOwner } from "./stream-types";

export const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS stream (
     one INTEGER PRIMARY KEY CHECK (one = 1), agent TEXT NOT NULL, tenant TEXT NOT NULL, caller TEXT NOT NULL,
     generation TEXT NOT NULL, method TEXT NOT NULL, task_id TEXT, state TEXT NOT NULL, end_reason TEXT, started_at INTEGER NOT NULL, ended_at INTEGER)`,
  "CREATE TABLE IF NOT EXISTS events (seq INTEGER PRIMARY KEY, at INTEGER NOT NULL, body TEXT NOT NULL)",
];

/** SQLite in a Durable Object stores at most 2 MB per row (Cloudflare's limits); an event is kept up to 1 MiB. */
export const MAX_EVENT_BYTES = 1024 * 1024;
/** While the origin's stream is open, an alarm this often finds the object lost (a restart) or the stream idle. */
export const HEARTBEAT_MS = 60_000;

export interface StreamRow {
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

export function streamRow(sql: SqlStorage): StreamRow | undefined {
  return sql.exec<Record<string, SqlStorageValue>>("SELECT * FROM stream").toArray()[0] as StreamRow | undefined;
}

export function insertStream(sql: SqlStorage, owner: StreamOwner, origin: Pick<Call, "generation" | "method">, now: number): void {
  sql.exec(
    "INSERT INTO stream (one, agent, tenant, caller, generation, method, state, started_at) VALUES (1, ?, ?, ?, ?, ?, 'open', ?)",
    owner.agent,
    owner.tenant,
    owner.caller,
    origin.generation,
    origin.method,
    now,
  );
}

export function lastEvent(sql: SqlStorage): { seq: number | null } {
  return sql.exec<{ seq: number | null }>("SELECT MAX(seq) AS seq FROM events").one();
}

const encoder = new TextEncoder();

/** One event as a TaskStream sends it to the Worker (the Worker adds the stream's id and renders the outcome). */
export const eventChunk = (seq: number, body: string) => encoder.encode(`id: ${seq}\ndata: ${body}\n\n`);
const endEvent = (end: StreamEnd) => encoder.encode(`event: end\ndata: ${end}\n\n`);

interface Listener {
  controller: ReadableStreamDefaultController<Uint8Array>;
}

/** The clients attached to one stream. */
export class Listeners {
  readonly #all = new Set<Listener>();

  /** Every attached client gets the event; one that reads slower than the origin sends is let go (it re-attaches from the log). */
  send(chunk: Uint8Array): void {
    for (const listener of this.#all) {
      if ((listener.controller.desiredSize ?? 0) < 0) this.#close(listener, "behind");
      else listener.controller.enqueue(chunk);
    }
  }

  /** The stream's end, to every attached client. */
  end(reason: StreamEnd): void {
    for (const listener of this.#all) this.#close(listener, reason);
  }

  #close(listener: Listener, reason: StreamEnd): void {
    this.#all.delete(listener);
    try {
      if (reason !== "done") listener.controller.enqueue(endEvent(reason));
      listener.controller.close();
    } catch {
      // Already cancelled by its client.
    }
  }

  /** A client's stream: `replay`, then, unless `ended`, every event sent from now on; it holds at most `highWaterMark` bytes unread. */
  listen(replay: readonly Uint8Array[], ended: StreamEnd | false, highWaterMark: number): ReadableStream<Uint8Array> {
    const listeners = this.#all;
    let listener: Listener | undefined;
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
}
