// Stage 5 of the JSON-RPC path: the call to the origin, with failover. One
// deadline (ORIGIN_TIMEOUT_MS) covers every attempt up to the origin's
// response headers; a later candidate is tried only when an earlier one
// cannot be connected to.
import { type Failure, failure } from "../errors/failures";
import type { EdgeRequest } from "../http/edge-request";
import { log } from "../log";
import { type OriginRoute, withClientQuery } from "./origin-router";

export interface OriginReply {
  response: Response;
  /** The origin that answered, as a log line may name it (host only). */
  origin: string;
}

export async function sendWithFailover(
  edge: EdgeRequest,
  route: OriginRoute,
  headers: Headers,
  body: Uint8Array,
  method: string,
): Promise<OriginReply | Failure> {
  const { origins, config } = edge.runtime;
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), config.originTimeoutMs);
  try {
    for (const [attempt, candidate] of route.candidates.entries()) {
      const origin = origins.label(candidate);
      try {
        const init: RequestInit = { method: "POST", headers, body, redirect: "manual", signal: deadline.signal };
        return { response: await origins.send(withClientQuery(candidate, edge.target.search), init), origin };
      } catch (error) {
        if (deadline.signal.aborted) {
          log("error", "origin_failed", { kind: "timeout", method, origin, timeoutMs: config.originTimeoutMs });
          return failure("ORIGIN_TIMEOUT", "origin agent timed out");
        }
        log("warn", "origin_failed", {
          kind: "unreachable",
          method,
          origin,
          attempt: attempt + 1,
          of: route.candidates.length,
          error: (error as Error).name,
        });
      }
    }
  } finally {
    clearTimeout(timer);
  }
  return failure("ORIGIN_UNREACHABLE", "origin agent unreachable");
}
