// Where a request's card-source document comes from: KV `<hostname>`, then KV
// `default`, then the bundled skills.json. A KV value that is not JSON or fails
// the schema is never served and never breaks the card: it is logged once per
// read and the next source is used. KV reads use `cacheTtl` (edge cache), and
// each key's parsed result is kept in the isolate for the same TTL, so a hot
// isolate serves the card without any KV call.
import { log } from "../log";
import { issuesToText } from "../validation";
import { parseCardSourceText, type CardSource } from "./source";

export const DEFAULT_KEY = "default";
/** Hostnames come from requests; keep the per-isolate map bounded. */
const MAX_CACHED_KEYS = 1024;

interface Cached {
  expiresAt: number;
  /** The KV text and its parsed document (null: key absent, invalid or unreadable). */
  entry: Promise<{ text: string | null; source: CardSource | null }>;
}

export interface SourceLookup {
  source: CardSource;
  /** `kv:<key>` or `bundled`: which document answered. */
  from: string;
}

export class CardSourceStore {
  readonly #cache = new Map<string, Cached>();

  constructor(
    private readonly kv: KVNamespace | undefined,
    private readonly bundled: () => CardSource,
    private readonly ttlSeconds: number,
    private readonly now: () => number = Date.now,
  ) {}

  async lookup(hostname: string): Promise<SourceLookup> {
    if (this.kv) {
      const [own, fallback] = await Promise.all([this.#read(hostname), this.#read(DEFAULT_KEY)]);
      if (own) return { source: own, from: `kv:${hostname}` };
      if (fallback) return { source: fallback, from: `kv:${DEFAULT_KEY}` };
    }
    return { source: this.bundled(), from: "bundled" };
  }

  /** Drops the isolate's copy of a key (after an admin write in this isolate). */
  forget(key: string): void {
    this.#cache.delete(key);
  }

  async #read(key: string): Promise<CardSource | null> {
    const now = this.now();
    const cached = this.#cache.get(key);
    if (cached && cached.expiresAt > now) return (await cached.entry).source;
    const previous = cached?.entry;
    const entry = this.#fetch(key, previous);
    this.#cache.delete(key);
    this.#cache.set(key, { expiresAt: now + this.ttlSeconds * 1000, entry });
    if (this.#cache.size > MAX_CACHED_KEYS) this.#cache.delete(this.#cache.keys().next().value!);
    return (await entry).source;
  }

  async #fetch(key: string, previous: Cached["entry"] | undefined): Promise<{ text: string | null; source: CardSource | null }> {
    let text: string | null;
    try {
      text = await this.kv!.get(key, { type: "text", cacheTtl: this.ttlSeconds });
    } catch (error) {
      log("error", "kv_read_failed", { key, error: (error as Error).name });
      return { text: null, source: null };
    }
    if (text === null) return { text, source: null };
    // Same bytes as last time: keep the same object so the built cards stay memoized.
    const last = previous && (await previous);
    if (last && last.text === text) return last;
    const parsed = parseCardSourceText(text);
    if (!parsed.ok) {
      log("warn", "kv_document_invalid", { key, bytes: text.length, issues: issuesToText(parsed.issues).slice(0, 2000) });
      return { text, source: null };
    }
    return { text, source: parsed.value };
  }
}
