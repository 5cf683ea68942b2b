// The origin's answer to a bridged call (rpc/bridge-call.ts), in the caller's
// version: a JSON reply is read (bounded) and translated whole; an SSE stream
// is translated event by event as each arrives (no buffering beyond one event,
// order and timing kept). Translation is pure (src/bridge/).

import * as v03 from "../a2a/v03";
import { translateResponseReporting } from "../bridge";
import { readBody } from "../http/body";
import { exceedsDepth, isJsonObject, parseEventJson, parseJson } from "../json";
import { log } from "../log";
import type { LastEvent } from "../rest/rest-response";
import type { BridgedCall } from "../rpc/bridge-call";

/** The most of an origin's JSON reply the edge reads to rewrite it (translation, a REST origin, the extended card). */
export const ORIGIN_REPLY_MAX_BYTES = 4 * 1024 * 1024;
const EVENT_END = /\r?\n\r?\n/;

/** One JSON-RPC envelope (text) from the origin's version to the caller's; text that is not JSON passes as it came. */
function translatedEnvelope(text: string, bridge: BridgedCall): { text: string; unreadable?: string | undefined } {
  const value = parseEventJson(text);
  if (value === undefined || exceedsDepth(value)) return { text };
  const translated = translateResponseReporting(bridge.originMethod, value, bridge.origin, bridge.client);
  return { text: JSON.stringify(translated.response), unreadable: translated.unreadable };
}

/** The whole JSON reply, translated; undefined when it cannot be read in time and size. */
export async function translatedJson(
  body: ReadableStream<Uint8Array> | null,
  bridge: BridgedCall,
  timeoutMs: number,
): Promise<string | undefined> {
  const read = await readBody(body, { maxBytes: ORIGIN_REPLY_MAX_BYTES, timeoutMs, excess: "cancel" });
  return read.ok ? translatedEnvelope(new TextDecoder().decode(read.bytes), bridge).text : undefined;
}

/** A whole event block (its lines, no blank line) from the event's data (its `data:` lines joined, HTML SSE §9.2.6). */
type EventMapper = (data: string, otherLines: string[]) => string | LastEvent;

function mappedEvent(block: string, map: EventMapper): string | LastEvent {
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
  return mapSseData(origin, (data, other) => {
    const { text, unreadable } = translatedEnvelope(data, bridge);
    // The InvalidAgentResponseError envelope, as a 0.3 or 1.0 JSON-RPC server frames an error event.
    if (unreadable !== undefined) return { text: `event: error\ndata: ${text}`, end: true, unreadable };
    return [...other, `data: ${text}`].join("\n");
  });
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
          const mapped = mappedEvent(block, map);
          if (typeof mapped !== "string") {
            // Nothing after an event the edge cannot read is passed on: the stream ends with the caller's error event.
            log("error", "origin_failed", { kind: "invalid_response", unreadable: mapped.unreadable });
            controller.enqueue(encoder.encode(`${mapped.text}\n\n`));
            controller.terminate();
            return;
          }
          controller.enqueue(encoder.encode(`${mapped}\n\n`));
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
