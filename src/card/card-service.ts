// The cards of this isolate: which card-source document a host gets (KV,
// bundled, or the origin's own card in passthrough mode), and each (document,
// public base, variant) card built, signed and hashed once. Everything here is
// derived; losing it (a new isolate) only costs a rebuild.
import { splitKey } from "../agents/agent-paths";
import { catalogLinks } from "../agents/catalog";
import type { Config } from "../config";
import type { KeepAlive } from "../http/body";
import { strongEtag } from "../http/etag";
import { joinUrl } from "../http/urls";
import type { OriginRouter } from "../proxy/origin-router";
import type { CardSigner } from "../sign/card-signer";
import { buildCard, type CardOfVariant } from "./build-card";
import { type CardDataSource, cardHeaders } from "./card-headers";
import { withPublicBase } from "./from-origin";
import { OriginCardStore } from "./origin-store";
import type { Repair } from "./repairs";
import { isSampleDocument } from "./sample";
import type { CardSource } from "./source";
import { CardSourceStore, type Resolved } from "./store";
import type { CardVariant } from "./variant";

export interface BuiltCard<V extends CardVariant = CardVariant> {
  /** The card object (for the human view); never mutated. */
  card: CardOfVariant[V];
  body: Uint8Array;
  etag: string;
  /** Where the card's data came from (the Card-Source header; the page says it too). */
  dataSource: CardDataSource;
  /** What card intake repaired in the document (the Card-Repaired header; the page lists them). */
  repairs: readonly Repair[];
  /** The bundled skills.json is still the sample: the page says so. */
  sample: boolean;
  /**
   * Response headers, built once: workerd copies a Headers object into a new
   * Response far faster than it converts a header list (~3 µs vs ~20-40 µs).
   * Never mutated after construction.
   */
  okHeaders: Headers;
  notModifiedHeaders: Headers;
}

/** Per source document: base -> variant -> card. Bases come from Host headers: bounded. */
const MAX_BASES_PER_SOURCE = 256;

type Memo<V extends CardVariant = CardVariant> = BuiltCard<V> | Promise<BuiltCard<V>>;
type Later<T> = T | Promise<T>;

export class CardService {
  readonly store: CardSourceStore;
  /** Passthrough card mode only. */
  readonly originCards: OriginCardStore | undefined;
  readonly #cards = new WeakMap<CardSource, Map<string, { [V in CardVariant]?: Memo<V> }>>();
  readonly #repairs = new WeakMap<CardSource, readonly Repair[]>();

  constructor(
    private readonly config: Config,
    kv: KVNamespace | undefined,
    bundled: () => Resolved,
    private readonly origins: OriginRouter,
    private readonly signer: CardSigner | undefined,
  ) {
    this.store = new CardSourceStore(kv, bundled, config.kvCacheTtl);
    this.originCards =
      config.cardSource === "origin" && config.originCardUrl
        ? new OriginCardStore(
            origins,
            config.originCardUrl,
            config.originHeaders,
            config.originCardTtl,
            config.originTimeoutMs,
            this.store.lastGood,
          )
        : undefined;
  }

