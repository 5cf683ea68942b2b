// The body of a recorded call on its way to the client: passed on chunk by
// chunk as it comes (a stream's first event is not held back), counting its
// bytes and SSE events, and reading from it (within a bound) the error code,
// task state and context id the access record carries. Only recorded calls
// take this path: every other reply keeps the runtime's own passthrough.
import { parseJson } from "../json";
import { type ReplyFields, replyFields } from "./reply-fields";

/** What a recorded body was, once it ended (or the client left). */
export interface BodySeen {
  bytes: number;
  /** SSE events passed on (0 for a JSON body). */
  events: number;
  fields: ReplyFields;
  /** `cancelled`: the client went away before the end. */
  end: "done" | "cancelled" | "broken";
}

/** The most of one JSON body or SSE event read for its fields: a larger one is passed on, unread. */
const READ_BOUND = 64 * 1024;
const EVENT_END = /\r?\n\r?\n/;

/** An SSE event's data (HTML §9.2.6: `data:` lines joined by LF). */
function eventData(block: string): string | undefined {
  const data = block
    .split(/\r?\n/)
    .filter((line) => line.startsWith("data:"))
    .map((line) => line.slice(line.startsWith("data: ") ? 6 : 5));
  return data.length === 0 ? undefined : data.join("\n");
}

const parsed = parseJson;

/** Keeps what later events say over what earlier ones did (a task's state moves on). */
function merge(into: ReplyFields, from: ReplyFields): void {
  Object.assign(into, from);
}

/** Reads the text of a body as it passes: SSE event by event, a JSON body whole; both within READ_BOUND. */
function textReader(sse: boolean, seen: BodySeen) {
  let pending = "";
  let over = false;
  const events = (text: string, last: boolean) => {
    pending += text;
    const blocks = pending.split(EVENT_END);
    pending = last ? "" : (blocks.pop() ?? "");
    for (const block of blocks) {
      if (block.trim() === "") continue;
      seen.events++;
      const data = over ? undefined : eventData(block);
      if (data !== undefined) merge(seen.fields, replyFields(parsed(data)));
      over = false;
    }
    // An event longer than the bound is counted when it ends, never held whole.
    if (pending.length > READ_BOUND) [over, pending] = [true, pending.slice(-3)];
  };
  const json = (text: string, last: boolean) => {
    if (!over) pending += text;
    if (pending.length > READ_BOUND) [over, pending] = [true, ""];
    if (last && !over) seen.fields = replyFields(parsed(pending));
  };
  return sse ? events : json;
}

export function observedBody(body: ReadableStream<Uint8Array>, sse: boolean, done: (seen: BodySeen) => void): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const seen: BodySeen = { bytes: 0, events: 0, fields: {}, end: "done" };
  const read = textReader(sse, seen);
  let finished = false;
  // Once: a read still pending when the client leaves settles after cancel().
  const finish = (end: BodySeen["end"]) => {
    if (finished) return;
    finished = true;
    if (end === "done") read(decoder.decode(), true);
    seen.end = end;
    done(seen);
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (error) {
        if (finished) return;
        finish("broken");
        controller.error(error);
        return;
      }
      if (chunk.done) {
        finish("done");
        controller.close();
        return;
      }
      seen.bytes += chunk.value.length;
      read(decoder.decode(chunk.value, { stream: true }), false);
      controller.enqueue(chunk.value);
    },
    cancel(reason) {
      finish("cancelled");
      return reader.cancel(reason);
    },
  });
}
