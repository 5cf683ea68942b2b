// SSE passes through chunk by chunk, unbuffered. If the origin's stream breaks
// (the origin died, the connection dropped), the client gets an SSE error
// event with the request id and a clean end of stream instead of a torn
// connection (a2a-js framing: `event: error`). A client that goes away
// cancels the origin.
import { failure } from "../errors/failures";
import { type RpcId, rpcErrorBody } from "../errors/responses";

const encoder = new TextEncoder();

export function endStreamCleanly(origin: ReadableStream<Uint8Array>, id: RpcId, onBreak: () => void): ReadableStream<Uint8Array> {
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
        const body = rpcErrorBody(id, failure("ORIGIN_STREAM_BROKEN", "origin agent stream ended abruptly"));
        // A blank line first ends any event the origin left half-written.
        controller.enqueue(encoder.encode(`\n\nevent: error\ndata: ${body}\n\n`));
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
