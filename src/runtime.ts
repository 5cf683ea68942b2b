// Per-isolate state, built once per env: the parsed config, the card-source
// store and the memo of built cards. Everything here is derived; losing it
// (a new isolate) only costs a rebuild.
import bundledDocument from "../skills.json";
import { parseConfig, type Config } from "./config";
import { HttpError } from "./errors";
import { log } from "./log";
import { buildCard, joinUrl, type CardOfVariant } from "./card/build-card";
import type { CardVariant } from "./card/variant";
import { cardHeaders } from "./card/headers";
import { parseCardSource, type CardSource } from "./card/source";
import { CardSourceStore } from "./card/store";
import { OriginCardStore } from "./card/origin-store";
import { publicizeCard } from "./card/from-origin";
import { OriginTransport, type FetchLike } from "./proxy/transport";
import { secretFragments } from "./proxy/headers";
import type { KeepAlive } from "./http/body";
import { strongEtag } from "./http/etag";
import { issuesToText } from "./validation";
import { importSigner, type Signer } from "./sign/keys";
import { signCard } from "./sign/sign";

/** Where the JWKS (the `jku` of every card signature) is served. */
export const JWKS_PATH = "/.well-known/jwks.json";

export interface BuiltCard<V extends CardVariant = CardVariant> {
  /** The card object (for the human view); never mutated. */
  card: CardOfVariant[V];
  body: Uint8Array;
  etag: string;
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

export interface RuntimeDeps {
  /** Outbound fetch to the origin (tests inject one); defaults to the global fetch, looked up per call. */
  fetch?: FetchLike;
}

export class Runtime {
  readonly store: CardSourceStore;
  readonly origin: OriginTransport;
  /** Passthrough card mode only. */
  readonly originCards: OriginCardStore | undefined;
  #signer: Promise<Signer> | undefined;
  readonly #cards = new WeakMap<CardSource, Map<string, { [V in CardVariant]?: Memo<V> }>>();

  /** Outbound fetch (origin, registries); injectable for tests. */
  readonly fetch: FetchLike;
  /** ORIGIN_HEADERS values and their tokens, never returned to a client. */
  readonly secretFragments: readonly string[];

  constructor(
    readonly config: Config,
    readonly kv: KVNamespace | undefined,
    originBinding: Fetcher | undefined,
    bundled: () => CardSource,
    deps: RuntimeDeps = {},
  ) {
    this.store = new CardSourceStore(kv, bundled, config.kvCacheTtl);
    this.secretFragments = secretFragments(config.originHeaders);
    this.fetch = deps.fetch ?? ((input, init) => fetch(input, init));
    this.origin = new OriginTransport(config, originBinding, this.fetch);
    this.originCards =
      config.cardSource === "origin" && config.originCardUrl
        ? new OriginCardStore(this.origin, config.originCardUrl, config.originHeaders, config.originCardTtl, config.originTimeoutMs)
        : undefined;
  }

  /** The card-source document for a public hostname: the origin's card (passthrough mode) or KV/bundled. */
  source(hostname: string, keepAlive?: KeepAlive): CardSource | Promise<CardSource> {
    if (!this.originCards) return this.store.lookup(hostname, keepAlive);
    const found = this.originCards.lookup(keepAlive);
    if (found instanceof Promise) return found.then((card) => card?.source ?? this.store.lookup(hostname, keepAlive));
    return found?.source ?? this.store.lookup(hostname, keepAlive);
  }

  /** `Major.Minor` versions the edge serves: the origin card's in passthrough mode (once read), else PROTOCOL_VERSIONS. */
  servedVersions(): readonly string[] {
    return this.originCards?.held()?.protocolVersions ?? this.config.protocolVersions;
  }

  readonly #refusedDocumentOrigins = new Set<string>();

  /**
   * The origin a host's document names, if the operator allows it: a document
   * is data (KV, admin API), and the origin gets ORIGIN_HEADERS, so only
   * origins listed in DOCUMENT_ORIGINS are used. Not with a Service Binding.
   */
  documentOrigin(document: CardSource, hostname: string): string | undefined {
    const named = document.originUrl;
    if (!named) return undefined;
    const origin = new URL(named).origin;
    if (!this.origin.hasBinding && this.config.documentOrigins.has(origin)) return named;
    if (this.#refusedDocumentOrigins.size < 1000 && !this.#refusedDocumentOrigins.has(hostname)) {
      this.#refusedDocumentOrigins.add(hostname);
      log("warn", "document_origin_refused", { host: hostname, origin: new URL(named).host, reason: this.origin.hasBinding ? "service_binding" : "not_in_DOCUMENT_ORIGINS" });
    }
    return undefined;
  }

