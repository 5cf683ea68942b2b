// One SSE event of an origin's stream, read once (HTML §9.2.6: its `data:` lines joined by newlines, its
// `event:` type) and decoded by the origin's codec: the reply path translates and renders it for its
// client, a TaskStream keeps it for every client that attaches.
import { exceedsDepth, parseEventJson } from "../json";
import type { Call, OriginCodec, Outcome } from "./call";

export type OriginEvent =
  /** A comment or a `retry:` alone: no outcome. */
  | { kind: "none" }
  /** `other`: the event's lines that are not `data:` (`event:`, `id:`). */
  | { kind: "outcome"; outcome: Outcome; other: string[] }
  | { kind: "unreadable" };

export function readOriginEvent(block: string, codec: OriginCodec, origin: Call): OriginEvent {
  const lines = block.split(/\r?\n/);
  const data = lines.filter((line) => line.startsWith("data:")).map((line) => line.slice(line.startsWith("data: ") ? 6 : 5));
  if (data.length === 0) return { kind: "none" };
  const other = lines.filter((line) => !line.startsWith("data:"));
  const type = other
    .find((line) => line.startsWith("event:"))
    ?.slice(6)
    .trim();
  const value = parseEventJson(data.join("\n"));
  const outcome = value === undefined || exceedsDepth(value) ? undefined : codec.decodeEvent(origin, type, value);
  return outcome === undefined ? { kind: "unreadable" } : { kind: "outcome", outcome, other };
}
