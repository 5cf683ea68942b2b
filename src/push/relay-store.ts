// The push relay of one public host (docs/push-notifications.md "The relay"): a SQLite-backed Durable Object,
// one per host (idFromName(host)). It keeps, per relayed config, the client's webhook (never shown to the
// origin) under an opaque ref, as long as the config exists: Delete ends it, not a lifetime. It takes the
// origin's notifications (checked against the per-config token the edge gave the origin), and delivers them
// from the edge's network in order per webhook, retrying from its alarm with backoff, a bounded number of
// times, each failure logged: a notification is delivered, or its loss is in the log.
import { DurableObject } from "cloudflare:workers";
import { type Config, parseConfig } from "../config";
import { log } from "../log";
import { importSigner, type Signer } from "../sign/keys";
import type { ClientWebhook } from "./relay-configs";
import { deliveryHeaders, deliveryJwt, retryDelayMs } from "./relay-delivery";
import { notificationFor, type RelayGenerations } from "./relay-notification";

/** What the edge keeps of a relayed config. */
export interface RelayRecord extends RelayGenerations {
  client: ClientWebhook;
  /** The public base the config was made under: the JWT's issuer. */
  issuer: string;
}

export type AcceptOutcome = { status: 202 } | { status: 400 | 401 | 403 | 404 | 503; reason: string };

/** Notifications waiting per host before the relay answers the origin 503 (the origin's own retry then holds them). */
const MAX_PENDING = 1000;
/** Deliveries made per alarm round, and rounds per alarm: bounded work per wake-up. */
const BATCH = 20;
const ROUNDS = 10;
const DELIVERY_TIMEOUT_MS = 10_000;
const OLDEST_OF_ITS_WEBHOOK = "seq = (SELECT MIN(seq) FROM deliveries WHERE ref = d.ref)";

