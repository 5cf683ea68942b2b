// The version log of one card-source document key (`default` or a hostname):
// a SQLite-backed Durable Object, one instance per key (idFromName(key)). Every
// admin read and write of the key runs here, one at a time
// (blockConcurrencyWhile): adopt what KV holds if it changed outside the admin
// API, check the preconditions, publish the new version to KV, record it. KV
// has no compare-and-swap; this object is the single writer that gives it one,
// and KV stays the edge copy the card path reads.
import { DurableObject } from "cloudflare:workers";
import { strongEtag } from "../http/etag";
import { log } from "../log";
import {
  LEGACY_PREVIOUS_PREFIX,
  type LogRefusal,
  MAX_DOCUMENT_BYTES,
  type Outcome,
  type Version,
  type VersionOrigin,
  type VersionSummary,
  type WriteRequest,
} from "./document-versions";
import { preconditionFailure } from "./preconditions";

/** Versions kept per key: the current one and the nine before it. */
const KEPT_VERSIONS = 10;

type Row = { version: number; etag: string; text: string | null; origin: string; created_at: number };

/** Metadata on every KV value this object writes: tells its own (possibly stale) writes from writes made elsewhere. */
interface KvMetadata {
  etag?: string;
}

const SCHEMA = `CREATE TABLE IF NOT EXISTS versions (
  version    INTEGER PRIMARY KEY,  -- 1, 2, 3 ... for this key; the highest is the current version
  etag       TEXT    NOT NULL,     -- "<version>-<first 12 hex of SHA-256 of text>", or "<version>-deleted"
  text       TEXT,                 -- the document; NULL: the key was deleted in this version
  origin     TEXT    NOT NULL,     -- put | delete | rollback | adopted
  created_at INTEGER NOT NULL      -- ms since the epoch
)`;

/** A refusal decided inside the critical section, answered as an Outcome. */
class Refusal {
  constructor(
    readonly status: 404 | 409 | 412 | 503,
    readonly message: string,
  ) {}
}

const encoder = new TextEncoder();

async function versionEtag(version: number, text: string | null): Promise<string> {
  if (text === null) return `"${version}-deleted"`;
  return `"${version}-${(await strongEtag(encoder.encode(text))).slice(1, 13)}"`;
}

