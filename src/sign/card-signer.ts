// The edge's signing key, imported once per isolate, and the one place a card
// is signed (A2A 1.0 §8.4): the public card and the origin's extended card
// alike, each with `jku` = the JWKS of the public base it is served under;
// and the catalogs' trust manifests, with the same key (trust-manifest.ts).
import { EdgeError } from "../errors/failures";
import { joinUrl } from "../http/urls";
import type { JsonObject } from "../json";
import { log } from "../log";
import { importSigner, type PrivateSigningJwk, type PublicJwk, publicJwk, type Signer } from "./keys";
import { signCard } from "./sign";
import { signTrustManifest } from "./trust-manifest";

/** Where the JWKS (the `jku` of every card signature) is served. */
export const JWKS_PATH = "/.well-known/jwks.json";

export class CardSigner {
  #signer: Promise<Signer> | undefined;

  constructor(
    private readonly key: PrivateSigningJwk,
    private readonly extraPublicKeys: readonly PublicJwk[],
    /** Whether a card served under a base is signed (http/public-base.ts signsFor). */
    private readonly signsFor: (base: string) => boolean = () => true,
  ) {}

  /** The imported key; a key WebCrypto refuses fails every signed route alike, logged once. */
  #imported(): Promise<Signer> {
    this.#signer ??= importSigner(this.key).catch((error: Error) => {
      log("error", "signing_key_invalid", { error: error.name });
      throw new EdgeError("INTERNAL", "Invalid worker configuration: CARD_SIGNING_KEY could not be imported");
    });
    return this.#signer;
  }

  /** Signed after URL derivation, so the card of every host verifies (§8.4); left unsigned under a base not named. */
  async sign<Card extends JsonObject>(card: Card, base: string): Promise<Card> {
    if (!this.signsFor(base)) return card;
    return signCard(card, await this.#imported(), joinUrl(base, JWKS_PATH));
  }

  /**
   * A catalog entry's trust manifest signed under `base` (the host's), whose JWKS verifies it like the card;
   * undefined under a base not named: a signature there would vouch for whatever host the request named.
   */
  async signTrustManifest<Manifest extends JsonObject>(manifest: Manifest, base: string): Promise<Manifest | undefined> {
    if (!this.signsFor(base)) return undefined;
    return signTrustManifest(manifest, await this.#imported(), joinUrl(base, JWKS_PATH));
  }

  /** The JWKS: the signing key's public part, then the listed extra keys (a rotation's previous key). */
  async jwks(): Promise<{ keys: PublicJwk[] }> {
    await this.#imported(); // never publish a key the cards cannot be signed with
    return { keys: [publicJwk(this.key), ...this.extraPublicKeys.filter((k) => k.kid !== this.key.kid)] };
  }
}
