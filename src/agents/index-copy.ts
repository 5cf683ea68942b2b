// The read path's copy of a host's index of agents: KV `agents:<hostname>`, written by the host's AgentIndex
// Durable Object after every admin write (agents/agent-index.ts), read here with KV's edge cache and kept in
// the isolate like the documents (card/store.ts): a hot isolate finds a request's agent with no I/O, no
// request waits on a read another request started, and no request lists KV.
import type { KeepAlive } from "../http/body";
import { isJsonObject, parseJson } from "../json";
import { log } from "../log";
import { parseAgentPath } from "./agent-paths";

export const INDEX_PREFIX = "agents:";

/** One agent of a host, as the catalog lists it: its path ("" for the host's own agent), name and card ETag. */
export interface AgentEntry {
  path: string;
  name: string;
  description?: string;
  etag?: string;
}

export interface HostIndex {
  /** The version of the index (one more per change), for the catalog's ETag. */
  version: number;
  entries: readonly AgentEntry[];
  /** The agent paths (not the host's own ""), for the request path match. */
  paths: ReadonlySet<string>;
}

const EMPTY_INDEX: HostIndex = { version: 0, entries: [], paths: new Set() };
/** Agents per host the index holds (the catalog of 1,000 is measured by bench:card). */
export const MAX_AGENTS_PER_HOST = 10_000;
const MAX_CACHED_HOSTS = 1024;
const KV_MIN_CACHE_TTL = 30;

type Later<T> = T | Promise<T>;

/** A KV value as an index; anything else is no index (logged), never another host's agents. */
function parseIndex(text: string | null): HostIndex | undefined {
  if (text === null) return EMPTY_INDEX;
  const value = parseJson(text);
  if (!isJsonObject(value) || !Array.isArray(value.agents) || typeof value.version !== "number") return undefined;
  const entries: AgentEntry[] = [];
  for (const item of value.agents.slice(0, MAX_AGENTS_PER_HOST)) {
    if (!isJsonObject(item) || typeof item.path !== "string" || typeof item.name !== "string") return undefined;
    if (item.path !== "" && !("path" in parseAgentPath(item.path))) return undefined;
    const entry: AgentEntry = { path: item.path, name: item.name };
    if (typeof item.description === "string") entry.description = item.description;
    if (typeof item.etag === "string") entry.etag = item.etag;
    entries.push(entry);
  }
  return { version: value.version, entries, paths: new Set(entries.map((e) => e.path).filter((p) => p !== "")) };
}

interface Cached {
  index: HostIndex;
  expiresAt: number;
  refreshing?: boolean;
}

export class IndexCopies {
  readonly #cache = new Map<string, Cached>();

  constructor(
    private readonly kv: KVNamespace | undefined,
    private readonly ttlSeconds: number,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /** The host's index; synchronous when the isolate holds a copy (expired ones are refreshed behind it). */
  of(hostname: string, keepAlive?: KeepAlive): Later<HostIndex> {
    const { kv } = this;
    if (!kv) return EMPTY_INDEX;
    const now = this.now();
    const cached = this.#cache.get(hostname);
    if (cached && cached.expiresAt > now) return cached.index;
    if (cached && this.ttlSeconds > 0) {
      if (!cached.refreshing) {
        cached.refreshing = true;
        keepAlive?.(this.#fetch(kv, hostname, cached.index).then((index) => this.prime(hostname, index, now)));
      }
      return cached.index;
    }
    return this.#fetch(kv, hostname, cached?.index).then((index) => {
      this.prime(hostname, index, now);
      return index;
    });
  }

  /** After an admin write: this isolate routes by the new index at once. */
  prime(hostname: string, index: HostIndex, readAt = this.now()): void {
    this.#cache.delete(hostname);
    this.#cache.set(hostname, { index, expiresAt: readAt + this.ttlSeconds * 1000 });
    const oldest = this.#cache.keys().next();
    if (this.#cache.size > MAX_CACHED_HOSTS && !oldest.done) this.#cache.delete(oldest.value);
  }

  async #fetch(kv: KVNamespace, hostname: string, last: HostIndex | undefined): Promise<HostIndex> {
    try {
      const text = await kv.get(`${INDEX_PREFIX}${hostname}`, { type: "text", cacheTtl: Math.max(this.ttlSeconds, KV_MIN_CACHE_TTL) });
      const index = parseIndex(text);
      if (index) return index;
      log("warn", "agent_index_invalid", { host: hostname });
    } catch (error) {
      log("error", "kv_read_failed", { key: `${INDEX_PREFIX}${hostname}`, error: (error as Error).name });
    }
    // Unreadable: the agents this isolate knew of, else none (the host's own agent still answers).
    return last ?? EMPTY_INDEX;
  }
}
