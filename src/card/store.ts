// Where a request's card-source document comes from: KV `<hostname>`, then KV
// `default`, then the bundled skills.json, for a host that has no document. A
// document that exists but cannot be read (not JSON, refused by card intake, or
// KV failing) never lets the next source answer for that host: its last good
// copy does (last-good.ts), else a 503 that says why. KV reads use `cacheTtl`
// (edge cache), and each key's result is kept in the isolate for the same TTL,
// so a hot isolate serves the card without any KV call.
import { parseAgentPath, splitKey } from "../agents/agent-paths";
import { EdgeError } from "../errors/failures";
import type { KeepAlive } from "../http/body";
import { log } from "../log";
import { issuesToText } from "../validation";
import { type Intake, readCardInputText } from "./intake";
import { LastGoodCopies } from "./last-good";
import { type Repair, repairsToText } from "./repairs";
import type { CardSource } from "./source";

export const DEFAULT_KEY = "default";

const HOSTNAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

/** Document keys are `default`, a lower-case hostname, or a hostname and an agent path (agents/agent-paths.ts). */
export function isDocumentKey(key: string): boolean {
  const { host, path } = splitKey(key);
  if (path === "") return key === DEFAULT_KEY || HOSTNAME.test(key);
  const parsed = parseAgentPath(path);
  return HOSTNAME.test(host) && "path" in parsed && parsed.path === path;
}
/** Hostnames come from requests; keep the per-isolate map bounded. */
const MAX_CACHED_KEYS = 1024;

/** The document a host is answered with, and how it was read. */
export interface Resolved {
  source: CardSource;
  repairs: readonly Repair[];
  /** Set when the document cannot be read now and this is its last good copy. */
  lastGood?: { savedAt: number } | undefined;
}

/** A KV key as last read: absent, good (read by card intake), or present but unreadable. */
type KvDocument = { text: string | null } & ({ state: "absent" } | { state: "good"; intake: Intake } | { state: "bad"; why: string });

interface Cached {
  document: KvDocument;
  expiresAt: number;
  refreshing?: boolean;
}

const KV_MIN_CACHE_TTL = 30;

type Later<T> = T | Promise<T>;
const andThen = <T, U>(value: Later<T>, next: (v: T) => Later<U>): Later<U> => (value instanceof Promise ? value.then(next) : next(value));

/**
 * A request never waits on I/O that another request started: in workerd a
 * promise resolved by another request's I/O can leave its waiters hung (and the
 * runtime cancels them with a 500). Requests share *results*: a fresh copy is
 * answered at once, an expired one is answered while the request that found it
 * expired refreshes it in the background, and a request that finds no copy at
 * all reads KV itself.
 */
export class CardSourceStore {
  readonly #cache = new Map<string, Cached>();
  /** The KV key each document held here was read (or primed) under: what the Card-Source header names. */
  readonly #keys = new WeakMap<CardSource, string>();
  /** Each key's last good copy as read back, so that the same text keeps the same document (and its built cards). */
  readonly #copies = new Map<string, { text: string; intake: Intake }>();
  readonly lastGood: LastGoodCopies;

  constructor(
    private readonly kv: KVNamespace | undefined,
    private readonly bundled: () => Resolved,
    private readonly ttlSeconds: number,
    private readonly now: () => number = () => Date.now(),
  ) {
    this.lastGood = new LastGoodCopies(kv, ttlSeconds, now);
  }

  /** The document a host is answered with. Synchronous when the isolate already holds answers (the hot path). */
  resolve(hostname: string, keepAlive?: KeepAlive): Later<Resolved> {
    const { kv } = this;
    if (!kv) return this.bundled();
    const now = this.now();
    const own = this.#read(kv, hostname, now, keepAlive);
    // A path agent (`<hostname>/<path>`) is its own document or no agent: never the host's, `default` or bundled.
    if (hostname.includes("/")) return andThen(own, (document) => this.#pathAgent(hostname, document));
    const fallback = this.#read(kv, DEFAULT_KEY, now, keepAlive);
    if (own instanceof Promise || fallback instanceof Promise) {
      return Promise.all([own, fallback]).then(([o, f]) => this.#choose(hostname, o, f));
    }
    return this.#choose(hostname, own, fallback);
  }

  /** The document alone (authentication and origin routing use it). */
  lookup(hostname: string, keepAlive?: KeepAlive): Later<CardSource> {
    return andThen(this.resolve(hostname, keepAlive), (resolved) => resolved.source);
  }

  /**
   * Whether KV holds a document under `key`, readable or not (a key unread because KV fails counts as none),
   * through the same isolate copy and KV read as the card's look-up: asking adds no read of its own.
   */
  holds(key: string, keepAlive?: KeepAlive): Later<boolean> {
    const { kv } = this;
    if (!kv) return false;
    return andThen(this.#read(kv, key, this.now(), keepAlive), (document) => document.text !== null);
  }

  /** After an admin write: this isolate serves the new value at once (others within the TTL). */
  prime(key: string, text: string | null, intake: Intake | null, keepAlive?: KeepAlive): void {
    const document: KvDocument =
      text === null ? { text, state: "absent" } : intake ? { text, state: "good", intake } : { text, state: "bad", why: "invalid" };
    if (document.state === "good") this.#accept(key, document.text ?? "", document.intake, keepAlive);
    this.#store(key, document, this.now());
  }

  /** The KV key `source` came from; undefined for a document this store did not read (the bundled one). */
  keyOf(source: CardSource): string | undefined {
    return this.#keys.get(source);
  }

  #pathAgent(key: string, document: KvDocument): Later<Resolved> {
    if (document.state === "absent") throw new EdgeError("NOT_FOUND", "No agent is served at this path");
    return this.#answer(key, document);
  }

  /** The host's own document if it has one, else `default`'s, else the bundled one: never another key when one exists. */
  #choose(hostname: string, own: KvDocument, fallback: KvDocument): Later<Resolved> {
    if (own.state !== "absent") return this.#answer(hostname, own);
    if (fallback.state !== "absent") return this.#answer(DEFAULT_KEY, fallback);
    return this.bundled();
  }

  #answer(key: string, document: KvDocument): Later<Resolved> {
    if (document.state === "good") return { source: document.intake.source, repairs: document.intake.repairs };
    const why = document.state === "bad" ? document.why : "absent";
    return this.#lastGoodOf(key, why);
  }

