// Where a request's card-source document comes from: KV `<hostname>`, then KV
// `default`, then the bundled skills.json. A KV value that is not JSON or fails
// the schema is never served and never breaks the card: it is logged once per
// read and the next source is used. KV reads use `cacheTtl` (edge cache), and
// each key's parsed result is kept in the isolate for the same TTL, so a hot
// isolate serves the card without any KV call.
import type { KeepAlive } from "../http/body";
import { log } from "../log";
import { issuesToText } from "../validation";
import { type CardSource, parseCardSourceText } from "./source";

export const DEFAULT_KEY = "default";

const HOSTNAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

/** Document keys are `default` or a lower-case hostname (what request lookups use). */
export function isDocumentKey(key: string): boolean {
  return key === DEFAULT_KEY || HOSTNAME.test(key);
}
/** Hostnames come from requests; keep the per-isolate map bounded. */
const MAX_CACHED_KEYS = 1024;

interface KvDocument {
  text: string | null;
  /** null: key absent, invalid or unreadable. */
  source: CardSource | null;
}

interface Cached {
  document: KvDocument;
  expiresAt: number;
  /** Set while one request refreshes the entry in the background (under its waitUntil). */
  refreshing?: boolean;
}

/** KV rejects a `cacheTtl` below 30 s; a shorter KV_CACHE_TTL only shortens the isolate's own copy. */
const KV_MIN_CACHE_TTL = 30;

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

  constructor(
    private readonly kv: KVNamespace | undefined,
    private readonly bundled: () => CardSource,
    private readonly ttlSeconds: number,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /** Synchronous when the isolate already holds answers (the hot path). */
  lookup(hostname: string, keepAlive?: KeepAlive): CardSource | Promise<CardSource> {
    const { kv } = this;
    if (!kv) return this.bundled();
    const now = this.now();
    const own = this.#read(kv, hostname, now, keepAlive);
    const fallback = this.#read(kv, DEFAULT_KEY, now, keepAlive);
    if (own instanceof Promise || fallback instanceof Promise) {
      return Promise.all([own, fallback]).then(([o, f]) => o ?? f ?? this.bundled());
    }
    return own ?? fallback ?? this.bundled();
  }

  /** After an admin write: this isolate serves the new value at once (others within the TTL). */
  prime(key: string, text: string | null, source: CardSource | null): void {
    this.#store(key, { text, source }, this.now());
  }

  /** The KV key `source` came from; undefined for a document this store did not read (the bundled one). */
  keyOf(source: CardSource): string | undefined {
    return this.#keys.get(source);
  }

  #read(kv: KVNamespace, key: string, now: number, keepAlive: KeepAlive | undefined): CardSource | null | Promise<CardSource | null> {
    const cached = this.#cache.get(key);
    if (cached && cached.expiresAt > now) return cached.document.source;
    if (cached && this.ttlSeconds > 0) {
      if (!cached.refreshing) {
        cached.refreshing = true;
        const refresh = this.#fetch(kv, key, cached.document).then((document) => this.#store(key, document, now));
        keepAlive?.(refresh);
      }
      return cached.document.source;
    }
    return this.#fetch(kv, key, cached?.document).then((document) => {
      this.#store(key, document, now);
      return document.source;
    });
  }

  #store(key: string, document: KvDocument, readAt: number): void {
    const current = this.#cache.get(key);
    // A read that started before the current answer was stored (a slower read, or one raced by an admin write) never replaces it.
    if (current && current.expiresAt > readAt + this.ttlSeconds * 1000) return;
    this.#cache.delete(key);
    this.#cache.set(key, { document, expiresAt: readAt + this.ttlSeconds * 1000 });
    if (document.source) this.#keys.set(document.source, key);
    const oldest = this.#cache.keys().next();
    if (this.#cache.size > MAX_CACHED_KEYS && !oldest.done) this.#cache.delete(oldest.value);
  }

  async #fetch(kv: KVNamespace, key: string, last: KvDocument | undefined): Promise<KvDocument> {
    let text: string | null;
    try {
      text = await kv.get(key, { type: "text", cacheTtl: Math.max(this.ttlSeconds, KV_MIN_CACHE_TTL) });
    } catch (error) {
      log("error", "kv_read_failed", { key, error: (error as Error).name });
      return { text: null, source: null };
    }
    if (text === null) return { text, source: null };
    // Same bytes as last time: keep the same object so the built cards stay memoized.
    if (last && last.text === text) return last;
    let parsed: ReturnType<typeof parseCardSourceText>;
    try {
      parsed = parseCardSourceText(text);
    } catch (error) {
      // Never expected (depth and size are bounded before parsing); a bad value must still never break the card.
      parsed = { ok: false, issues: [{ path: "", message: `unreadable (${(error as Error).name})` }] };
    }
    if (!parsed.ok) {
      log("warn", "kv_document_invalid", { key, bytes: text.length, issues: issuesToText(parsed.issues).slice(0, 2000) });
      return { text, source: null };
    }
    return { text, source: parsed.value };
  }
}
