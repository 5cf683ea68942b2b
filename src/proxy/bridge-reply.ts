// The origin's answer to a bridged call (rpc/bridge-call.ts), in the caller's
// version: a JSON reply is read (bounded) and translated whole; an SSE stream
// is translated event by event as each arrives (no buffering beyond one event,
// order and timing kept). Translation is pure (src/bridge/).

import * as v03 from "../a2a/v03";
import { translateResponse } from "../bridge";
import { readBody } from "../http/body";
import { exceedsDepth, isJsonObject, parseJson } from "../json";
import type { BridgedCall } from "../rpc/bridge-call";

/** The most of an origin's JSON reply the edge reads to rewrite it (translation, a REST origin, the extended card). */
export const ORIGIN_REPLY_MAX_BYTES = 4 * 1024 * 1024;
const EVENT_END = /\r?\n\r?\n/;

/** One JSON-RPC envelope (text) from the origin's version to the caller's; text that is not JSON passes as it came. */
function translatedEnvelope(text: string, bridge: BridgedCall): string {
  const value = parseJson(text);
  if (value === undefined || exceedsDepth(value)) return text;
  return JSON.stringify(translateResponse(bridge.originMethod, value, bridge.origin, bridge.client));
}

/** The whole JSON reply, translated; undefined when it cannot be read in time and size. */
export async function translatedJson(
  body: ReadableStream<Uint8Array> | null,
  bridge: BridgedCall,
  timeoutMs: number,
): Promise<string | undefined> {
  const read = await readBody(body, { maxBytes: ORIGIN_REPLY_MAX_BYTES, timeoutMs, excess: "cancel" });
  return read.ok ? translatedEnvelope(new TextDecoder().decode(read.bytes), bridge) : undefined;
}

/** A whole event block (its lines, no blank line) from the event's data (its `data:` lines joined, HTML SSE §9.2.6). */
type EventMapper = (data: string, otherLines: string[]) => string;

function mappedEvent(block: string, map: EventMapper): string {
  const lines = block.split(/\r?\n/);
  const data = lines.filter((line) => line.startsWith("data:")).map((line) => line.slice(line.startsWith("data: ") ? 6 : 5));
  if (data.length === 0) return block;
  return map(
    data.join("\n"),
    lines.filter((line) => !line.startsWith("data:")),
  );
}

/** The origin's SSE stream, each complete event translated as it arrives; a trailing partial event passes as it came. */
export function translatedStream(origin: ReadableStream<Uint8Array>, bridge: BridgedCall): ReadableStream<Uint8Array> {
  return mapSseData(origin, (data, other) => [...other, `data: ${translatedEnvelope(data, bridge)}`].join("\n"));
}

/** Each complete SSE event of a stream rewritten from its data as it arrives (a trailing partial event passes as it came). */
export function mapSseData(origin: ReadableStream<Uint8Array>, map: EventMapper): ReadableStream<Uint8Array> {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let pending = "";
  return origin.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        pending += decoder.decode(chunk, { stream: true });
        let match = EVENT_END.exec(pending);
        while (match) {
          const block = pending.slice(0, match.index);
          pending = pending.slice(match.index + match[0].length);
          controller.enqueue(encoder.encode(`${mappedEvent(block, map)}\n\n`));
          match = EVENT_END.exec(pending);
        }
      },
      flush(controller) {
        pending += decoder.decode();
        if (pending !== "") controller.enqueue(encoder.encode(pending));
      },
    }),
  );
}

const V03_STREAMS: ReadonlySet<string> = new Set([v03.JSONRPC_METHODS.sendStreamingMessage, v03.JSONRPC_METHODS.subscribeToTask]);

/**
 * A 0.3 client of a streaming method reads only `text/event-stream` (@a2a-js/sdk
 * 0.3.14 and 0.2.5 throw on JSON), while a 1.0 origin may refuse such a call
 * with a plain JSON error (a resubscribe to a finished task): bridged, that
 * answer goes out as one SSE `error` event, as a 0.3 server frames it.
 */
export function errorForStream(method: string, bridge: BridgedCall, envelope: string): boolean {
  if (bridge.client !== "0.3" || !V03_STREAMS.has(method)) return false;
  const value = parseJson(envelope);
  return isJsonObject(value) && "error" in value;
}

export function asErrorEvent(envelope: string, init: { status: number; headers: Headers }): Response {
  init.headers.set("content-type", "text/event-stream");
  init.headers.set("cache-control", "no-cache");
  return new Response(`event: error\ndata: ${envelope}\n\n`, init);
}
