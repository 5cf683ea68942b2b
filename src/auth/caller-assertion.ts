// A2A-Caller-Assertion: what the edge tells the origin about who called, as
// a short-lived JWT signed by the edge (AUTH_ASSERTION_KEY, else the card
// signing key), verifiable against the worker's own JWKS: the origin trusts
// the caller's identity without trusting the network in between.
import { importJWK, SignJWT } from "jose";
import type { PrivateSigningJwk } from "../sign/keys";
import { algOf } from "../sign/keys";

const LIFETIME_S = 60;

export interface AssertedCaller {
  /** `<scheme name>:<subject>`, as A2A-Caller says. */
  caller: string;
  scopes: readonly string[];
  /** The public base the call came to (the issuer) and the origin it goes to (the audience). */
  issuer: string;
  audience: string;
}

export class CallerAssertions {
  #key: Promise<CryptoKey | Uint8Array> | undefined;

  constructor(private readonly jwk: PrivateSigningJwk) {}

  get kid(): string {
    return this.jwk.kid;
  }

  async sign(claims: AssertedCaller, nowMs: number): Promise<string> {
    this.#key ??= importJWK({ ...this.jwk }, algOf(this.jwk));
    const iat = Math.floor(nowMs / 1000);
    return new SignJWT({ scope: claims.scopes.join(" ") })
      .setProtectedHeader({ alg: algOf(this.jwk), kid: this.jwk.kid, typ: "JWT" })
      .setIssuer(claims.issuer)
      .setAudience(claims.audience)
      .setSubject(claims.caller)
      .setIssuedAt(iat)
      .setExpirationTime(iat + LIFETIME_S)
      .sign(await this.#key);
  }
}
