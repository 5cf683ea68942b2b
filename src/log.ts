// One JSON object per line (Workers Logs indexes the fields). Callers pass
// names and counts, never header values or secrets. A line written during a
// call carries that call's W3C trace id, so every line of one call is found
// by it (in Workers Logs, `wrangler tail`, the origin's own logs).
//
// Many of those names are the caller's (a method, a version, a host, a
// subject, a document's issues): every line is bounded here, where it is
// built, whatever its caller passed. A string longer than its field's bound
// is cut and says so (`…(+N chars)`), so a 200 KB method name is a short line
// that still names the call, never a 200 KB log event.
import { currentTraceId } from "./observe/current";

export type LogLevel = "info" | "warn" | "error";

/** The bound of a name-like value (operation, method, version, agent, path, caller, host, key, error name), in UTF-16 code units. */
export const LOG_NAME_CHARS = 256;
/** The bound of a field that says a list in words (a document's `issues`, its repairs' `list`, an error's `message`). */
export const LOG_TEXT_CHARS = 2000;
const TEXT_FIELDS: ReadonlySet<string> = new Set(["issues", "list", "message"]);

/** `value` cut to `max` UTF-16 code units (never inside a surrogate pair), marked with what it lost: `abc…(+N chars)`. */
export function cutText(value: string, max: number = LOG_NAME_CHARS): string {
  if (value.length <= max) return value;
  const high = value.charCodeAt(max - 1);
  const end = high >= 0xd800 && high <= 0xdbff ? max - 1 : max;
  return `${value.slice(0, end)}…(+${value.length - end} chars)`;
}

/** A field as a line carries it: a string cut to `max`; a list or an object (none is logged today) as its JSON text, cut the same. */
function bounded(value: unknown, max: number): unknown {
  if (typeof value === "string") return cutText(value, max);
  if (typeof value !== "object" || value === null) return value;
  try {
    return cutText(JSON.stringify(value), max);
  } catch {
    return "…(unserializable)";
  }
}

/** The fields as a line carries them: each cut to its field's bound, so a line is bounded by its (few) fields. */
function boundedFields(fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) out[key] = bounded(value, TEXT_FIELDS.has(key) ? LOG_TEXT_CHARS : LOG_NAME_CHARS);
  return out;
}

export function log(level: LogLevel, event: string, fields: Record<string, unknown> = {}): void {
  const traceId = currentTraceId();
  const safe = boundedFields(fields);
  const line = JSON.stringify(traceId === undefined ? { level, event, ...safe } : { level, event, traceId, ...safe });
  if (level === "error") console.error(line);
  else if (level === "warn") console.warn(line);
  else console.log(line);
}
