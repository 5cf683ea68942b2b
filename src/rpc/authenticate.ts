// Stages 4-5 of the JSON-RPC path: who is calling (the card's own security
// schemes, EDGE_AUTH), and whether that caller is over its rate limit.
import type { Caller } from "../auth/edge-auth";
import { requirementsOf } from "../auth/requirements";
import type { CardSource } from "../card/source";
import { type Failure, failure, isFailure } from "../errors/failures";
import type { EdgeRequest } from "../http/edge-request";
import { EXTENDED_CARD_METHODS } from "../proxy/extended-card";
import type { RpcCall } from "./validate";

/**
 * The caller, or undefined for an anonymous call the edge lets through:
 * EDGE_AUTH=enforce checks every call, `off` only the extended card, which in
 * every mode goes to an authenticated caller alone.
 */
export async function authenticate(edge: EdgeRequest, call: RpcCall, source: CardSource): Promise<Caller | undefined | Failure> {
  const { config, auth } = edge.runtime;
  const needsCaller = EXTENDED_CARD_METHODS.has(call.method);
  if (config.edgeAuth === "off" && !needsCaller) return undefined;
  const caller = await auth.authenticate(edge, requirementsOf(source));
  if (isFailure(caller) || caller || !needsCaller) return caller;
  // A card that requires nothing gives no way to authenticate: the extended card stays closed.
  return failure("UNAUTHENTICATED", "the extended card goes only to an authenticated caller", {
    headers: { "www-authenticate": `Bearer realm="${edge.publicHost}"` },
  });
}

/** The Workers Rate Limiting binding (RATE_LIMITER), keyed by the caller, else by the client's address. */
export async function withinRateLimit(edge: EdgeRequest, caller: Caller | undefined): Promise<Failure | undefined> {
  const limiter = edge.runtime.rateLimiter;
  if (!limiter) return undefined;
  const key = caller ? `${caller.scheme}:${caller.subject}` : `ip:${edge.request.headers.get("cf-connecting-ip") ?? "unknown"}`;
  const { success } = await limiter.limit({ key });
  if (success) return undefined;
  return failure("RATE_LIMITED", "over the rate limit", { headers: { "retry-after": String(edge.runtime.config.rateLimitPeriod) } });
}