  async #lastGoodOf(key: string, why: string): Promise<Resolved> {
    const copy = await this.lastGood.recall(key);
    let held = copy && this.#copies.get(key);
    if (copy && held?.text !== copy.text) {
      const read = readCardInputText(copy.text);
      held = read.ok ? { text: copy.text, intake: read.value } : undefined;
      if (held) this.#copies.set(key, held);
    }
    if (!copy || !held) {
      throw new EdgeError(
        "CARD_UNAVAILABLE",
        `the card-source document stored for this host (${why}) cannot be read and no good copy of it is kept`,
        {
          metadata: { document: `kv:${key}`, why },
        },
      );
    }
    this.#keys.set(held.intake.source, key);
    return { source: held.intake.source, repairs: held.intake.repairs, lastGood: { savedAt: copy.savedAt } };
  }

  /** A good version: named, its repairs logged once (per version and isolate), kept as the key's last good copy. */
  #accept(key: string, text: string, intake: Intake, keepAlive: KeepAlive | undefined): void {
    this.#keys.set(intake.source, key);
    if (intake.repairs.length > 0) {
      log("warn", "card_repaired", {
        source: `kv:${key}`,
        repairs: intake.repairs.length,
        list: repairsToText(intake.repairs),
      });
    }
    this.lastGood.remember(key, text, keepAlive);
  }

  #read(kv: KVNamespace, key: string, now: number, keepAlive: KeepAlive | undefined): Later<KvDocument> {
    const cached = this.#cache.get(key);
    if (cached && cached.expiresAt > now) return cached.document;
    if (cached && this.ttlSeconds > 0) {
      if (!cached.refreshing) {
        cached.refreshing = true;
        const refresh = this.#fetch(kv, key, cached.document, keepAlive).then((document) => this.#store(key, document, now));
        keepAlive?.(refresh);
      }
      return cached.document;
    }
    return this.#fetch(kv, key, cached?.document, keepAlive).then((document) => {
      this.#store(key, document, now);
      return document;
    });
  }

  #store(key: string, document: KvDocument, readAt: number): void {
    const current = this.#cache.get(key);
    // A read that started before the current answer was stored (a slower read, or one raced by an admin write) never replaces it.
    if (current && current.expiresAt > readAt + this.ttlSeconds * 1000) return;
    this.#cache.delete(key);
    this.#cache.set(key, { document, expiresAt: readAt + this.ttlSeconds * 1000 });
    const oldest = this.#cache.keys().next();
    if (this.#cache.size > MAX_CACHED_KEYS && !oldest.done) this.#cache.delete(oldest.value);
  }

  async #fetch(kv: KVNamespace, key: string, last: KvDocument | undefined, keepAlive: KeepAlive | undefined): Promise<KvDocument> {
    let text: string | null;
    try {
      text = await kv.get(key, { type: "text", cacheTtl: Math.max(this.ttlSeconds, KV_MIN_CACHE_TTL) });
    } catch (error) {
      // Whether the key exists is unknown: the host is answered from its last good copy, never from the next source.
      log("error", "kv_read_failed", { key, error: (error as Error).name });
      return { text: last?.text ?? null, state: "bad", why: "KV unreadable" };
    }
    if (text === null) return { text, state: "absent" };
    // Same bytes as last time: keep the same object so the built cards stay memoized.
    if (last && last.text === text && (last.state === "good" || (last.state === "bad" && last.why === "invalid"))) return last;
    const read = readCardInputText(text);
    if (!read.ok) {
      log("warn", "kv_document_invalid", { key, bytes: text.length, issues: issuesToText(read.issues) });
      return { text, state: "bad", why: "invalid" };
    }
    this.#accept(key, text, read.value, keepAlive);
    return { text, state: "good", intake: read.value };
  }
}
