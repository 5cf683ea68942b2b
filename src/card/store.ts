// Where a request's card-source document comes from: KV `<hostname>`, then KV
// `default`, then the bundled skills.json. A KV value that is not JSON or fails
// the schema is never served and never breaks the card: it is logged once per
// read and the next source is used. KV reads use `cacheTtl` (edge cache), and
// each key's parsed result is kept in the isolate for the same TTL, so a hot
// isolate serves the card without any KV call.
import type { KeepAlive } from "../http/body";
import { log } from "../log";
import { issuesToText } from "../validation";
import { parseCardSourceText, type CardSource } from "./source";

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
  expiresAt: number;
  entry: Promise<KvDocument>;
  /** Set once `entry` has settled, so fresh hits need no await. */
  settled?: KvDocument;
}

export class CardSourceStore {
  readonly #cache = new Map<string, Cached>();

  constructor(
    private readonly kv: KVNamespace | undefined,
    private readonly bundled: () => CardSource,
    private readonly ttlSeconds: number,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /** Synchronous when the isolate already holds fresh answers (the hot path). */
  lookup(hostname: string, keepAlive?: KeepAlive): CardSource | Promise<CardSource> {
    if (!this.kv) return this.bundled();
    const now = this.now();
    const own = this.#read(hostname, now, keepAlive);
    const fallback = this.#read(DEFAULT_KEY, now, keepAlive);
    if (own instanceof Promise || fallback instanceof Promise) {
      return Promise.all([own, fallback]).then(([o, f]) => o ?? f ?? this.bundled());
    }
    return own ?? fallback ?? this.bundled();
  }

  /** After an admin write: this isolate serves the new value at once (others within the TTL). */
  prime(key: string, text: string | null, source: CardSource | null): void {
    const settled = { text, source };
    this.#cache.delete(key);
    this.#cache.set(key, { expiresAt: this.now() + this.ttlSeconds * 1000, entry: Promise.resolve(settled), settled });
  }

  #read(key: string, now: number, keepAlive: KeepAlive | undefined): CardSource | null | Promise<CardSource | null> {
    const cached = this.#cache.get(key);
    if (cached && cached.expiresAt > now) return cached.settled ? cached.settled.source : cached.entry.then((e) => e.source);
    const slot: Cached = { expiresAt: now + this.ttlSeconds * 1000, entry: this.#fetch(key, cached?.settled) };
    slot.entry.then((settled) => (slot.settled = settled));
    keepAlive?.(slot.entry);
    this.#cache.delete(key);
    this.#cache.set(key, slot);
    if (this.#cache.size > MAX_CACHED_KEYS) this.#cache.delete(this.#cache.keys().next().value!);
    return slot.entry.then((e) => e.source);
  }

  async #fetch(key: string, last: KvDocument | undefined): Promise<KvDocument> {
    let text: string | null;
    try {
      text = await this.kv!.get(key, { type: "text", cacheTtl: this.ttlSeconds });
    } catch (error) {
      log("error", "kv_read_failed", { key, error: (error as Error).name });
      return { text: null, source: null };
    }
    if (text === null) return { text, source: null };
    // Same bytes as last time: keep the same object so the built cards stay memoized.
    if (last && last.text === text) return last;
    const parsed = parseCardSourceText(text);
    if (!parsed.ok) {
      log("warn", "kv_document_invalid", { key, bytes: text.length, issues: issuesToText(parsed.issues).slice(0, 2000) });
      return { text, source: null };
    }
    return { text, source: parsed.value };
  }
}