  /** The card for (source, public base, variant), built and hashed once. */
  card<V extends CardVariant>(source: CardSource, base: string, variant: V): Memo<V> {
    let byBase = this.#cards.get(source);
    if (!byBase) this.#cards.set(source, (byBase = new Map()));
    let memos = byBase.get(base);
    if (!memos) {
      if (byBase.size >= MAX_BASES_PER_SOURCE) byBase.delete(byBase.keys().next().value!);
      byBase.set(base, (memos = {}));
    }
    // Seen as holding variant V only, so that a Memo<V> may be stored under V.
    const byVariant: { [P in V]?: Memo<P> } = memos;
    const memoized = byVariant[variant];
    if (memoized) return memoized;
    const building = this.#build(source, base, variant);
    byVariant[variant] = building;
    // Once built, later requests get the value itself (no await on the hot path).
    building.then(
      (built) => byVariant[variant] === building && (byVariant[variant] = built),
      () => undefined, // the caller awaiting `building` reports the failure
    );
    return building;
  }

  /** The imported signing key, once per isolate; undefined when cards are not signed. */
  signer(): Promise<Signer> | undefined {
    const key = this.config.signingKey;
    if (!key) return undefined;
    this.#signer ??= importSigner(key).catch((error: Error) => {
      log("error", "signing_key_invalid", { error: error.name });
      throw new HttpError(500, "Invalid worker configuration: CARD_SIGNING_KEY could not be imported");
    });
    return this.#signer;
  }

  async #build<V extends CardVariant>(source: CardSource, base: string, variant: V): Promise<BuiltCard<V>> {
    const { rpcPath, skillAllowlist } = this.config;
    const fromOrigin = this.originCards?.describe(source);
    const rpcUrl = joinUrl(base, rpcPath);
    const protocolVersions = fromOrigin?.protocolVersions ?? this.config.protocolVersions;
    let card = buildCard(source, { rpcUrl, protocolVersions, skillAllowlist }, variant);
    // The origin's documentation/icon/provider URLs may name its private host.
    if (fromOrigin) card = publicizeCard(card, [...this.origin.privateOrigins, ...fromOrigin.advertisedOrigins], base, rpcUrl);
    // Signed after URL derivation, so the card of every host verifies (§8.4).
    const signer = this.signer();
    if (signer) card = await signCard(card, await signer, joinUrl(base, JWKS_PATH));
    const body = new TextEncoder().encode(JSON.stringify(card));
    const etag = await strongEtag(body);
    const headers = cardHeaders(this.config, variant, etag);
    return {
      card,
      body,
      etag,
      okHeaders: new Headers([...headers, ["content-type", "application/json"]]),
      notModifiedHeaders: new Headers(headers),
    };
  }
}

let bundledSource: CardSource | undefined;

/** skills.json is validated by the test suite; a broken one is a deploy error, reported per request. */
export function bundledCardSource(): CardSource {
  if (bundledSource) return bundledSource;
  const parsed = parseCardSource(bundledDocument);
  if (!parsed.ok) {
    log("error", "bundled_document_invalid", { issues: issuesToText(parsed.issues) });
    throw new HttpError(500, "The bundled skills.json is invalid; see the worker logs.");
  }
  return (bundledSource = parsed.value);
}

/** A bad configuration is remembered too: it is logged once per isolate, not per request. */
const runtimes = new WeakMap<object, Runtime | HttpError>();

/** Bindings read from the env; ORIGIN is optional and not declared in wrangler.toml (see README). */
type RuntimeEnv = Env & { ORIGIN?: Fetcher };

export function runtimeFor(env: RuntimeEnv, deps: RuntimeDeps = {}): Runtime {
  let runtime = runtimes.get(env);
  if (!runtime) {
    const parsed = parseConfig(env as unknown as Record<string, unknown>);
    if (parsed.ok) {
      const binding = typeof env.ORIGIN?.fetch === "function" ? env.ORIGIN : undefined;
      runtime = new Runtime(parsed.value, env.SKILLS as KVNamespace | undefined, binding, bundledCardSource, deps);
    } else {
      const problems = issuesToText(parsed.issues);
      log("error", "config_invalid", { issues: problems });
      runtime = new HttpError(500, `Invalid worker configuration: ${problems}`);
    }
    runtimes.set(env, runtime);
  }
  if (runtime instanceof HttpError) throw runtime;
  return runtime;
}
