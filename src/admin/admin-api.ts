// The admin API (under ADMIN_PATH, bearer ADMIN_TOKEN; absent when the token is
// unset): read, replace, delete and roll back the card-source document of
// `default` or of a hostname, and list the configured hosts. Every read and
// write of a document goes through its key's DocumentLog (a Durable Object):
// versions with ETags, If-Match / If-None-Match, one write at a time, each
// published to KV whole or not at all.
import type { Context } from "hono";
import { Hono } from "hono/tiny";
import { splitKey } from "../agents/agent-paths";
import { INDEX_PREFIX } from "../agents/index-copy";
import { indexChange, rebuildIndex } from "../agents/index-updates";
import { LAST_GOOD_PREFIX } from "../card/last-good";
import type { CardSource } from "../card/source";
import { DEFAULT_KEY } from "../card/store";
import { CARD_PATH, CARD_VARIANTS, type CardVariant } from "../card/variant";
import { EdgeError, type FailureReason } from "../errors/failures";
import { httpFailureResponse, renderError } from "../errors/responses";
import { issueFeedTicket } from "../feed/feed-routes";
import { publishChange } from "../feed/publish";
import { ifNoneMatchHits } from "../http/etag";
import { log } from "../log";
import type { Runtime } from "../runtime";
import { adminAuth, documentText, preconditionsOf } from "./admin-requests";
import { parseDocument, repairedHeaders } from "./document-intake";
import { baseFor, documentKey } from "./document-keys";
import type { DocumentLog } from "./document-log";
import {
  type DocumentAction,
  LEGACY_PREVIOUS_PREFIX,
  type LogRefusal,
  type Version,
  type VersionSummary,
  type WriteRequest,
} from "./document-versions";
import { notifyRegistries } from "./webhooks";

type AdminEnv = { Bindings: Env };

const INVALID_DOCUMENT = "The document is neither a valid card-source document nor an A2A card the edge can publish; nothing was written";

const REFUSALS: Record<LogRefusal["status"], FailureReason> = {
  404: "NOT_FOUND",
  409: "CONFLICT",
  412: "PRECONDITION_FAILED",
  503: "UNAVAILABLE",
};

function kvOf(runtime: Runtime): KVNamespace {
  if (!runtime.kv) throw new EdgeError("UNAVAILABLE", "The SKILLS KV namespace is not bound");
  return runtime.kv;
}

/** ETags of every variant of the card now served from `source`, plus its hybrid card as served (signed). */
async function describeCard(runtime: Runtime, source: CardSource, base: string) {
  const etags = {} as Record<CardVariant, string>;
  for (const variant of CARD_VARIANTS) etags[variant] = (await runtime.cards.card(source, base, variant)).etag;
  return { etags, card: (await runtime.cards.card(source, base, "hybrid")).card };
}

/** The key's DocumentLog: one Durable Object per key, so writes to different hosts never wait on each other. */
function documentLog(c: Context<AdminEnv>, key: string): DurableObjectStub<DocumentLog> {
  const namespace = c.env.ADMIN_DOCUMENTS as DurableObjectNamespace<DocumentLog> | undefined;
  if (!namespace) throw new EdgeError("UNAVAILABLE", "The ADMIN_DOCUMENTS Durable Object is not bound");
  return namespace.get(namespace.idFromName(key));
}

/** A call to the log; a failure to reach it leaves the outcome unknown, and says so. */
async function logCall<T>(call: () => Promise<unknown>): Promise<T> {
  let outcome: unknown;
  try {
    outcome = await call();
  } catch (error) {
    log("error", "admin_log_unreachable", { error: (error as Error).name });
    throw new EdgeError("UNAVAILABLE", "The document log did not answer; GET the document to see whether the write was applied");
  }
  if (isRefusal(outcome)) throw new EdgeError(REFUSALS[outcome.status], outcome.message);
  // The log's own answer type (T), seen through the Durable Object RPC stub's wrapper types.
  return outcome as T;
}

function isRefusal(outcome: unknown): outcome is LogRefusal {
  return typeof outcome === "object" && outcome !== null && (outcome as { ok?: unknown }).ok === false;
}

