// Card signing keys (A2A 1.0 §8.4): a private JWK secret, ES256 (P-256) or
// EdDSA (Ed25519), with a `kid`. Parsing is pure; importing uses WebCrypto.

type SigningAlg = "ES256" | "EdDSA";

export interface PrivateSigningJwk {
  kty: "EC" | "OKP";
  crv: "P-256" | "Ed25519";
  kid: string;
  d: string;
  x: string;
  y?: string;
}

export interface PublicJwk {
  kty: string;
  crv: string;
  kid: string;
  x: string;
  y?: string;
  alg: string;
  use: "sig";
}

const B64URL = /^[A-Za-z0-9_-]+$/;
const isB64 = (v: unknown): v is string => typeof v === "string" && v.length > 0 && B64URL.test(v);

/** Throws an Error whose message never contains key material. */
export function parsePrivateJwk(value: unknown): PrivateSigningJwk {
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new Error("expected a private JWK object");
  const jwk = value as Record<string, unknown>;
  if (typeof jwk.kid !== "string" || jwk.kid === "" || jwk.kid.length > 200) throw new Error('the JWK needs a "kid"');
  if (!isB64(jwk.d)) throw new Error('the JWK has no private part "d" (this is a public key)');
  if (jwk.kty === "EC" && jwk.crv === "P-256" && isB64(jwk.x) && isB64(jwk.y)) {
    if (jwk.alg !== undefined && jwk.alg !== "ES256") throw new Error("a P-256 key signs with ES256");
    return { kty: "EC", crv: "P-256", kid: jwk.kid, d: jwk.d, x: jwk.x, y: jwk.y };
  }
  if (jwk.kty === "OKP" && jwk.crv === "Ed25519" && isB64(jwk.x)) {
    if (jwk.alg !== undefined && jwk.alg !== "EdDSA" && jwk.alg !== "Ed25519") throw new Error("an Ed25519 key signs with EdDSA");
    return { kty: "OKP", crv: "Ed25519", kid: jwk.kid, d: jwk.d, x: jwk.x };
  }
  throw new Error("expected an EC P-256 (ES256) or OKP Ed25519 (EdDSA) key");
}

function algOf(jwk: Pick<PrivateSigningJwk, "kty">): SigningAlg {
  return jwk.kty === "EC" ? "ES256" : "EdDSA";
}

export function publicJwk(jwk: PrivateSigningJwk): PublicJwk {
  const out: PublicJwk = { kty: jwk.kty, crv: jwk.crv, kid: jwk.kid, x: jwk.x, alg: algOf(jwk), use: "sig" };
  if (jwk.y) out.y = jwk.y;
  return out;
}

/** Extra public keys listed in the JWKS (e.g. the previous key during a rotation). */
export function parsePublicJwks(value: unknown): PublicJwk[] {
  const list = Array.isArray(value) ? value : [value];
  return list.map((item) => {
    if (typeof item !== "object" || item === null) throw new Error("expected public JWK objects");
    const jwk = item as Record<string, unknown>;
    if ("d" in jwk) throw new Error("a private key was given where public keys belong");
    if (typeof jwk.kid !== "string" || !isB64(jwk.x) || typeof jwk.kty !== "string" || typeof jwk.crv !== "string") {
      throw new Error("each public JWK needs kty, crv, x and kid");
    }
    const alg = jwk.kty === "EC" ? "ES256" : "EdDSA";
    const out: PublicJwk = { kty: jwk.kty, crv: jwk.crv, kid: jwk.kid, x: jwk.x, alg, use: "sig" };
    if (isB64(jwk.y)) out.y = jwk.y;
    return out;
  });
}

export interface Signer {
  alg: SigningAlg;
  kid: string;
  sign(data: Uint8Array): Promise<Uint8Array>;
}

export async function importSigner(jwk: PrivateSigningJwk): Promise<Signer> {
  const alg = algOf(jwk);
  // WebCrypto ECDSA signatures are IEEE P1363 (r || s): the JWS ES256 form (RFC 7518 §3.4).
  const algorithm = alg === "ES256" ? { name: "ECDSA", namedCurve: "P-256" } : { name: "Ed25519" };
  const signParams = alg === "ES256" ? { name: "ECDSA", hash: "SHA-256" } : { name: "Ed25519" };
  const key = await crypto.subtle.importKey("jwk", { ...jwk, ext: true } as JsonWebKey, algorithm, false, ["sign"]);
  return {
    alg,
    kid: jwk.kid,
    sign: async (data) => new Uint8Array(await crypto.subtle.sign(signParams, key, data)),
  };
}
