// A2A-Caller-Assertion: what the edge tells the origin about who called, as
// a short-lived JWT signed by the edge (AUTH_ASSERTION_KEY, else the card
// signing key), verifiable against the worker's own JWKS: the origin trusts
// the caller's identity without trusting the network in between. Signed with
// the same WebCrypto signer as the cards (jose verifies it at the origin).
//
// It is bound to one origin and one request, so that an origin that receives
// it cannot replay it at another origin or for another call: `aud` is the
// configured URL of the origin this attempt goes to (each failover attempt
// gets its own), `jti` is unique, and `htm`/`htu` (as RFC 9449 §4.2 defines
// them for DPoP proofs) with `a2a_operation` and `body_sha256` describe the
// request it travels with; `trace_id` names the W3C trace it is part of (the
// trace-id of the traceparent beside it).

import { importSigner, type PrivateSigningJwk, type Signer } from "../sign/keys";
import { base64url, compactJws } from "../sign/sign";

const LIFETIME_S = 60;

export interface AssertedCaller {
  /** `<scheme name>:<subject>`, as A2A-Caller says. */
  caller: string;
  scopes: readonly string[];
  /** The public base the call came to (the issuer). */
  issuer: string;
}

/** The request the assertion travels with. */
export interface AssertedRequest {
  /** The configured URL of the origin it is sent to (ORIGIN_URL, a region's URL, a document's originUrl, ORIGIN_REST_URL). */
  audience: string;
  /** HTTP method and URL (without query or fragment) of the request to the origin. */
  method: string;
  url: string;
  /** The A2A operation by its 1.0 name (`SendMessage`), whatever the version or binding the origin speaks. */
  operation: string;
  /** SHA-256 of the exact body bytes sent, base64url; undefined without a body. */
  bodySha256: string | undefined;
  /** The call's W3C trace-id (Trace Context §3.2.2.3), as the origin's traceparent carries it. */
  traceId?: string | undefined;
}

/** SHA-256 of `bytes`, unpadded base64url (as `body_sha256` carries it); undefined for no body. */
export async function bodyDigest(bytes: Uint8Array): Promise<string | undefined> {
  if (bytes.length === 0) return undefined;
  return base64url(new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)));
}

export class CallerAssertions {
  #signer: Promise<Signer> | undefined;

  constructor(private readonly jwk: PrivateSigningJwk) {}

  async sign(claims: AssertedCaller, request: AssertedRequest, nowMs: number): Promise<string> {
    this.#signer ??= importSigner(this.jwk);
    const signer = await this.#signer;
    const iat = Math.floor(nowMs / 1000);
    const htu = new URL(request.url);
    htu.search = "";
    htu.hash = "";
    const payload = {
      iss: claims.issuer,
      aud: request.audience,
      sub: claims.caller,
      scope: claims.scopes.join(" "),
      iat,
      exp: iat + LIFETIME_S,
      jti: crypto.randomUUID(),
      htm: request.method,
      htu: htu.href,
      a2a_operation: request.operation,
      ...(request.bodySha256 === undefined ? {} : { body_sha256: request.bodySha256 }),
      ...(request.traceId === undefined ? {} : { trace_id: request.traceId }),
    };
    return compactJws(signer, { alg: signer.alg, kid: signer.kid, typ: "JWT" }, payload);
  }
}
