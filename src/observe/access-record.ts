// The access record: one `access` log line per recorded call, and one
// Workers Analytics Engine data point per call (CALL_METRICS, when bound).
// Names, codes, counts and timings only: never a header value, a credential,
// a message's content or an origin path (the origin is named by host, as in
// every log line). The names a caller chose (operation, agent, caller) are
// cut to their bound where the line is built (log.ts), and in the data point. The caller is `<scheme>:<subject>` as the edge
// authenticated it, or `anonymous`; ACCESS_LOG_HASH_SUBJECT puts a SHA-256
// prefix of the subject in its place.
import type { Config } from "../config";
import type { EdgeRequest } from "../http/edge-request";
import { cutText, log } from "../log";
import type { BodySeen } from "./observed-body";
import type { ReplyFields } from "./reply-fields";

/** What the pipeline learned of one call, set as it goes (decode, admit, send, reply). */
export interface AccessFields extends ReplyFields {
  binding: "jsonrpc" | "http+json";
  /** The operation's 1.0 name (`SendMessage`), an extension's method as written; unset before decoding. */
  operation?: string;
  version?: string;
  originBinding?: string;
  originVersion?: string;
  /** Read and translated (another generation or binding on the origin's side), not passed through unread. */
  bridged?: boolean;
  caller: string;
  /** The agent: its document key (the host, or the host and its agent path), and the endpoint (RPC_PATH or REST_PATH) the call came to. */
  agent: string;
  path: string;
  /** The origin that answered (or the last one tried), by host; attempts beyond the first are failovers. */
  origin?: string;
  attempts: number;
  bytesIn?: number;
  /** An unobserved reply's size, from its Content-Length; an observed body's is counted (RecordedEnd). */
  bytesOut?: number;
  /** A kept stream re-attached (STREAM_RESUME=on): the events sent from its log before the live tail. */
  replayed?: number;
}

export type RecordedEnd = Pick<BodySeen, "bytes" | "events" | "end">;

const encoder = new TextEncoder();
/** Analytics Engine takes an index of at most 96 bytes (its documented limit). */
const INDEX_MAX_BYTES = 96;

async function subjectHash(subject: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(subject)));
  return [...digest.slice(0, 8)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** `<scheme>:<subject>`, the subject hashed when configured; `anonymous` stays as it is. */
export async function callerName(config: Pick<Config, "accessLogHashSubject">, scheme: string, subject: string): Promise<string> {
  return config.accessLogHashSubject ? `${scheme}:sha256:${await subjectHash(subject)}` : `${scheme}:${subject}`;
}

/** A call that did not succeed: an HTTP error, an error answer or code, a stream that broke off. */
export function failed(status: number, fields: AccessFields, end?: RecordedEnd): boolean {
  return status >= 400 || fields.reason !== undefined || fields.errorCode !== undefined || end?.end === "broken";
}

function indexOf(agent: string): string {
  // A UTF-16 unit encodes to at most 3 bytes: a short key needs no encoding to be known to fit.
  if (agent.length * 3 <= INDEX_MAX_BYTES) return agent;
  const bytes = encoder.encode(agent);
  return bytes.length <= INDEX_MAX_BYTES ? agent : new TextDecoder().decode(bytes.slice(0, INDEX_MAX_BYTES)).replace(/\uFFFD$/u, "");
}

/**
 * One data point per call (Analytics Engine samples at query time, `_sample_interval`): blobs agent,
 * operation, caller, binding, outcome, error (reason or code), origin; doubles status, duration to end,
 * duration to first byte, bytes out, events, failovers. The layout `npm run stats` queries (scripts/stats-query.ts).
 */
function dataPoint(fields: AccessFields, status: number, timing: Timing, end: RecordedEnd | undefined): AnalyticsEngineDataPoint {
  const error = fields.reason ?? (fields.errorCode === undefined ? "" : String(fields.errorCode));
  return {
    indexes: [indexOf(fields.agent)],
    // The caller's names cut as in a log line (log.ts): seven blobs of at most ~256 characters stay far
    // inside Analytics Engine's 16 KB of blobs per data point, which a 200 KB method name would not.
    blobs: [
      cutText(fields.agent),
      cutText(fields.operation ?? "unknown"),
      cutText(fields.caller),
      fields.binding,
      failed(status, fields, end) ? "error" : "ok",
      error,
      cutText(fields.origin ?? ""),
    ],
    doubles: [
      status,
      timing.durationMs,
      timing.firstByteMs,
      end?.bytes ?? fields.bytesOut ?? 0,
      end?.events ?? 0,
      Math.max(0, fields.attempts - 1),
    ],
  };
}

export interface Timing {
  firstByteMs: number;
  durationMs: number;
}

/** Writes the call's data point (with CALL_METRICS) and, when `line` says so, its access record. */
export function emitAccess(
  edge: EdgeRequest,
  traceId: string,
  fields: AccessFields,
  status: number,
  timing: Timing,
  end: RecordedEnd | undefined,
  line: boolean,
): void {
  const metrics = edge.runtime.callMetrics;
  if (metrics) metrics.writeDataPoint(dataPoint(fields, status, timing, end));
  if (!line) return;
  const { attempts, ...rest } = fields;
  const failovers = Math.max(0, attempts - 1);
  const bodies = end === undefined ? {} : { bytesOut: end.bytes, events: end.events, end: end.end };
  // The trace id is the call's own: a stream may end where no call's context is active (a reader's, not the runtime's).
  log(failed(status, fields, end) ? "warn" : "info", "access", { traceId, ...rest, status, attempts, failovers, ...bodies, ...timing });
}
