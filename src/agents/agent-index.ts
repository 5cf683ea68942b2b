// The index of one host's agents: a SQLite-backed Durable Object, one per hostname (idFromName(hostname)),
// changed by the admin API after each document write of the host (its own key and every `<hostname>/<path>`
// key), one change at a time, each published whole to KV `agents:<hostname>` (index-copy.ts reads it): the
// request path finds an agent, and the catalog lists them, without a KV list. When KV and this object
// disagree (documents written to KV by hand), the admin API rebuilds it from KV.
import { DurableObject } from "cloudflare:workers";
import { log } from "../log";
import { type AgentEntry, INDEX_PREFIX, MAX_AGENTS_PER_HOST } from "./index-copy";

// agents.path: "" for the host's own agent, else /segment[/segment...]; meta.version: one more per change.
const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS agents (
    path        TEXT PRIMARY KEY,
    name        TEXT NOT NULL,
    description TEXT,
    etag        TEXT
  )`,
  "CREATE TABLE IF NOT EXISTS meta (k TEXT PRIMARY KEY, v INTEGER NOT NULL)",
];

type Row = { path: string; name: string; description: string | null; etag: string | null };

export type IndexOutcome = { ok: true; version: number; agents: AgentEntry[] } | { ok: false; status: 409 | 503; message: string };

export class AgentIndex extends DurableObject<Env> {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    for (const statement of SCHEMA) ctx.storage.sql.exec(statement);
  }

  /** An agent written (added or changed). */
  put(hostname: string, entry: AgentEntry): Promise<IndexOutcome> {
    return this.#change(hostname, () => {
      const sql = this.ctx.storage.sql;
      const exists = sql.exec("SELECT 1 FROM agents WHERE path = ?", entry.path).toArray().length > 0;
      const count = sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM agents").one().n;
      if (!exists && count >= MAX_AGENTS_PER_HOST) return `a host serves at most ${MAX_AGENTS_PER_HOST} agents`;
      this.#insert(entry);
      return undefined;
    });
  }

  /** An agent deleted. */
  remove(hostname: string, path: string): Promise<IndexOutcome> {
    return this.#change(hostname, () => {
      this.ctx.storage.sql.exec("DELETE FROM agents WHERE path = ?", path);
      return undefined;
    });
  }

  /** The whole index replaced (rebuilt from KV by the admin API). */
  replace(hostname: string, entries: readonly AgentEntry[]): Promise<IndexOutcome> {
    return this.#change(hostname, () => {
      this.ctx.storage.sql.exec("DELETE FROM agents");
      for (const entry of entries.slice(0, MAX_AGENTS_PER_HOST)) {
        this.#insert(entry);
      }
      return undefined;
    });
  }

  #insert(entry: AgentEntry): void {
    const { path, name, description, etag } = entry;
    this.ctx.storage.sql.exec(
      "INSERT OR REPLACE INTO agents (path, name, description, etag) VALUES (?, ?, ?, ?)",
      path,
      name,
      description ?? null,
      etag ?? null,
    );
  }

  /** One change at a time: the table, then its version, then the KV copy (a failed publication is retried by the next change). */
  #change(hostname: string, step: () => string | undefined): Promise<IndexOutcome> {
    return this.ctx.blockConcurrencyWhile(async (): Promise<IndexOutcome> => {
      try {
        const refused = step();
        if (refused) return { ok: false, status: 409, message: refused };
        const sql = this.ctx.storage.sql;
        sql.exec("INSERT INTO meta (k, v) VALUES ('version', 1) ON CONFLICT (k) DO UPDATE SET v = v + 1");
        const version = sql.exec<{ v: number }>("SELECT v FROM meta WHERE k = 'version'").one().v;
        const agents = sql
          .exec<Row>("SELECT path, name, description, etag FROM agents ORDER BY path")
          .toArray()
          .map((row) => ({
            path: row.path,
            name: row.name,
            ...(row.description === null ? {} : { description: row.description }),
            ...(row.etag === null ? {} : { etag: row.etag }),
          }));
        await this.env.SKILLS.put(`${INDEX_PREFIX}${hostname}`, JSON.stringify({ version, agents }));
        return { ok: true, version, agents };
      } catch (error) {
        log("error", "agent_index_failed", { host: hostname, error: (error as Error).name });
        return { ok: false, status: 503, message: "The index of agents could not be updated; POST its rebuild" };
      }
    });
  }
}
