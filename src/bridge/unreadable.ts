// What a reader of the origin's answers could not make out (a result or an
// event of no shape its version defines): reported as a value, never handed
// on half-translated. The reply path answers it with A2A's
// InvalidAgentResponseError in the caller's form, and ends a stream with it.
import type { ProtocolGeneration } from "../a2a/correspondence";
import { A2A_ERRORS } from "../a2a/v1";
import { errorFor } from "./error-data";

export class Unreadable {
  constructor(
    /** What was not readable, for the log (never the value itself). */
    readonly what: string,
  ) {}
}

export const isUnreadable = (value: unknown): value is Unreadable => value instanceof Unreadable;

/** The JSON-RPC error object (code -32006, A2A 1.0 §9.5; 0.3 the same code) a caller of `to` gets for it. */
export function unreadableError(to: ProtocolGeneration): unknown {
  const { code, message } = A2A_ERRORS.InvalidAgentResponseError;
  return errorFor({ code, message: `${message}: the origin agent sent a reply the edge cannot read` }, to);
}
