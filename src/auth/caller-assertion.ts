// A2A-Caller-Assertion: what the edge tells the origin about who called, as
// a short-lived JWT signed by the edge (AUTH_ASSERTION_KEY, else the card
// signing key), verifiable against the worker's own JWKS: the origin trusts
// the caller's identity without trusting the network in between. Signed with
// the same WebCrypto signer as the cards (jose verifies it at the origin).
import { importSigner, type PrivateSigningJwk, type Signer } from "../sign/keys";
import { compactJws } from "../sign/sign";

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
  #signer: Promise<Signer> | undefined;

  constructor(private readonly jwk: PrivateSigningJwk) {}

  async sign(claims: AssertedCaller, nowMs: number): Promise<string> {
    this.#signer ??= importSigner(this.jwk);
    const signer = await this.#signer;
    const iat = Math.floor(nowMs / 1000);
    const payload = {
      iss: claims.issuer,
      aud: claims.audience,
      sub: claims.caller,
      scope: claims.scopes.join(" "),
      iat,
      exp: iat + LIFETIME_S,
    };
    return compactJws(signer, { alg: signer.alg, kid: signer.kid, typ: "JWT" }, payload);
  }
}