async function changed(c: Context<AdminEnv>, runtime: Runtime, key: string, action: DocumentAction, written: Version): Promise<Response> {
  const { text } = written;
  const parsed = text === null ? null : parseDocument(text);
  const intake = parsed?.ok ? parsed.value : null;
  runtime.cards.store.prime(key, text, intake, (promise) => c.executionCtx.waitUntil(promise));
  const base = baseFor(c, runtime, key);
  const { host, path } = splitKey(key);
  // The document just written, or (after a delete) what the key now answers with: none for a path agent.
  const resolved = intake
    ? { source: intake.source, repairs: intake.repairs }
    : path === ""
      ? await runtime.cards.store.resolve(key)
      : null;
  if (resolved) runtime.cards.noteRepairs(resolved.source, resolved.repairs);
  const described = resolved ? await describeCard(runtime, resolved.source, base) : null;
  const cardEtags = described?.etags ?? null;
  if (path !== "") {
    const entry = intake && cardEtags ? agentEntry(path, intake.source, cardEtags.hybrid) : null;
    await indexChange(c.env, runtime, host, path, entry);
  }
  log("info", "admin_document_changed", { key, action, repairs: intake?.repairs.length ?? 0 });
  if (described && runtime.config.registryWebhooks.length > 0) {
    const change = { type: "agent-card.updated", host: key, action, etag: described.etags.hybrid, card: described.card };
    c.executionCtx.waitUntil(notifyRegistries(runtime, change));
  }
  // A path agent deleted has no card: its event carries the document's (deleted) ETag.
  const feedChange = { agent: key, action, etag: cardEtags?.hybrid ?? written.etag, cardUrl: base + CARD_PATH, written };
  c.executionCtx.waitUntil(publishChange(runtime.config, c.env.CARD_FEEDS, feedChange));
  const repairs = intake?.repairs ?? [];
  return c.json({ key, action, etag: written.etag, cardEtags, kind: intake?.kind ?? null, repairs }, 200, {
    etag: written.etag,
    ...repairedHeaders(repairs),
  });
}

/** What the index of agents (and the host's catalog) keeps of a path agent. */
function agentEntry(path: string, source: CardSource, etag: string) {
  return { path, name: source.name, ...(source.description ? { description: source.description.slice(0, 1000) } : {}), etag };
}

/** PUT, DELETE and rollback: the log checks the preconditions and writes; this side describes the new card. */
async function write(c: Context<AdminEnv>, runtime: Runtime, key: string, request: WriteRequest): Promise<Response> {
  const written = await logCall<Version>(() => documentLog(c, key).write(request));
  return changed(c, runtime, key, request.action, written);
}

/** GET /hosts: the document keys in KV (old `previous:<key>` values and `last-good:<key>` copies excluded) and HOST_ALLOWLIST. */
async function listHosts(c: Context<AdminEnv>, runtime: Runtime): Promise<Response> {
  const keys: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 20; page++) {
    const listed: KVNamespaceListResult<unknown, string> = await kvOf(runtime).list(cursor ? { cursor } : {});
    keys.push(
      ...listed.keys
        .map((k) => k.name)
        .filter((name) => ![LEGACY_PREVIOUS_PREFIX, LAST_GOOD_PREFIX, INDEX_PREFIX].some((prefix) => name.startsWith(prefix))),
    );
    if (listed.list_complete) break;
    cursor = listed.cursor;
  }
  const allowlist = runtime.config.hostAllowlist ? [...runtime.config.hostAllowlist].sort() : null;
  return c.json({ default: keys.includes(DEFAULT_KEY), hosts: keys.filter((k) => k !== DEFAULT_KEY).sort(), allowlist });
}

/** GET /documents/<key>: the current version, with its ETag (304 on a matching If-None-Match). */
async function readDocument(c: Context<AdminEnv>, runtime: Runtime): Promise<Response> {
  const key = documentKey(c.req.param("key") ?? "", runtime);
  const current = await logCall<Version & { text: string }>(() => documentLog(c, key).read(key));
  const headers = { etag: current.etag, "cache-control": "no-store" };
  if (ifNoneMatchHits(c.req.header("if-none-match") ?? null, current.etag)) return new Response(null, { status: 304, headers });
  const parsed = parseDocument(current.text);
  const repaired = repairedHeaders(parsed.ok ? parsed.value.repairs : []);
  return new Response(current.text, { headers: { ...headers, ...repaired, "content-type": "application/json" } });
}

