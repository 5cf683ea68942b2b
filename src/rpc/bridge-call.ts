// Stage 3b of the JSON-RPC path: the version bridge (issue 12). A call in a
// version the edge serves but the origin does not speak goes on translated
// into the origin's preferred version (ORIGIN_PROTOCOL_VERSIONS, first), and
// everything the origin answers comes back translated (proxy/bridge-reply.ts).
// The translation itself is pure (src/bridge/).
import { type ProtocolGeneration, translateRequest } from "../bridge";
import { type Failure, failure } from "../errors/failures";
import type { RpcCall } from "./validate";

export interface BridgedCall {
  /** The caller's generation and the origin's. */
  client: ProtocolGeneration;
  origin: ProtocolGeneration;
  /** The version the origin is told (A2A-Version) and the method it receives. */
  originVersion: string;
  originMethod: string;
  originParams: unknown;
  /** The translated request, as sent. */
  bytes: Uint8Array;
}

const encoder = new TextEncoder();

/** 0.x versions share 0.3's wire format (slash methods, `kind`); 1.x share 1.0's (SPEC-NOTES §1.4). */
export function generationOf(version: string): ProtocolGeneration {
  return version.startsWith("0.") ? "0.3" : "1.0";
}

/** Undefined when the origin speaks the call's version (or its generation): the call goes on as it came. */
export function bridgeCall(call: RpcCall, version: string, originVersions: readonly string[]): BridgedCall | undefined | Failure {
  const originVersion = originVersions[0];
  if (originVersion === undefined || originVersions.includes(version)) return undefined;
  const client = generationOf(version);
  const origin = generationOf(originVersion);
  if (client === origin) return undefined;
  const translated = translateRequest({ method: call.method, params: call.params }, client, origin);
  if ("unsupported" in translated) return failure("METHOD_NOT_FOUND", `${call.method} has no counterpart in A2A ${originVersion}`);
  const { method, params } = translated;
  const envelope = params === undefined ? { jsonrpc: "2.0", id: call.id, method } : { jsonrpc: "2.0", id: call.id, method, params };
  return { client, origin, originVersion, originMethod: method, originParams: params, bytes: encoder.encode(JSON.stringify(envelope)) };
}