export class DocumentLog extends DurableObject<Env> {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.storage.sql.exec(SCHEMA);
  }

  /** The current version (after adopting an out-of-band KV write); 404 when there is no document. */
  read(key: string): Promise<Outcome> {
    return this.#exclusive(async () => {
      const current = await this.#reconcile(key);
      if (!current || current.text === null) throw new Refusal(404, `No document is stored for ${key}`);
      return { ok: true, ...current };
    });
  }

  /** The kept versions, newest first (texts left out); 404 when the key has none. */
  history(key: string): Promise<{ ok: true; versions: VersionSummary[] } | LogRefusal> {
    return this.#exclusive(async () => {
      if (!(await this.#reconcile(key))) throw new Refusal(404, `No version is stored for ${key}`);
      const rows = this.ctx.storage.sql
        .exec<Row>("SELECT version, etag, text, origin, created_at FROM versions ORDER BY version DESC")
        .toArray();
      const versions = rows.map((row) => ({
        version: row.version,
        etag: row.etag,
        origin: row.origin as VersionOrigin,
        deleted: row.text === null,
        bytes: row.text === null ? 0 : encoder.encode(row.text).byteLength,
        createdAt: new Date(row.created_at).toISOString(),
      }));
      return { ok: true, versions };
    });
  }

  /** A write, whole or not at all: its KV publication and its record here happen together or neither does. */
  write(request: WriteRequest): Promise<Outcome> {
    return this.#exclusive(async () => {
      const { key } = request;
      const current = await this.#reconcile(key);
      const exists = current !== null && current.text !== null;
      let text: string | null;
      if (request.action === "put") text = request.text;
      else if (request.action === "delete") {
        if (!exists) throw new Refusal(404, `No document is stored for ${key}`);
        text = null;
      } else {
        // The previous version is the one before the current; restoring it makes the replaced one the previous.
        const previous = current ? this.#version(current.version - 1) : null;
        if (!previous) throw new Refusal(404, `No previous version is stored for ${key}`);
        text = previous.text;
      }
      const failed = preconditionFailure(
        { etag: current?.etag ?? null, exists },
        request.preconditions.ifMatch,
        request.preconditions.ifNoneMatch,
      );
      if (failed) throw new Refusal(412, failed);
      const version = (current?.version ?? 0) + 1;
      const etag = await versionEtag(version, text);
      await this.#publish(key, text, etag);
      this.#append({ version, etag, text }, request.action);
      return { ok: true, version, etag, text };
    });
  }

  /**
   * Runs `step` with no other call on this key in between: no event reaches the
   * object until it settles, KV I/O included, so check, publication and record
   * are atomic with respect to other writes and KV writes land in version order.
   * Never throws (a throw inside blockConcurrencyWhile resets the object).
   */
  #exclusive<T>(step: () => Promise<T>): Promise<T | LogRefusal> {
    return this.ctx.blockConcurrencyWhile(async (): Promise<T | LogRefusal> => {
      try {
        return await step();
      } catch (error) {
        if (error instanceof Refusal) return { ok: false, status: error.status, message: error.message };
        log("error", "admin_log_failed", { error: (error as Error).name });
        return { ok: false, status: 503, message: "The document log failed; GET the document for its current version" };
      }
    });
  }

  /** KV first: if it fails, nothing is recorded here and KV keeps the current document. */
  async #publish(key: string, text: string | null, etag: string): Promise<void> {
    try {
      if (text === null) await this.#kv().delete(key);
      else await this.#kv().put(key, text, { metadata: { etag } satisfies KvMetadata });
    } catch (error) {
      log("error", "admin_write_failed", { what: "document", error: (error as Error).name });
      throw new Refusal(503, "The KV write failed; the current document is unchanged");
    }
  }

  /**
   * The current version, after bringing the log up to date with KV. The first
   * time the key is seen, KV's document (and the old admin API's `previous:<key>`
   * before it) become the first versions. Later, a KV value that is not the
   * current version's is a write made outside the admin API (wrangler kv key
   * put / delete, skills:push): it becomes a new version, so nothing is lost and
   * a rollback undoes it. A KV value this object wrote for an older version
   * (metadata) is a stale read, not a change.
   */
  async #reconcile(key: string): Promise<Version | null> {
    const current = this.#current();
    const { value, metadata } = await this.#read(() => this.#kv().getWithMetadata<KvMetadata>(key, "text"));
    if (!current) {
      const previous = await this.#read(() => this.#kv().get(`${LEGACY_PREVIOUS_PREFIX}${key}`, "text"));
      if (previous === null && value === null) return null;
      if (previous !== null) await this.#adopt(key, previous);
      await this.#adopt(key, value);
      return this.#current();
    }
    if (value === current.text) return current;
    if (value !== null && metadata?.etag && this.#isOlderOwnWrite(metadata.etag, value, current)) return current;
    await this.#adopt(key, value);
    return this.#current();
  }

  async #read<T>(get: () => Promise<T>): Promise<T> {
    try {
      return await get();
    } catch (error) {
      if (error instanceof Refusal) throw error;
      log("error", "admin_read_failed", { error: (error as Error).name });
      throw new Refusal(503, "The KV read failed; nothing was written");
    }
  }

  async #adopt(key: string, text: string | null): Promise<void> {
    if (text !== null && encoder.encode(text).byteLength > MAX_DOCUMENT_BYTES) {
      throw new Refusal(
        409,
        `KV holds a document for ${key} larger than 1 MiB, written outside the admin API; replace or delete it with wrangler`,
      );
    }
    const version = (this.#current()?.version ?? 0) + 1;
    this.#append({ version, etag: await versionEtag(version, text), text }, "adopted");
    log("info", "admin_document_adopted", { key, version, deleted: text === null });
  }

  #isOlderOwnWrite(etag: string, text: string, current: Version): boolean {
    const kept = this.ctx.storage.sql
      .exec<Row>("SELECT version, text FROM versions WHERE etag = ? AND version < ?", etag, current.version)
      .toArray()[0];
    return kept !== undefined && kept.text === text;
  }

  #current(): Version | null {
    return this.ctx.storage.sql.exec<Row>("SELECT version, etag, text FROM versions ORDER BY version DESC LIMIT 1").toArray()[0] ?? null;
  }

  #version(version: number): Version | null {
    return this.ctx.storage.sql.exec<Row>("SELECT version, etag, text FROM versions WHERE version = ?", version).toArray()[0] ?? null;
  }

  /** Records a version and drops those beyond the kept history, in one transaction. */
  #append(version: Version, origin: VersionOrigin): void {
    this.ctx.storage.transactionSync(() => {
      const sql = this.ctx.storage.sql;
      sql.exec(
        "INSERT INTO versions (version, etag, text, origin, created_at) VALUES (?, ?, ?, ?, ?)",
        version.version,
        version.etag,
        version.text,
        origin,
        Date.now(),
      );
      sql.exec("DELETE FROM versions WHERE version <= ?", version.version - KEPT_VERSIONS);
    });
  }

  #kv(): KVNamespace {
    const kv = this.env.SKILLS as KVNamespace | undefined;
    if (!kv) throw new Refusal(503, "The SKILLS KV namespace is not bound");
    return kv;
  }
}
