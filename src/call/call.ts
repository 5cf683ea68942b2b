// One call, whatever binding it came in on: a client codec (src/bindings/)
// decodes a request into a Call, the admission pipeline (admit.ts) applies
// every policy to it once, an origin codec (src/origins/) encodes it for the
// origin and decodes the origin's reply into an Outcome, and the reply path
// (reply.ts) classifies, bounds and translates that before the client codec
// renders it. Versions meet in the bridge (src/bridge/), bindings in their
// codecs: N codecs, not N x N conversions.
import type { ProtocolGeneration } from "../a2a/correspondence";
import type { Operation } from "../a2a/operations";
import type { Config } from "../config";
import type { Failure } from "../errors/failures";
import type { RpcId } from "../errors/responses";
import type { JsonObject } from "../json";

/** The two A2A bindings the edge speaks on either side (A2A 1.0 §9 JSON-RPC, §11 HTTP+JSON). */
type Binding = "jsonrpc" | "http+json";

/**
 * A call, binding-neutral: the A2A operation (undefined for a method no A2A
 * version defines, an extension's), its method and parameters in the
 * canonical form of its generation (the JSON-RPC method name and `params` of
 * that generation, A2A 0.3 §7 / 1.0 §9.4), the version it was checked as.
 */
export interface Call {
  binding: Binding;
  /** `Major.Minor`, as A2A-Version said or the binding implies (A2A 1.0 §3.6). */
  version: string;
  generation: ProtocolGeneration;
  operation: Operation | undefined;
  method: string;
  params: unknown;
  /** The JSON-RPC id a reply carries (a REST call has none of its own: 1). */
  id: RpcId;
  /** The request as received, when an origin of the same binding and generation can take it unchanged. */
  bytes?: Uint8Array;
  /** The params are already the one reading's canonical form (src/messages/): a 1.0 REST body, read strictly with its path. */
  read?: true;
}

/**
 * What an origin answered, decoded: one A2A response (`result` or `error`, of
 * the origin's generation), never serialized between codecs. Its envelope
 * members (`jsonrpc`, `id`) are those of the call.
 */
export type Outcome = JsonObject;

/** An event after which a stream ends (the edge cannot read what the origin sent). */
interface LastEvent {
  text: string;
  end: true;
  /** What was unreadable, for the log. */
  unreadable: string;
}

/** The client's side of a binding: how the edge answers in it. */
export interface ClientCodec {
  binding: Binding;
  /** An edge refusal, in the binding's error shape. */
  failure(failure: Failure, call: Call | undefined): Response;
  /** A whole reply from its outcome (of the call's generation); `status` is a JSON-RPC origin's own HTTP status. */
  reply(call: Call, outcome: Outcome, init: { status: number; headers: Headers }): Response;
  /**
   * One SSE event's lines (no blank line after) from its outcome (of the call's generation) and the
   * event's other lines (`id:`, `event:`); `unreadable` says the outcome stands for a result the edge
   * could not read (then it is the stream's last event).
   */
  event(call: Call, outcome: Outcome, lines: readonly string[], unreadable: string | undefined): string | LastEvent;
  /** The last event of a stream the edge ends itself (the origin broke off, an event over the bound). */
  failureEvent(call: Call, failure: Failure): string;
}

/** The request an origin codec makes of a call: method, URL (or the route's), query and body. */
export interface OriginRequest {
  httpMethod: string;
  /** Absent: the route's candidates, with failover (a JSON-RPC endpoint). Else checked to be under its base. */
  url?: string;
  /** The assertion's audience for `url`: the base it is under (ORIGIN_REST_URL). */
  audience?: string;
  /** `?`-prefixed, or "". */
  query: string;
  body: Uint8Array;
  /** Absent: no body, no Content-Type. */
  contentType?: string;
}

/** The origin's side of a binding. */
export interface OriginCodec {
  binding: Binding;
  /** The call, in the origin's generation, as that origin's request; a Failure when the call cannot be put so. */
  encode(call: Call, config: Pick<Config, "originRestUrl">): OriginRequest | Failure;
  /** A whole reply's outcome from its status and parsed body (undefined: no body). */
  decode(call: Call, status: number, body: unknown): Outcome | undefined;
  /** One SSE event's outcome from its type (`event:`) and parsed data. */
  decodeEvent(call: Call, event: string | undefined, data: unknown): Outcome | undefined;
}
