// Bounded body reading: a peer never makes the edge buffer more than it allows.

/** Reads at most `limit` bytes; null when the body is larger (the rest is cancelled). */
export async function readCapped(body: ReadableStream<Uint8Array> | null, limit: number): Promise<Uint8Array | null> {
  if (body === null) return new Uint8Array(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

/**
 * Work a request starts on behalf of later ones (a shared KV read, an origin
 * card refresh) is handed to ctx.waitUntil: if the request that started it is
 * cancelled, the work still settles for everyone waiting on it.
 */
export type KeepAlive = (promise: Promise<unknown>) => void;
