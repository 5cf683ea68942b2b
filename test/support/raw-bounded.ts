// A raw HTTP/1.1 exchange read for a bounded time and size: a reply that streams forever (an SSE event
// that never ends) or one far too large is cut off, never awaited, and the caller sees how much came
// and whether it ended. Request bytes as given (a stalled chunked body too).
import { connect } from "node:net";

export interface BoundedCall {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** Sent instead of the body: these bytes as one chunk, then nothing more (a stalled body). */
  stall?: string;
}

export interface BoundedReply {
  status: number;
  /** Names lower case. */
  headers: Record<string, string>;
  /** The body (chunked framing removed), as far as it came. */
  body: string;
  /** Whether the reply ended (its length, its last chunk, or the server closing) before the read was cut. */
  ended: boolean;
  /** Bytes received after the head (framing included). */
  bytes: number;
  /** Milliseconds from sending to the first byte after the head (undefined: none came). */
  firstByteMs?: number;
}

function requestText(call: BoundedCall, host: string): string {
  const lines = [`${call.method} ${call.path} HTTP/1.1`, `Host: ${host}`, "Connection: close"];
  for (const [name, value] of Object.entries(call.headers)) lines.push(`${name}: ${value}`);
  if (call.stall !== undefined) {
    lines.push("Transfer-Encoding: chunked");
    return `${lines.join("\r\n")}\r\n\r\n${Buffer.byteLength(call.stall).toString(16)}\r\n${call.stall}\r\n`; // ... and nothing more
  }
  const body = call.body ?? "";
  if (call.body !== undefined || call.method === "POST") lines.push(`Content-Length: ${Buffer.byteLength(body)}`);
  return `${lines.join("\r\n")}\r\n\r\n${body}`;
}

/** Removes chunked framing from what arrived so far (a last partial chunk is kept as far as it came). */
function unchunk(data: Buffer): { body: Buffer; ended: boolean } {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = data.indexOf("\r\n", at);
    if (lineEnd < 0) return { body: Buffer.concat(parts), ended: false };
    const size = Number.parseInt(data.subarray(at, lineEnd).toString("latin1"), 16);
    if (size === 0) return { body: Buffer.concat(parts), ended: true };
    if (!(size > 0)) return { body: Buffer.concat(parts), ended: false };
    parts.push(data.subarray(lineEnd + 2, Math.min(lineEnd + 2 + size, data.length)));
    if (lineEnd + 2 + size + 2 > data.length) return { body: Buffer.concat(parts), ended: false };
    at = lineEnd + 2 + size + 2;
  }
}

/** How long a reply's head is awaited at least: a loaded machine's slow answer is not "no answer". */
const HEAD_MS = 60_000;

/**
 * Sends `call` and reads the reply until it ends, `ms` pass after its head or `maxBytes` arrived (then the
 * connection is closed). The head itself is awaited up to `ms` or HEAD_MS, whichever is longer: `ms` bounds
 * a body that never ends, not how soon a busy edge answers. Only the first `keepBytes` of the body are kept
 * (a 100 MiB reply is counted, not held).
 */
export function exchange(
  port: number,
  call: BoundedCall,
  ms: number,
  maxBytes: number,
  options: { keepBytes?: number; host?: string } = {},
): Promise<BoundedReply> {
  const keepBytes = options.keepBytes ?? maxBytes;
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    const started = Date.now();
    let head: string | undefined;
    let pending = Buffer.alloc(0); // until the head is complete
    const kept: Buffer[] = [];
    let keptBytes = 0;
    let bytes = 0;
    let firstByteMs: number | undefined;
    let tail = Buffer.alloc(0); // the last bytes, to see a chunked body's end
    let done = false;
    const headerOf = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, "im").exec(head ?? "")?.[1]?.trim();
    const finish = (cut: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      if (head === undefined) {
        reject(new Error(`no reply head within ${headMs} ms: ${JSON.stringify(pending.subarray(0, 200).toString())}`));
        return;
      }
      const headers: Record<string, string> = {};
      for (const line of head.split("\r\n").slice(1)) {
        const colon = line.indexOf(":");
        if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      const raw = Buffer.concat(kept);
      const length = headers["content-length"];
      const chunked = headers["transfer-encoding"] === "chunked";
      const decoded = chunked ? unchunk(raw) : { body: raw, ended: length !== undefined ? bytes >= Number(length) : !cut };
      const ended = chunked ? endsChunked() : decoded.ended;
      resolve({ status: Number(head.split(" ")[1]), headers, body: decoded.body.toString("utf8"), ended, bytes, firstByteMs });
    };
    const endsChunked = () => tail.includes("\r\n0\r\n\r\n") || (bytes === tail.length && tail.subarray(0, 5).toString() === "0\r\n\r\n");
    const headMs = Math.max(ms, HEAD_MS);
    let timer = setTimeout(() => finish(true), headMs);
    const onBody = (chunk: Buffer) => {
      if (chunk.length === 0) return;
      firstByteMs ??= Date.now() - started;
      bytes += chunk.length;
      if (keptBytes < keepBytes) {
        const part = chunk.subarray(0, keepBytes - keptBytes);
        kept.push(part);
        keptBytes += part.length;
      }
      tail = Buffer.concat([tail, chunk]).subarray(-16);
      const length = headerOf("content-length");
      if (length !== undefined && bytes >= Number(length)) finish(false);
      else if (headerOf("transfer-encoding") === "chunked" && endsChunked()) finish(false);
      else if (bytes >= maxBytes) finish(true);
    };
    socket.on("data", (chunk: Buffer) => {
      if (head !== undefined) return onBody(chunk);
      pending = Buffer.concat([pending, chunk]);
      const end = pending.indexOf("\r\n\r\n");
      if (end < 0) return;
      head = pending.subarray(0, end).toString("latin1");
      clearTimeout(timer);
      timer = setTimeout(() => finish(true), ms);
      const rest = pending.subarray(end + 4);
      if (headerOf("content-length") === "0") return finish(false);
      onBody(rest);
    });
    socket.on("close", () => finish(false));
    socket.on("error", () => undefined); // a reset after the reply is fine; no reply at all is caught in finish
    socket.once("connect", () => socket.write(requestText(call, options.host ?? "agents.example.com")));
  });
}
