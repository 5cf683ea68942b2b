// One JSON object per line (Workers Logs indexes the fields). Callers pass
// names and counts, never header values or secrets. A line written during a
// call carries that call's W3C trace id, so every line of one call is found
// by it (in Workers Logs, `wrangler tail`, the origin's own logs).
import { currentTraceId } from "./observe/current";

export type LogLevel = "info" | "warn" | "error";

export function log(level: LogLevel, event: string, fields: Record<string, unknown> = {}): void {
  const traceId = currentTraceId();
  const line = JSON.stringify(traceId === undefined ? { level, event, ...fields } : { level, event, traceId, ...fields });
  if (level === "error") console.error(line);
  else if (level === "warn") console.warn(line);
  else console.log(line);
}
