// Bounded body reading: a peer never makes the edge buffer more than it
// allows, nor wait on it forever. Every body is counted as it arrives, whatever
// Content-Length claims (a declared length beside `Transfer-Encoding: chunked`
// is not what the runtime reads).
import { Deadlines, TIMED_OUT } from "./deadlines";

export type BodyRead = { ok: true; bytes: Uint8Array } | { ok: false; reason: "too_large" | "timeout" | "broken" };

export interface BodyLimits {
  /** Largest body accepted, in bytes actually read. */
  maxBytes: number;
  /** The whole body must have arrived within this many ms of the first read. */
  timeoutMs: number;
  /**
   * What happens to the rest of a body past the cap. A request's is left unread (`leave`, the default):
   * its refusal is answered while the worker reads and drops the rest behind it (`lingerBehind`). A reply's
   * (`cancel`) is cancelled.
   */
  excess?: "leave" | "cancel";
  /** The request's deadlines (one timer for all its waits); without them, the read keeps its own. */
  deadlines?: Deadlines;
}

function concat(chunks: readonly Uint8Array[], size: number): Uint8Array {
  const [only] = chunks;
  if (chunks.length === 1 && only) return only;
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

/** The body's bytes, or why not: larger than `maxBytes`, slower than `timeoutMs`, or broken by the client. */
export async function readBody(body: ReadableStream<Uint8Array> | null, limits: BodyLimits): Promise<BodyRead> {
  if (body === null) return { ok: true, bytes: new Uint8Array(0) };
  return onClock(limits, (clock) => readBodyBy(body.getReader(), limits, clock));
}

/** `read` on the request's deadlines, or on a clock of its own, cleared when the read is done. */
async function onClock(limits: BodyLimits, read: (clock: Deadlines) => Promise<BodyRead>): Promise<BodyRead> {
  if (limits.deadlines) return read(limits.deadlines);
  const own = new Deadlines();
  try {
    return await read(own);
  } finally {
    own.release();
  }
}

async function readBodyBy(reader: ReadableStreamDefaultReader<Uint8Array>, limits: BodyLimits, clock: Deadlines): Promise<BodyRead> {
  const deadline = Date.now() + limits.timeoutMs;
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    let next: ReadableStreamReadResult<Uint8Array> | typeof TIMED_OUT;
    try {
      next = await clock.race(reader.read(), deadline);
    } catch {
      return { ok: false, reason: "broken" };
    }
    if (next === TIMED_OUT) {
      // A stalled client sends nothing more; release the body without waiting on it.
      reader.cancel().catch(() => undefined);
      return { ok: false, reason: "timeout" };
    }
    if (next.done) return { ok: true, bytes: concat(chunks, size) };
    size += next.value.byteLength;
    if (size > limits.maxBytes) {
      // Never read to its end before the refusal: that would hold the 413 until the client has sent it all.
      // A request's rest is released for lingerBehind, which drops it while the 413 is on its way.
      if (limits.excess === "cancel") reader.cancel().catch(() => undefined);
      else reader.releaseLock();
      return { ok: false, reason: "too_large" };
    }
    chunks.push(next.value);
  }
}

/**
 * A request's or an origin reply's body, counted by bytes read whatever its
 * framing. When the length is fixed by Content-Length alone (no
 * Transfer-Encoding: workerd exposes it, and then reads the chunked body, not
 * the declared length; no Content-Encoding: fetch decompresses, so a declared
 * length says nothing of what is read), the runtime reads exactly that many
 * bytes and the native read is used: measured in workerd, ~70 µs per 1 KiB
 * request less than the counting reader (bench:proxy).
 */
export async function readMessageBody(message: Request | Response, limits: BodyLimits): Promise<BodyRead> {
  const { headers } = message;
  const declared = headers.get("content-length");
  if (declared === null || headers.has("transfer-encoding") || headers.has("content-encoding") || !/^\d{1,12}$/.test(declared))
    return readBody(message.body, limits);
  if (Number(declared) > limits.maxBytes) {
    if (limits.excess === "cancel") message.body?.cancel().catch(() => undefined);
    return { ok: false, reason: "too_large" };
  }
  return onClock(limits, async (clock) => {
    try {
      const bytes = await clock.race(message.arrayBuffer(), Date.now() + limits.timeoutMs);
      // A stalled body: the read stays pending until the request ends; nothing waits on it.
      return bytes === TIMED_OUT ? { ok: false, reason: "timeout" } : { ok: true, bytes: new Uint8Array(bytes) };
    } catch {
      return { ok: false, reason: "broken" };
    }
  });
}

