// How the origin agent trusts who called: the edge's A2A-Caller-Assertion, verified with jose against the
// edge's JWKS (docs/front-a-private-agent.md, "the origin's side"), and, when it is refused, why, in words a
// person can act on. The claims are decoded without trust to refuse early and say why (a wrong issuer is named
// before any key is fetched: the edge the origin trusts may not be running); nothing is accepted but what
// jwtVerify verified.
import { decodeJwt, decodeProtectedHeader, type JWTPayload, type JWTVerifyGetKey, jwtVerify } from "jose";

/** An edge whose A2A-Caller-Assertion the origin requires: its JWKS and its public base (the `iss`). */
export interface TrustedEdge {
  jwksUrl: string;
  issuer: string;
  /**
   * Also trust the edge's agents by path: an `iss` that is `issuer` followed by a path (`<issuer>/travel`),
   * their public base (they sign with the same keys). Default false: `iss` must be `issuer` exactly.
   */
  paths?: boolean;
}

/** Why a call was refused: one kind per thing a person would do differently. */
export type Refusal =
  | { kind: "credential"; sent: boolean }
  | { kind: "no-assertion"; viaEdge: boolean; trusted: string }
  | { kind: "not-a-jwt" }
  | { kind: "issuer"; issuer: string; trusted: string; paths: boolean }
  | { kind: "audience"; audience: string; url: string }
  | { kind: "expired"; expiredAt: string }
  | { kind: "keys-unreachable"; jwksUrl: string; cause: string }
  | { kind: "unverified"; why: string; jwksUrl: string };

/** `iss` is the edge's public base, or (with `paths`) that base followed by a path: `/travel`, never `0/travel`. */
export function issuedBy(iss: unknown, edge: string, paths = false): boolean {
  const base = edge.replace(/\/+$/, "");
  if (iss === base) return true;
  return paths && typeof iss === "string" && iss.startsWith(`${base}/`) && iss.length > base.length + 1;
}

/** What was refused and why, as facts ("the edge's A2A-Caller-Assertion: issued by X, ..."); the caller adds what to do. */
export function describeRefusal(refusal: Refusal): string {
  const assertion = "the edge's A2A-Caller-Assertion";
  switch (refusal.kind) {
    case "credential":
      return `the edge's credential: ${refusal.sent ? "its Authorization header is not this origin's" : "the call has no Authorization header"}`;
    case "no-assertion":
      return refusal.viaEdge
        ? `a call without an A2A-Caller-Assertion, through an edge that signs none`
        : `a call without an A2A-Caller-Assertion, not through an edge (no X-Forwarded-Host): this origin answers only the edge at ${refusal.trusted}`;
    case "not-a-jwt":
      return `${assertion}: it is not a JWT`;
    case "issuer":
      return `${assertion}: issued by ${refusal.issuer}, this origin trusts ${refusal.trusted}${refusal.paths ? " and its agents by path" : ""}`;
    case "audience":
      return `${assertion}: for ${refusal.audience} (its aud), this origin is ${refusal.url}`;
    case "expired":
      return `${assertion}: it expired at ${refusal.expiredAt}`;
    case "keys-unreachable":
      return `${assertion}: the edge's JWKS at ${refusal.jwksUrl} could not be fetched (${refusal.cause})`;
    case "unverified":
      return `${assertion}: ${refusal.why} (keys: ${refusal.jwksUrl})`;
  }
}

/** A jose failure of a token whose issuer and audience were already found right. */
function unverified(error: unknown, header: string, jwksUrl: string): Refusal {
  const code = (error as { code?: unknown }).code;
  if (code === "ERR_JWKS_TIMEOUT") return { kind: "keys-unreachable", jwksUrl, cause: "timed out" };
  // jose fetches the JWKS with fetch(): a connection refused is its TypeError, the reason in `cause`.
  if (error instanceof TypeError && error.message === "fetch failed") {
    const cause = (error as { cause?: { code?: unknown } }).cause?.code;
    return { kind: "keys-unreachable", jwksUrl, cause: typeof cause === "string" ? cause : "fetch failed" };
  }
  return { kind: "unverified", why: reason(error, header), jwksUrl };
}

function reason(error: unknown, header: string): string {
  const code = (error as { code?: unknown }).code;
  if (code === "ERR_JWKS_NO_MATCHING_KEY") {
    const kid = (() => {
      try {
        return decodeProtectedHeader(header).kid;
      } catch {
        return undefined;
      }
    })();
    return `signed with a key (kid ${JSON.stringify(kid ?? null)}) that the edge's JWKS does not list`;
  }
  if (code === "ERR_JWS_SIGNATURE_VERIFICATION_FAILED") return "its signature does not verify against the edge's JWKS";
  if (code === "ERR_JWT_CLAIM_VALIDATION_FAILED") return `claim ${(error as { claim?: string }).claim}: ${(error as Error).message}`;
  return error instanceof Error ? error.message : String(error);
}

/**
 * The verified claims of an A2A-Caller-Assertion (`header`), or why it is refused: not a JWT, not from the
 * trusted edge, not for this origin (`audience`, its URL as the edge is configured with it), expired, or not
 * verifying against the edge's keys. `viaEdge` (an X-Forwarded-Host came) only words the refusal of a call without one.
 */
export async function checkAssertion(
  header: string | undefined,
  edge: TrustedEdge,
  keys: JWTVerifyGetKey,
  audience: string,
  viaEdge: boolean,
): Promise<{ claims: JWTPayload } | { refusal: Refusal }> {
  const paths = edge.paths ?? false;
  if (header === undefined || header === "") return { refusal: { kind: "no-assertion", viaEdge, trusted: edge.issuer } };
  let claimed: JWTPayload;
  try {
    claimed = decodeJwt(header);
  } catch {
    return { refusal: { kind: "not-a-jwt" } };
  }
  const shown = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value ?? null));
  if (!issuedBy(claimed.iss, edge.issuer, paths))
    return { refusal: { kind: "issuer", issuer: shown(claimed.iss), trusted: edge.issuer, paths } };
  if (!(Array.isArray(claimed.aud) ? claimed.aud : [claimed.aud]).includes(audience))
    return { refusal: { kind: "audience", audience: shown(claimed.aud), url: audience } };
  try {
    // The signature covers the very claims decoded above: their issuer, now verified, is the one found trusted.
    const { payload } = await jwtVerify(header, keys, { audience });
    return { claims: payload };
  } catch (error) {
    if ((error as { code?: unknown }).code === "ERR_JWT_EXPIRED" && typeof claimed.exp === "number")
      return { refusal: { kind: "expired", expiredAt: new Date(claimed.exp * 1000).toISOString() } };
    return { refusal: unverified(error, header, edge.jwksUrl) };
  }
}
