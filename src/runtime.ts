// Per-isolate state, built once per env: the parsed config, the card-source
// store and the memo of built cards. Everything here is derived; losing it
// (a new isolate) only costs a rebuild.
import bundledDocument from "../skills.json";
import { parseConfig, type Config } from "./config";
import { HttpError } from "./errors";
import { log } from "./log";
import { buildCard, joinUrl, type CardVariant } from "./card/render";
import { parseCardSource, type CardSource } from "./card/source";
import { CardSourceStore } from "./card/store";
import { strongEtag } from "./http/etag";
import { issuesToText } from "./validation";

export interface BuiltCard {
  body: Uint8Array;
  etag: string;
}

/** Per source document: `<base>|<variant>` -> card. Bases come from Host headers: bounded. */
const MAX_CARDS_PER_SOURCE = 512;

export class Runtime {
  readonly store: CardSourceStore;
  readonly #cards = new WeakMap<CardSource, Map<string, Promise<BuiltCard>>>();

  constructor(
    readonly config: Config,
    kv: KVNamespace | undefined,
    bundled: () => CardSource,
  ) {
    this.store = new CardSourceStore(kv, bundled, config.kvCacheTtl);
  }

  /** The card for (source, public base, variant), built and hashed once. */
  card(source: CardSource, base: string, variant: CardVariant): Promise<BuiltCard> {
    let bySource = this.#cards.get(source);
    if (!bySource) this.#cards.set(source, (bySource = new Map()));
    const key = `${base}|${variant}`;
    let built = bySource.get(key);
    if (!built) {
      built = this.#build(source, base, variant);
      if (bySource.size >= MAX_CARDS_PER_SOURCE) bySource.delete(bySource.keys().next().value!);
      bySource.set(key, built);
    }
    return built;
  }

  async #build(source: CardSource, base: string, variant: CardVariant): Promise<BuiltCard> {
    const { rpcPath, protocolVersions, skillAllowlist } = this.config;
    const card = buildCard(source, { rpcUrl: joinUrl(base, rpcPath), protocolVersions, skillAllowlist }, variant);
    const body = new TextEncoder().encode(JSON.stringify(card));
    return { body, etag: await strongEtag(body) };
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

export function runtimeFor(env: Env): Runtime {
  let runtime = runtimes.get(env);
  if (!runtime) {
    const parsed = parseConfig(env as unknown as Record<string, unknown>);
    if (parsed.ok) {
      runtime = new Runtime(parsed.value, env.SKILLS as KVNamespace | undefined, bundledCardSource);
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