/**
 * The rest of a request body the worker refused unread is read and dropped after the refusal is sent, until
 * the body ends, or at most this many bytes (Cloudflare's smallest request body limit, Free and Pro plans: a
 * deployed worker never gets a larger body) or the body's own BODY_TIMEOUT_MS, or until nothing has arrived
 * for LINGER_IDLE_MS (a client that stopped sending when it read the refusal, as curl and Go do); then the
 * response ends and what is left is cancelled. The idle wait is Apache's lingering close's, 2 s a read
 * (nginx's lingering_timeout is 5 s): a client stalled for longer mid-body gets the reset. At 1 s, a client
 * sending all before reading lost its 413 (EPIPE) in 1 of 10 suite runs on a saturated machine; not
 * reproduced since, this is the bound a stalled sender meets first. The cost: a client that stopped sending
 * reads the refusal's end that much later.
 */
const LINGER_MAX_BYTES = 100 * 1024 * 1024;
const LINGER_IDLE_MS = 2_000;

/**
 * A refusal answered while the request's body is still unread (a 413 past the cap, a 401 or 415 before
 * reading it) goes out at once, but its response ends only once the rest of the body has been read and
 * dropped (LINGER_*). A runtime that closes a connection with request bytes unread sends a TCP reset, and
 * the reset erases the refusal from the client's buffers before it reads it (RFC 9112 §9.6, tear-down: a
 * server keeps reading after its last response). Measured on workerd 1.20261117, 8 and 96 MiB bodies in
 * every framing: with the body cancelled, 0 of 6 clients that send the whole body before reading and 3 of
 * 18 that read as they send got the 413; held this way, 18 of 18 of each. The refusal's length is left
 * unknown (chunked): under `wrangler dev` a proxy worker ends its own response, and closes the client's
 * connection, as soon as a reply of known length has arrived (96 MiB: 0 of 6 read their 413 that way). Only
 * a refusal's small body is held; a response with the request body read, or with none, is returned as is.
 */
export function lingerBehind(request: Request, response: Response, timeoutMs: number, keepAlive: KeepAlive): Response | Promise<Response> {
  const rest = request.body;
  if (rest === null || rest.locked || response.status < 400) return response;
  return response.arrayBuffer().then((bytes) => {
    const { readable, writable } = new IdentityTransformStream();
    const writer = writable.getWriter();
    writer.write(new Uint8Array(bytes)).catch(() => undefined); // the client went away: nothing to write to
    // Not waiting on the close: it settles only once the client has read the refusal.
    keepAlive(dropRest(rest, timeoutMs).then(() => void writer.close().catch(() => undefined)));
    return new Response(readable, response);
  });
}

/**
 * Reads and drops a body within the LINGER_* bounds; what is left after that is cancelled. One buffer is
 * read into again and again (a BYOB reader): measured draining 96 MiB in workerd, 130 ms of CPU and +12 MiB
 * RSS, where a chunk allocated per read took 620 ms and +83 MiB.
 */
async function dropRest(body: ReadableStream<Uint8Array>, timeoutMs: number): Promise<void> {
  let reader: ReadableStreamBYOBReader | ReadableStreamDefaultReader<Uint8Array>;
  try {
    reader = body.getReader({ mode: "byob" });
  } catch {
    reader = body.getReader(); // a stream made in JavaScript (a test's, a service binding's) has no BYOB reads
  }
  const clock = new Deadlines();
  const deadline = Date.now() + timeoutMs;
  let buffer = new Uint8Array(64 * 1024);
  let dropped = 0;
  try {
    while (dropped <= LINGER_MAX_BYTES) {
      const read = reader instanceof ReadableStreamBYOBReader ? reader.read(buffer) : reader.read();
      const next = await clock.race<ReadableStreamReadResult<Uint8Array>>(read, Math.min(deadline, Date.now() + LINGER_IDLE_MS));
      if (next === TIMED_OUT) break;
      if (next.done) return;
      dropped += next.value.byteLength;
      if (reader instanceof ReadableStreamBYOBReader) buffer = new Uint8Array(next.value.buffer as ArrayBuffer);
    }
    reader.cancel().catch(() => undefined);
  } catch {
    // The client went away: nothing left to read.
  } finally {
    clock.release();
  }
}

/**
 * Work a request starts on behalf of later ones (a shared KV read, an origin
 * card refresh) is handed to ctx.waitUntil: if the request that started it is
 * cancelled, the work still settles for everyone waiting on it.
 */
export type KeepAlive = (promise: Promise<unknown>) => void;