/** GET /documents/<key>/repairs: what card intake repairs in the current version (stored as given), or why it cannot be published. */
async function readRepairs(c: Context<AdminEnv>, runtime: Runtime): Promise<Response> {
  const key = documentKey(c.req.param("key") ?? "", runtime);
  const current = await logCall<Version & { text: string }>(() => documentLog(c, key).read(key));
  const read = parseDocument(current.text);
  const found = read.ok
    ? { publishable: true, kind: read.value.kind, repairs: read.value.repairs }
    : { publishable: false, issues: read.issues };
  return c.json({ key, etag: current.etag, ...found }, 200, { etag: current.etag, "cache-control": "no-store" });
}

/** PUT /documents/<key>: a whole, valid document (422 with the zod issues otherwise, nothing written). */
async function putDocument(c: Context<AdminEnv>, runtime: Runtime): Promise<Response> {
  const key = documentKey(c.req.param("key") ?? "", runtime);
  const preconditions = preconditionsOf(c);
  const text = await documentText(c, runtime);
  const parsed = parseDocument(text);
  if (!parsed.ok) throw new EdgeError("INVALID_DOCUMENT", INVALID_DOCUMENT, { violations: parsed.issues });
  const { originCredentials, authProfile, originVpc } = parsed.value.source;
  const violations = [
    ...(originVpc !== undefined && !runtime.config.documentVpcServices.has(originVpc)
      ? [{ path: "originVpc", message: "names no binding of DOCUMENT_VPC_SERVICES" }]
      : []),
    ...(originCredentials !== undefined && !Object.hasOwn(runtime.config.originCredentials, originCredentials)
      ? [{ path: "originCredentials", message: "names no entry of ORIGIN_CREDENTIALS" }]
      : []),
    ...(authProfile !== undefined && !Object.hasOwn(runtime.config.authProfiles, authProfile)
      ? [{ path: "authProfile", message: "names no entry of AUTH_PROFILES" }]
      : []),
  ];
  if (violations.length > 0) throw new EdgeError("INVALID_DOCUMENT", INVALID_DOCUMENT, { violations });
  return write(c, runtime, key, { key, action: "put", text, preconditions });
}

/** The admin routes of one configuration; mounted under ADMIN_PATH by the route table only when ADMIN_TOKEN is set. */
export function createAdminApp(runtime: Runtime): Hono<AdminEnv> {
  const admin = new Hono<AdminEnv>();
  admin.use(adminAuth(runtime.config.adminToken ?? ""));
  admin.get("/hosts", (c) => listHosts(c, runtime));
  // The index of a host's path agents rebuilt from KV (documents written there without the admin API).
  admin.post("/index/:host/rebuild", async (c) => {
    const key = documentKey(c.req.param("host"), runtime);
    if (key === DEFAULT_KEY) throw new EdgeError("BAD_REQUEST", "Path agents belong to a hostname, not to default");
    return c.json({ host: key, agents: await rebuildIndex(c.env, runtime, key) }, 200, { "cache-control": "no-store" });
  });
  // A key is a hostname and, for a path agent, its path (`agents.example.com/travel`): the sub-resources first,
  // so that `.../versions` is the versions of the key before it (no agent path ends in one of those words).
  const KEY = ":key{[^/]+(?:/[^/]+){0,4}?}";
  admin.get(`/documents/${KEY}/repairs`, (c) => readRepairs(c, runtime));
  admin.get(`/documents/${KEY}/versions`, async (c) => {
    const key = documentKey(c.req.param("key"), runtime);
    const { versions } = await logCall<{ versions: VersionSummary[] }>(() => documentLog(c, key).history(key));
    return c.json({ key, versions }, 200, { "cache-control": "no-store" });
  });
  /** Restores the previous version; the replaced one becomes the previous (a second rollback redoes). */
  admin.post(`/documents/${KEY}/rollback`, (c) => {
    const key = documentKey(c.req.param("key"), runtime);
    return write(c, runtime, key, { key, action: "rollback", preconditions: preconditionsOf(c) });
  });
  admin.get(`/documents/${KEY}`, (c) => readDocument(c, runtime));
  admin.put(`/documents/${KEY}`, (c) => putDocument(c, runtime));
  admin.delete(`/documents/${KEY}`, (c) => {
    const key = documentKey(c.req.param("key"), runtime);
    return write(c, runtime, key, { key, action: "delete", preconditions: preconditionsOf(c) });
  });
  admin.post("/feed-tickets", (c) => issueFeedTicket(c, runtime));
  admin.notFound(() => httpFailureResponse({ failed: true, reason: "NOT_FOUND" }));
  admin.onError(renderError);
  return admin;
}