  /**
   * The card-source document a public hostname is answered with: the origin's own card (passthrough
   * mode) or KV/bundled, its last good copy while it cannot be read; throws CARD_UNAVAILABLE (503)
   * when there is none. Never another document in its place.
   */
  resolve(hostname: string, keepAlive?: KeepAlive): Later<Resolved> {
    const resolved = this.originCards ? this.originCards.resolve(keepAlive) : this.store.resolve(hostname, keepAlive);
    return resolved instanceof Promise ? resolved.then((r) => this.#noted(r)) : this.#noted(resolved);
  }

  /** The document alone (authentication uses it). */
  source(hostname: string, keepAlive?: KeepAlive): Later<CardSource> {
    const resolved = this.resolve(hostname, keepAlive);
    return resolved instanceof Promise ? resolved.then((r) => r.source) : resolved.source;
  }

  /** What intake repaired in `source`, for the cards built from it (a document read outside resolve(), e.g. an admin write). */
  noteRepairs(source: CardSource, repairs: readonly Repair[]): void {
    if (!this.#repairs.has(source)) this.#repairs.set(source, repairs);
  }

  #noted(resolved: Resolved): Resolved {
    this.noteRepairs(resolved.source, resolved.repairs);
    return resolved;
  }

  /** `Major.Minor` versions the edge serves: the origin card's in passthrough mode (once read), else PROTOCOL_VERSIONS. */
  servedVersions(): readonly string[] {
    return this.config.protocolVersions;
  }

  /**
   * What the origin speaks, preferred first: ORIGIN_PROTOCOL_VERSIONS, else (passthrough) what its own card
   * lists, else what the edge serves. Calls in a served version it does not speak are bridged. In passthrough
   * mode an isolate that holds no card yet reads it first (or its last good copy): a call is often an
   * isolate's first request, the card having been read from another one. Only when neither can be read is
   * the call sent as received.
   */
  originVersions(keepAlive?: KeepAlive): Later<readonly string[]> {
    const { originProtocolVersions, protocolVersions } = this.config;
    if (originProtocolVersions || !this.originCards) return originProtocolVersions ?? protocolVersions;
    const held = this.originCards.held();
    if (held) return held.protocolVersions;
    const origin = this.originCards;
    return Promise.resolve(origin.resolve(keepAlive)).then(
      () => origin.held()?.protocolVersions ?? protocolVersions,
      () => protocolVersions,
    );
  }

  /** The card for (source, public base, variant), built and hashed once; synchronous once built (the hot path). */
  card<V extends CardVariant>(source: CardSource, base: string, variant: V): Memo<V> {
    let byBase = this.#cards.get(source);
    if (!byBase) {
      byBase = new Map();
      this.#cards.set(source, byBase);
    }
    let memos = byBase.get(base);
    if (!memos) {
      const oldest = byBase.keys().next();
      if (byBase.size >= MAX_BASES_PER_SOURCE && !oldest.done) byBase.delete(oldest.value);
      memos = {};
      byBase.set(base, memos);
    }
    // Seen as holding variant V only, so that a Memo<V> may be stored under V.
    const byVariant: { [P in V]?: Memo<P> } = memos;
    const memoized = byVariant[variant];
    if (memoized) return memoized;
    // Building is CPU and WebCrypto only (no I/O), so later requests may share the promise.
    const building = this.#build(source, base, variant);
    const slot = byVariant;
    slot[variant] = building;
    building.then(
      (built) => {
        if (slot[variant] === building) slot[variant] = built;
      },
      () => undefined, // the caller awaiting `building` reports the failure
    );
    return building;
  }

  /** Built cards are memoized per source document, so a document's origin is fixed with its cards. */
  #dataSource(source: CardSource, fromOrigin: boolean): CardDataSource {
    if (fromOrigin) return "origin";
    const key = this.store.keyOf(source);
    return key === undefined ? "bundled" : `kv:${key}`;
  }

  async #build<V extends CardVariant>(source: CardSource, base: string, variant: V): Promise<BuiltCard<V>> {
    const { rpcPath, skillAllowlist } = this.config;
    const fromOrigin = this.originCards?.describe(source);
    const rpcUrl = joinUrl(base, rpcPath);
    const { protocolVersions } = this.config;
    const { restPath, preferredBinding, interfaceTenant } = this.config;
    const restUrl = restPath === undefined ? undefined : joinUrl(base, restPath);
    const endpoint = {
      rpcUrl,
      restUrl,
      restFirst: preferredBinding === "http+json",
      tenant: interfaceTenant,
      protocolVersions,
      skillAllowlist,
    };
    let card = buildCard(source, endpoint, variant);
    // The origin's documentation/icon/provider URLs may name its private host.
    if (fromOrigin) card = withPublicBase(card, [...this.origins.privateOrigins, ...fromOrigin.advertisedOrigins], base);
    if (this.signer) card = await this.signer.sign(card, base);
    const body = new TextEncoder().encode(JSON.stringify(card));
    const etag = await strongEtag(body);
    const dataSource = this.#dataSource(source, fromOrigin !== undefined);
    const repairs = this.#repairs.get(source) ?? fromOrigin?.repairs ?? [];
    // The host's catalogs (RFC 9727 `api-catalog`, AI Catalog `ai-catalog`), at the root of a path agent's host.
    const agentPath = splitKey(this.store.keyOf(source) ?? "").path;
    const hostBase = agentPath !== "" && base.endsWith(agentPath) ? base.slice(0, -agentPath.length) : base;
    const headers = cardHeaders(this.config, variant, etag, dataSource, repairs);
    headers.push(["link", catalogLinks(hostBase)]);
    return {
      card,
      body,
      etag,
      dataSource,
      repairs,
      sample: dataSource === "bundled" && isSampleDocument(source),
      okHeaders: new Headers([...headers, ["content-type", "application/json"]]),
      notModifiedHeaders: new Headers(headers),
    };
  }
}
