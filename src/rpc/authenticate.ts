// Stage 3 of the JSON-RPC path: who is calling. The seam where edge
// authentication (the card's own security schemes) goes; until then every
// caller is anonymous and the call goes on as before.
import type { Failure } from "../errors/failures";
import type { EdgeRequest } from "../http/edge-request";
import type { RpcCall } from "./validate";

export interface Caller {
  /** `anonymous`, or the scheme that authenticated the caller. */
  scheme: string;
}

const ANONYMOUS: Caller = { scheme: "anonymous" };

export function authenticate(_call: RpcCall, _edge: EdgeRequest): Caller | Failure | Promise<Caller | Failure> {
  return ANONYMOUS;
}
