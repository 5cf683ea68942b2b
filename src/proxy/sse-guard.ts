// SSE passes through chunk by chunk, unbuffered. If the origin's stream breaks
// (the origin died, the connection dropped), the client gets an SSE error
// event in its binding's form (a2a-js framing: `event: error`, with the
// request id on JSON-RPC) and a clean end of stream instead of a torn
// connection. A client that goes away cancels the origin.
const encoder = new TextEncoder();

export function endStreamCleanly(
  origin: ReadableStream<Uint8Array>,
  lastEvent: () => string,
  onBreak: () => void,
): ReadableStream<Uint8Array> {
  const reader = origin.getReader();
  let cancelled = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch {
        if (cancelled) return; // the client left: not an origin fault
        onBreak();
        // A blank line first ends any event the origin left half-written.
        controller.enqueue(encoder.encode(`\n\n${lastEvent()}\n\n`));
        controller.close();
        return;
      }
      if (cancelled) return;
      if (chunk.done) controller.close();
      else controller.enqueue(chunk.value);
    },
    cancel(reason) {
      cancelled = true;
      return reader.cancel(reason);
    },
  });
}
