// Who is calling, for every binding: the card's own security schemes
// (EDGE_AUTH), the caller's rate limit (refused calls count against the
// client's address), and what the origin is told of the caller (A2A-Caller,
// A2A-Caller-Scopes, A2A-Caller-Assertion).
import { bodyDigest, type CallerAssertions } from "../auth/caller-assertion";
import type { Caller } from "../auth/edge-auth";
import { requirementsOf } from "../auth/requirements";
import type { CardSource } from "../card/source";
import { EdgeError, type Failure, failure, isFailure } from "../errors/failures";
import type { EdgeRequest } from "../http/edge-request";
import { currentTraceId } from "../observe/current";
import type { Call } from "./call";
import { EXTENDED_CARD_METHODS } from "./extended-card";

/**
 * The caller, or undefined for an anonymous call the edge lets through:
 * EDGE_AUTH=enforce checks every call, `off` only the extended card, which in
 * every mode goes to an authenticated caller alone.
 */
async function authenticate(edge: EdgeRequest, call: Call, source: CardSource): Promise<Caller | undefined | Failure> {
  const { config } = edge.runtime;
  const needsCaller = EXTENDED_CARD_METHODS.has(call.method);
  if (config.edgeAuth === "off" && !needsCaller) return undefined;
  // The agent's own verifiers (its AUTH_PROFILES entry), else the deployment's.
  const caller = await edge.runtime.authFor(source).authenticate(edge, requirementsOf(source));
  if (isFailure(caller) || caller || !needsCaller) return caller;
  // A card that requires nothing gives no way to authenticate: the extended card stays closed.
  return failure("UNAUTHENTICATED", "the extended card goes only to an authenticated caller", {
    headers: { "www-authenticate": `Bearer realm="${edge.publicHost}"` },
  });
}

/** The Workers Rate Limiting binding (RATE_LIMITER), keyed by the caller, else by the client's address. */
async function withinRateLimit(edge: EdgeRequest, caller: Caller | undefined): Promise<Failure | undefined> {
  const limiter = edge.runtime.rateLimiter;
  if (!limiter) return undefined;
  const key = caller ? `${caller.scheme}:${caller.subject}` : `ip:${edge.request.headers.get("cf-connecting-ip") ?? "unknown"}`;
  const { success } = await limiter.limit({ key });
  if (success) return undefined;
  return failure("RATE_LIMITED", "over the rate limit", { headers: { "retry-after": String(edge.runtime.config.rateLimitPeriod) } });
}

/** The caller the card's schemes identify (or none), within its rate limit; a refusal in the caller's binding. */
export async function admitCaller(edge: EdgeRequest, call: Call): Promise<Caller | undefined | Failure> {
  let source: CardSource;
  try {
    const found = edge.runtime.cards.source(edge.agentKey, edge.keepAlive);
    source = found instanceof Promise ? await found : found;
  } catch (error) {
    // The host's card cannot be read (CARD_UNAVAILABLE): its security is unknown, so the call is refused.
    if (error instanceof EdgeError) return error.failure;
    throw error;
  }
  const caller = await authenticate(edge, call, source);
  // A refused call counts too, against the client's address: guessing credentials is rate limited.
  if (isFailure(caller)) return (await withinRateLimit(edge, undefined)) ?? caller;
  return (await withinRateLimit(edge, caller)) ?? caller;
}

/** A token's `sub` may hold any character; a header value holds visible ASCII (the rest percent-encoded). */
function headerSafe(value: string): string {
  return value.replace(/[^\x20-\x7e]/gu, (char) => encodeURIComponent(char));
}

/** Sets A2A-Caller-Assertion for one attempt: the origin it goes to (`audience`) and the request it goes with. */
export type AssertAttempt = (audience: string, method: string, url: string, body: Uint8Array, headers: Headers) => Promise<void>;

/**
 * Who called, as the edge authenticated them: `A2A-Caller` (`<scheme>:<subject>`),
 * `A2A-Caller-Scopes`, and (with an assertion key) the setter of `A2A-Caller-Assertion`,
 * a JWT the origin verifies against the worker's JWKS, signed per attempt for the
 * origin it goes to (auth/caller-assertion.ts). A client's own `A2A-Caller*` headers
 * never pass (the request allowlist has none).
 */
export function callerHeaders(headers: Headers, edge: EdgeRequest, caller: Caller, operation: string): AssertAttempt | undefined {
  const name = headerSafe(`${caller.scheme}:${caller.subject}`);
  headers.set("a2a-caller", name);
  headers.set("a2a-caller-scopes", headerSafe(caller.scopes.join(" ")));
  const assertions: CallerAssertions | undefined = edge.runtime.assertions;
  if (!assertions) return undefined;
  const claims = { caller: name, scopes: caller.scopes, issuer: edge.base };
  // Every attempt of a call sends the same bytes: hashed once.
  let digested: { body: Uint8Array; digest: Promise<string | undefined> } | undefined;
  return async (audience, method, url, body, out) => {
    if (digested?.body !== body) digested = { body, digest: bodyDigest(body) };
    const request = { audience, method, url, operation, bodySha256: await digested.digest, traceId: currentTraceId() };
    out.set("a2a-caller-assertion", await assertions.sign(claims, request, Date.now()));
  };
}
