// Card signatures (A2A 1.0 §8.4): flattened JWS with detached payload over the
// RFC 8785 form of the card without `signatures`; protected header alg, kid,
// typ "JOSE" and jku. Signed at the edge after URL derivation, so every host's
// card verifies. When @a2a-js/sdk would verify a different payload (empty
// values dropped; see a2a-js-payload.ts), a second signature over that payload
// lets its verifier succeed too (it accepts any one valid signature), but only
// when that payload still covers every URL of the card: never for a 0.3-shaped
// card, whose `url` the SDK's payload leaves out.
import { encodeBase64Url } from "hono/utils/encode";
import type * as v1 from "../a2a/v1";
import type { JsonObject } from "../json";
import { a2aJsPayload, a2aJsPayloadCoversUrls } from "./a2a-js-payload";
import { canonicalJson } from "./jcs";
import type { Signer } from "./keys";

const encoder = new TextEncoder();

/**
 * Unpadded base64url (RFC 7515 §2); hono's helper keeps the `=` padding. It
 * takes a whole buffer: `slice()` gives the view's bytes their own one.
 */
export function base64url(bytes: Uint8Array): string {
  return encodeBase64Url(bytes.slice().buffer).replace(/=+$/, "");
}

type CardSignature = Pick<v1.AgentCardSignature, "protected" | "signature">;

/** A JWS over `payload` with it detached (RFC 7515 Appendix F): the encoded protected header and the signature. */
export async function detachedJws(signer: Signer, protectedHeader: string, payload: string): Promise<CardSignature> {
  const input = `${protectedHeader}.${base64url(encoder.encode(payload))}`;
  return { protected: protectedHeader, signature: base64url(await signer.sign(encoder.encode(input))) };
}

/** The edge's protected header (alg, kid, typ "JOSE", jku), base64url-encoded, for every detached JWS it makes. */
export const protectedHeaderOf = (signer: Signer, jku: string): string =>
  base64url(encoder.encode(JSON.stringify({ alg: signer.alg, kid: signer.kid, typ: "JOSE", jku })));

/** The card with its `signatures` replaced by the edge's (every card type has an optional `signatures`). */
export async function signCard<Card extends JsonObject>(card: Card, signer: Signer, jku: string): Promise<Card> {
  const unsigned = { ...card };
  Reflect.deleteProperty(unsigned, "signatures" satisfies keyof v1.AgentCard);
  const protectedHeader = protectedHeaderOf(signer, jku);
  const payload = canonicalJson(unsigned);
  const signatures = [await detachedJws(signer, protectedHeader, payload)];
  const sdkPayload = a2aJsPayload(unsigned);
  if (sdkPayload !== payload && a2aJsPayloadCoversUrls(unsigned)) signatures.push(await detachedJws(signer, protectedHeader, sdkPayload));
  return { ...unsigned, signatures };
}

/** A compact JWS (RFC 7515 §7.1) over a JSON payload, e.g. a JWT the edge issues (A2A-Caller-Assertion). */
export async function compactJws(signer: Signer, header: JsonObject, payload: JsonObject): Promise<string> {
  const input = `${base64url(encoder.encode(JSON.stringify(header)))}.${base64url(encoder.encode(JSON.stringify(payload)))}`;
  return `${input}.${base64url(await signer.sign(encoder.encode(input)))}`;
}
