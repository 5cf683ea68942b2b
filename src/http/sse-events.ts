// An SSE stream the edge rewrites, event by event as each arrives (HTML
// §9.2.6: an event ends at a blank line). Bounded and linear: only the newly
// arrived text (and the three characters before it) is searched for the end
// of an event, an event's pieces are joined once, when it is whole, and an
// event larger than the bound ends the stream (the origin is cancelled), so
// an origin that never sends a blank line costs the bound, not its stream.
// Before this splitter, a 60 MiB event without a blank line (re-joined and
// re-searched per chunk) grew workerd by ~1400 MiB and gave the client nothing.

const EVENT_END = /\r?\n\r?\n/;
/** The longest end of an event is `\r\n\r\n`: its first three characters may have come with the previous chunk. */
const OVERLAP = 3;

/** One whole event (its lines, without the blank line), rewritten; `end` makes it the stream's last. */
export type EventRewrite = (block: string) => { text: string; end?: boolean };

export interface EventLimits {
  /** The most of one event held, in UTF-16 code units (never more than its bytes in UTF-8). */
  maxEventChars: number;
  /** The last event when one is larger than that (the stream ends there). */
  overflow: () => string;
}

const encoder = new TextEncoder();

export function rewriteEvents(source: ReadableStream<Uint8Array>, rewrite: EventRewrite, limits: EventLimits): ReadableStream<Uint8Array> {
  const decoder = new TextDecoder();
  let parts: string[] = [];
  let size = 0;
  let tail = "";
  /** Emits every whole event of `text` (newly arrived after `parts`); false when the stream has ended. */
  const take = (text: string, controller: TransformStreamDefaultController<Uint8Array>): boolean => {
    let piece = text;
    for (;;) {
      const window = tail + piece;
      const match = EVENT_END.exec(window);
      if (!match) break;
      // The end began `tail.length - match.index` characters before `piece` (inside what `parts` hold) at most.
      const cut = match.index - tail.length;
      const joined = parts.join("");
      const block = cut >= 0 ? joined + piece.slice(0, cut) : joined.slice(0, joined.length + cut);
      piece = piece.slice(cut + match[0].length);
      parts = [];
      size = 0;
      tail = "";
      const { text: out, end } = rewrite(block);
      controller.enqueue(encoder.encode(`${out}\n\n`));
      if (end) return false;
    }
    if (piece !== "") {
      parts.push(piece);
      size += piece.length;
      tail = (tail + piece).slice(-OVERLAP);
    }
    return size <= limits.maxEventChars;
  };
  let ended = false;
  return source.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        if (ended) return;
        if (take(decoder.decode(chunk, { stream: true }), controller)) return;
        ended = true;
        // An event over the bound, or one the edge cannot read: its last event, and nothing more is read.
        if (size > limits.maxEventChars) controller.enqueue(encoder.encode(`${limits.overflow()}\n\n`));
        controller.terminate();
      },
      flush(controller) {
        if (ended) return;
        const rest = parts.join("") + decoder.decode();
        // A trailing event without its blank line is still an event (HTML §9.2.6 dispatches only at a blank line; A2A SDKs flush it).
        if (rest.trim() !== "") controller.enqueue(encoder.encode(`${rewrite(rest).text}\n\n`));
      },
    }),
  );
}
