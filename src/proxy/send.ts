// The call to the origin, whatever its binding, with failover. One
// deadline (ORIGIN_TIMEOUT_MS) covers every attempt up to the origin's
// response headers; a later candidate is tried only when an earlier one
// cannot be connected to. The deadline is a race on the request's one timer
// (http/deadlines.ts), not an AbortSignal on the fetch: a signal costs ~70 µs
// per call in workerd (bench:proxy), and the request abandoned at the deadline
// is cancelled by the runtime anyway when this request's answer (the 504) is
// done.
import { type Failure, failure } from "../errors/failures";
import { TIMED_OUT } from "../http/deadlines";
import type { EdgeRequest } from "../http/edge-request";
import { log } from "../log";
import { type OriginRoute, withClientQuery } from "./origin-router";

export interface OriginReply {
  response: Response;
  /** The origin that answered, as a log line may name it (host only). */
  origin: string;
}

/** What goes to the origin, the same for every attempt but for what `beforeAttempt` sets. */
export interface OriginRequest {
  headers: Headers;
  body: Uint8Array;
  /** The call's method, as log lines name it. */
  method: string;
  /** The client's query string, merged into each candidate's URL. */
  search: string;
  /** A REST origin's call (origins/rest-origin.ts): its own HTTP method, no body on a GET or DELETE. */
  httpMethod?: string;
  /** Per attempt, before it is sent: what depends on the origin it goes to (the caller assertion's audience). */
  beforeAttempt?: (candidate: string, url: string, headers: Headers) => Promise<void>;
  /** Each attempt, by the origin's host: the call's record names the last one and counts them. */
  onAttempt?: (origin: string) => void;
}

/** What sending needs of a request: the isolate's origins and config, the request's timer (a TaskStream has its own). */
export type Sender = Pick<EdgeRequest, "runtime" | "deadlines">;

/** Each attempt in turn; resolves with the first answer, or rejects with the last connection error. */
async function firstAnswer(edge: Sender, route: Pick<OriginRoute, "candidates" | "through">, request: OriginRequest): Promise<OriginReply> {
  const { origins } = edge.runtime;
  const { headers, body, method, search, beforeAttempt, onAttempt } = request;
  const httpMethod = request.httpMethod ?? "POST";
  const init = {
    method: httpMethod,
    headers,
    body: httpMethod === "GET" || httpMethod === "DELETE" ? null : body,
    redirect: "manual" as const,
  };
  let lastError: unknown;
  for (const [attempt, candidate] of route.candidates.entries()) {
    const origin = origins.label(candidate, route.through);
    const url = withClientQuery(candidate, search);
    onAttempt?.(origin);
    if (beforeAttempt) await beforeAttempt(candidate, url, headers);
    try {
      return { response: await origins.sendThrough(route.through, url, init), origin };
    } catch (error) {
      lastError = error;
      const fields = {
        kind: "unreachable",
        method,
        origin,
        attempt: attempt + 1,
        of: route.candidates.length,
        error: (error as Error).name,
      };
      log("warn", "origin_failed", fields);
    }
  }
  throw lastError;
}

export async function sendWithFailover(
  edge: Sender,
  route: Pick<OriginRoute, "candidates" | "through">,
  request: OriginRequest,
): Promise<OriginReply | Failure> {
  const { originTimeoutMs } = edge.runtime.config;
  const { method } = request;
  const attempts = firstAnswer(edge, route, request);
  try {
    const reply = await edge.deadlines.race(attempts, Date.now() + originTimeoutMs);
    if (reply !== TIMED_OUT) return reply;
    log("error", "origin_failed", { kind: "timeout", method, timeoutMs: originTimeoutMs });
    // A late answer is dropped, its body released.
    attempts.then(
      (late) => late.response.body?.cancel(),
      () => undefined,
    );
    return failure("ORIGIN_TIMEOUT", "origin agent timed out");
  } catch {
    return failure("ORIGIN_UNREACHABLE", "origin agent unreachable");
  }
}
