// Bridging protocol generations at the edge: a caller speaks A2A 0.3
// or 1.0 over JSON-RPC, the origin only the other. These pure mappers turn the
// caller's request into the origin's, and everything the origin answers
// (results, errors, each SSE event) into the caller's. Plain JSON in, plain
// JSON out: the request pipeline keeps the envelope (`jsonrpc`, `id`), the
// bytes and the stream. `from` is always the generation of the value handed
// in, `to` the one of the value handed back; the same generation is the
// identity. Decisions about what one side has and the other lacks are stated
// where they are made (parts.ts, events.ts, params.ts, error-data.ts).
import type { ProtocolGeneration } from "../a2a/correspondence";
import { JSONRPC_STANDARD_ERRORS } from "../a2a/jsonrpc-errors";
import { isJsonObject } from "../json";
import { errorFor } from "./error-data";
import { streamEventV03, streamResponseV1 } from "./events";
import { METHODS, type MethodRow } from "./params";
import { isUnreadable, unreadableError } from "./unreadable";

export { isUnreadable } from "./unreadable";

export type { ProtocolGeneration };

export interface RpcCall {
  method: string;
  /** Absent when the request has no params (0.3 agent/getAuthenticatedExtendedCard). */
  params?: unknown;
}

/** The origin's method cannot be had: answer the caller with `error` (-32601) at the edge, send nothing on. */
export interface Unsupported {
  unsupported: true;
  error: { code: number; message: string };
}

export interface RequestOptions {
  /**
   * The origin interface's `tenant` (1.0 AgentInterface: clients MUST send it
   * in every request); written into 1.0 params, ignored for a 0.3 origin.
   */
  tenant?: string;
}

/** Where each generation's method name sits in a row. */
const NAME = { "0.3": 0, "1.0": 1 } as const;

/** The row of a method named in `generation`, or in either (their names never coincide, SPEC-NOTES §3.1). */
const rowOf = (method: string, ...generations: ProtocolGeneration[]): MethodRow | undefined =>
  METHODS.find((row) => generations.some((generation) => row[NAME[generation]] === method));

/**
 * The caller's request (`from`) as the origin's (`to`). A method neither
 * generation defines (an extension's, say) goes on as it came; an A2A method
 * the origin's generation lacks (1.0 ListTasks for a 0.3 origin) is `Unsupported`.
 */
export function translateRequest(
  call: RpcCall,
  from: ProtocolGeneration,
  to: ProtocolGeneration,
  options: RequestOptions = {},
): RpcCall | Unsupported {
  const row = rowOf(call.method, from);
  if (from === to || row === undefined) return call;
  const method = row[NAME[to]];
  if (method === undefined) return { unsupported: true, error: { ...JSONRPC_STANDARD_ERRORS.MethodNotFoundError } };
  let params = row[to === "1.0" ? 2 : 3](call.params);
  if (to === "1.0" && options.tenant && isJsonObject(params)) params = { tenant: options.tenant, ...params };
  return params === undefined ? { method } : { method, params };
}

/**
 * The `result` of a successful response to `method` (named in either
 * generation), from the origin's generation to the caller's. For the streaming
 * methods, a result is one SSE event: the same as translateStreamEvent.
 */
export function translateResult(method: string, result: unknown, from: ProtocolGeneration, to: ProtocolGeneration): unknown {
  const row = rowOf(method, "0.3", "1.0");
  return from === to || row === undefined ? result : row[to === "1.0" ? 4 : 5](result);
}

/** One event of a stream (the `result` of one SSE `data:` envelope): 0.3 bare event <-> 1.0 StreamResponse. */
export function translateStreamEvent(event: unknown, from: ProtocolGeneration, to: ProtocolGeneration): unknown {
  if (from === to) return event;
  return to === "1.0" ? streamResponseV1(event) : streamEventV03(event);
}

/** A JSON-RPC `error` object (of a response or of an SSE event), code and message kept, `data` in the caller's form. */
export function translateError(error: unknown, from: ProtocolGeneration, to: ProtocolGeneration): unknown {
  return from === to ? error : errorFor(error, to);
}

/** A translated response, and what of it could not be read (then it is an InvalidAgentResponseError envelope). */
export interface TranslatedResponse {
  response: unknown;
  unreadable?: string;
}

/**
 * A whole JSON-RPC response (or one SSE event's envelope) to `method`: its `result` or its `error`
 * translated, every other member (`jsonrpc`, `id`) kept. A result no reader can make out becomes the
 * caller's InvalidAgentResponseError (-32006), reported in `unreadable`: the reply path ends a stream there.
 */
export function translateResponseReporting(
  method: string,
  response: unknown,
  from: ProtocolGeneration,
  to: ProtocolGeneration,
): TranslatedResponse {
  if (!isJsonObject(response)) return { response };
  if (Object.hasOwn(response, "error")) return { response: { ...response, error: translateError(response.error, from, to) } };
  if (!Object.hasOwn(response, "result")) return { response };
  const result = translateResult(method, response.result, from, to);
  if (!isUnreadable(result)) return { response: { ...response, result } };
  const { result: _unread, ...envelope } = response;
  return { response: { ...envelope, error: unreadableError(to) }, unreadable: result.what };
}

/** translateResponseReporting's response alone. */
export function translateResponse(method: string, response: unknown, from: ProtocolGeneration, to: ProtocolGeneration): unknown {
  return translateResponseReporting(method, response, from, to).response;
}