// relays: one row per relayed config (ref: the opaque part of the relay URL; token_hash: SHA-256 hex of the
// token the origin was given; record: RelayRecord JSON; task_id bound by the call, the reply or the first
// notification; config_id NULL: the origin's default, the task id). deliveries: one row per notification
// waiting, with PUSH_RELAY_ATTEMPTS and PUSH_RELAY_RETRY_MS as they were when the origin sent it.
const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS relays (
    ref        TEXT PRIMARY KEY,
    token_hash TEXT NOT NULL,
    record     TEXT NOT NULL,
    task_id    TEXT,
    config_id  TEXT,
    created_at INTEGER NOT NULL
  )`,
  "CREATE INDEX IF NOT EXISTS relays_by_task ON relays (task_id)",
  `CREATE TABLE IF NOT EXISTS deliveries (
    seq          INTEGER PRIMARY KEY AUTOINCREMENT,
    ref          TEXT NOT NULL,
    body         TEXT NOT NULL,
    content_type TEXT NOT NULL,
    task_id      TEXT,
    attempts     INTEGER NOT NULL,
    max_attempts INTEGER NOT NULL,
    retry_ms     INTEGER NOT NULL,
    next_at      INTEGER NOT NULL
  )`,
];

type RelayRow = { ref: string; token_hash: string; record: string; task_id: string | null; config_id: string | null };
type DeliveryRow = {
  seq: number;
  ref: string;
  body: string;
  content_type: string;
  task_id: string | null;
  attempts: number;
  max_attempts: number;
  retry_ms: number;
};

/** How a notification is retried: the worker's PUSH_RELAY_ATTEMPTS and PUSH_RELAY_RETRY_MS. */
export interface RetryPolicy {
  attempts: number;
  firstRetryMs: number;
}

export class PushRelay extends DurableObject<Env> {
  #config: Config | undefined;
  #signer: Promise<Signer> | undefined;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    for (const statement of SCHEMA) ctx.storage.sql.exec(statement);
  }

  /** A new relayed config, before the origin hears of it. */
  register(ref: string, tokenHash: string, record: RelayRecord, taskId: string | null, configId: string | null): void {
    this.ctx.storage.sql.exec(
      "INSERT INTO relays (ref, token_hash, record, task_id, config_id, created_at) VALUES (?, ?, ?, ?, ?, ?)",
      ref,
      tokenHash,
      JSON.stringify(record),
      taskId,
      configId,
      Date.now(),
    );
  }

  /** After the origin's answer: the config's task and id as the origin holds them, or gone (the origin refused it). */
  settle(ref: string, bound: { taskId?: string | undefined; configId?: string | undefined } | null): void {
    const sql = this.ctx.storage.sql;
    if (bound === null) sql.exec("DELETE FROM relays WHERE ref = ?", ref);
    else
      sql.exec(
        "UPDATE relays SET task_id = COALESCE(task_id, ?), config_id = COALESCE(config_id, ?) WHERE ref = ?",
        bound.taskId ?? null,
        bound.configId ?? null,
        ref,
      );
  }

  /** The configs a Delete ended at the origin (an unnamed config id is the origin's default, the task's id). */
  forget(taskId: string, configId: string | undefined): number {
    const cursor = this.ctx.storage.sql.exec(
      "DELETE FROM relays WHERE task_id = ? AND (config_id = ? OR (config_id IS NULL AND ? = task_id) OR ? IS NULL)",
      taskId,
      configId ?? null,
      configId ?? null,
      configId ?? null,
    );
    return cursor.rowsWritten;
  }

  /** The client's webhooks behind these refs (for the configs Get and List echo). */
  clients(refs: readonly string[]): Record<string, ClientWebhook> {
    const out: Record<string, ClientWebhook> = {};
    for (const ref of refs.slice(0, 100)) {
      const row = this.ctx.storage.sql.exec<RelayRow>("SELECT record FROM relays WHERE ref = ?", ref).toArray()[0];
      if (row) out[ref] = (JSON.parse(row.record) as RelayRecord).client;
    }
    return out;
  }

  /** A notification from the origin: checked, translated for the client, queued; the answer is the origin's. */
  async accept(ref: string, tokenHash: string, notification: unknown, retry: RetryPolicy): Promise<AcceptOutcome> {
    const sql = this.ctx.storage.sql;
    const row = sql.exec<RelayRow>("SELECT * FROM relays WHERE ref = ?", ref).toArray()[0];
    if (!row) return { status: 404, reason: "unknown_ref" };
    if (row.token_hash !== tokenHash) return { status: 401, reason: "bad_token" };
    const record = JSON.parse(row.record) as RelayRecord;
    const made = notificationFor(notification, record);
    // A notification naming another task anywhere in it is one the config was not given for.
    if ("refused" in made) return { status: made.refused === "tasks_differ" ? 403 : 400, reason: made.refused };
    // A relay URL is one config's: a notification of another task through it is refused.
    if (row.task_id !== null && made.taskId !== undefined && made.taskId !== row.task_id) return { status: 403, reason: "other_task" };
    if (row.task_id === null && made.taskId !== undefined) sql.exec("UPDATE relays SET task_id = ? WHERE ref = ?", made.taskId, ref);
    const pending = sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM deliveries").one().n;
    if (pending >= MAX_PENDING) return { status: 503, reason: "queue_full" };
    const now = Date.now();
    sql.exec(
      "INSERT INTO deliveries (ref, body, content_type, task_id, attempts, max_attempts, retry_ms, next_at) VALUES (?, ?, ?, ?, 0, ?, ?, ?)",
      ref,
      made.body,
      made.contentType,
      made.taskId ?? row.task_id,
      retry.attempts,
      retry.firstRetryMs,
      now,
    );
    const alarm = await this.ctx.storage.getAlarm();
    if (alarm === null || alarm > now) await this.ctx.storage.setAlarm(now);
    return { status: 202 };
  }

  /** Due deliveries, the oldest of each webhook first (a later one waits for an earlier one's retries). */
  override async alarm(): Promise<void> {
    const sql = this.ctx.storage.sql;
    for (let round = 0; round < ROUNDS; round++) {
      const due = sql
        .exec<DeliveryRow>(
          `SELECT seq, ref, body, content_type, task_id, attempts, max_attempts, retry_ms FROM deliveries d
           WHERE next_at <= ? AND ${OLDEST_OF_ITS_WEBHOOK} ORDER BY seq LIMIT ?`,
          Date.now(),
          BATCH,
        )
        .toArray();
      if (due.length === 0) break;
      await Promise.all(due.map((delivery) => this.#attempt(delivery)));
    }
    // Only a webhook's oldest is ever due: counting one behind its retries re-armed "now", empty wake-ups, no retry.
    const next = sql.exec<{ at: number | null }>(`SELECT MIN(next_at) AS at FROM deliveries d WHERE ${OLDEST_OF_ITS_WEBHOOK}`).one().at;
    if (next !== null) await this.ctx.storage.setAlarm(Math.max(next, Date.now()));
  }

  async #attempt(delivery: DeliveryRow): Promise<void> {
    const sql = this.ctx.storage.sql;
    const row = sql.exec<RelayRow>("SELECT record FROM relays WHERE ref = ?", delivery.ref).toArray()[0];
    const webhook = row ? (JSON.parse(row.record) as RelayRecord) : undefined;
    const fields = { task: delivery.task_id, attempts: delivery.attempts + 1 };
    if (!webhook) {
      // The config was deleted after the origin sent this: nowhere to deliver it.
      log("error", "push_delivery_dropped", { ...fields, reason: "config_deleted" });
      sql.exec("DELETE FROM deliveries WHERE seq = ?", delivery.seq);
      return;
    }
    const { status, error } = await this.#deliver(webhook, delivery);
    const host = new URL(webhook.client.url).host;
    if (status >= 200 && status < 300) {
      sql.exec("DELETE FROM deliveries WHERE seq = ?", delivery.seq);
      return;
    }
    const attempts = delivery.attempts + 1;
    const why = { ...fields, webhook: host, status, ...(error ? { error } : {}) };
    if (attempts >= delivery.max_attempts) {
      log("error", "push_delivery_failed", why);
      sql.exec("DELETE FROM deliveries WHERE seq = ?", delivery.seq);
      return;
    }
    const delayMs = retryDelayMs(delivery.retry_ms, attempts);
    log("warn", "push_delivery_retry", { ...why, retryInMs: delayMs });
    sql.exec("UPDATE deliveries SET attempts = ?, next_at = ? WHERE seq = ?", attempts, Date.now() + delayMs, delivery.seq);
  }

  /** One POST to the webhook: its HTTP status, 0 when it was not made or not answered. Redirects are not followed. */
  async #deliver(record: RelayRecord, delivery: DeliveryRow): Promise<{ status: number; error?: string }> {
    const signer = await this.#signerOf().catch(() => undefined);
    // The DO reads the worker's own variables: a deployment without a key cannot sign, so it does not deliver.
    if (!signer) return { status: 0, error: "no_signing_key" };
    try {
      const jwt = await deliveryJwt(signer, record.issuer, record.client.url, delivery.body, Date.now());
      const response = await fetch(record.client.url, {
        method: "POST",
        headers: deliveryHeaders(record.client, delivery.content_type, jwt),
        body: delivery.body,
        redirect: "manual",
        signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
      });
      await response.body?.cancel();
      return { status: response.status };
    } catch (error) {
      return { status: 0, error: (error as Error).name };
    }
  }

  #configOf(): Config | undefined {
    if (this.#config) return this.#config;
    const parsed = parseConfig({ ...this.env });
    this.#config = parsed.ok ? parsed.value : undefined;
    return this.#config;
  }

  #signerOf(): Promise<Signer> {
    const config = this.#configOf();
    const key = config?.assertionKey ?? config?.signingKey;
    if (!key) return Promise.reject(new Error("no signing key"));
    this.#signer ??= importSigner(key);
    return this.#signer;
  }
}
