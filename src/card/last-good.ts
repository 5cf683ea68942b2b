// The last good copy of each card-source document (a KV key's, the origin's own
// card), kept where a fresh isolate finds it: KV `last-good:<name>` when the
// SKILLS namespace is bound, else the Cache API of the colo. A document that
// exists but cannot be read is answered from here, never by another document.
import type { KeepAlive } from "../http/body";
import { log } from "../log";

/** Reserved KV prefix: never a document key (isDocumentKey refuses ':'), skipped by the admin host list. */
export const LAST_GOOD_PREFIX = "last-good:";
const CACHE_BASE = "https://last-good.agent-card-edge.invalid/";
/** How long the Cache API keeps a copy (it may evict sooner). */
const CACHE_SECONDS = 30 * 86_400;
const KV_MIN_CACHE_TTL = 30;

export interface GoodCopy {
  text: string;
  /** When this copy was last known good (ms since the epoch). */
  savedAt: number;
}

interface Saved {
  savedAt?: number;
}

export class LastGoodCopies {
  readonly #memory = new Map<string, GoodCopy>();

  constructor(
    private readonly kv: KVNamespace | undefined,
    private readonly cacheTtlSeconds: number,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /** `text` is good now: kept in the isolate, and saved (in the background) when it differs from the saved copy. */
  remember(name: string, text: string, keepAlive?: KeepAlive): void {
    const held = this.#memory.get(name);
    const savedAt = this.now();
    this.#memory.set(name, { text, savedAt });
    if (held?.text === text) return;
    const saving = this.#save(name, text, savedAt).catch((error: Error) =>
      log("warn", "last_good_save_failed", { name, error: error.name }),
    );
    keepAlive?.(saving);
  }

  /** The last good copy: this isolate's, else the saved one; undefined when none was ever kept. */
  async recall(name: string): Promise<GoodCopy | undefined> {
    const held = this.#memory.get(name);
    if (held) return held;
    try {
      const saved = await this.#load(name);
      if (saved) this.#memory.set(name, saved);
      return saved;
    } catch (error) {
      log("warn", "last_good_read_failed", { name, error: (error as Error).name });
      return undefined;
    }
  }

  async #save(name: string, text: string, savedAt: number): Promise<void> {
    if ((await this.#load(name))?.text === text) return;
    if (this.kv) {
      await this.kv.put(`${LAST_GOOD_PREFIX}${name}`, text, { metadata: { savedAt } satisfies Saved });
      return;
    }
    const cache = defaultCache();
    if (!cache) return;
    const headers = { "content-type": "application/json", "cache-control": `max-age=${CACHE_SECONDS}`, "x-saved-at": String(savedAt) };
    await cache.put(cacheKey(name), new Response(text, { headers }));
  }

  async #load(name: string): Promise<GoodCopy | undefined> {
    if (this.kv) {
      const cacheTtl = Math.max(this.cacheTtlSeconds, KV_MIN_CACHE_TTL);
      const { value, metadata } = await this.kv.getWithMetadata<Saved>(`${LAST_GOOD_PREFIX}${name}`, { type: "text", cacheTtl });
      return value === null ? undefined : { text: value, savedAt: metadata?.savedAt ?? 0 };
    }
    const found = await defaultCache()?.match(cacheKey(name));
    if (!found) return undefined;
    return { text: await found.text(), savedAt: Number(found.headers.get("x-saved-at")) || 0 };
  }
}

const cacheKey = (name: string) => `${CACHE_BASE}${encodeURIComponent(name)}`;

/** The colo's cache (workerd); absent outside the Workers runtime (the card CLI). */
function defaultCache(): Cache | undefined {
  return typeof caches === "undefined" ? undefined : (caches as unknown as { default?: Cache }).default;
}
