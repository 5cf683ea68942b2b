// Trust Manifest signatures (AI Catalog draft, Agent-Card/ai-catalog at commit 634a09d, "Trust Manifest
// Signatures"; ARD v0.9 §5.1 defers to it): a JWS over the RFC 8785 (JCS) form of the manifest without its
// `signature`, stored in compact serialization with the payload detached (RFC 7515 Appendix F:
// `<protected>..<signature>`). The card's key, kid and protected header (sign.ts), `jku` included: the draft
// resolves an HTTPS `identity`'s key at that URL ("Key Resolution"), and an agent's base URL serves no JWK
// Set, so the header names the one that does.
import type { JsonObject } from "../json";
import { canonicalJson } from "./jcs";
import type { Signer } from "./keys";
import { detachedJws, protectedHeaderOf } from "./sign";

export async function signTrustManifest<Manifest extends JsonObject>(manifest: Manifest, signer: Signer, jku: string): Promise<Manifest> {
  const unsigned = { ...manifest };
  Reflect.deleteProperty(unsigned, "signature");
  const jws = await detachedJws(signer, protectedHeaderOf(signer, jku), canonicalJson(unsigned));
  return { ...unsigned, signature: `${jws.protected}..${jws.signature}` };
}
