// The admin API (under ADMIN_PATH, bearer ADMIN_TOKEN; absent when the token is
// unset): read, replace, delete and roll back the card-source document of
// `default` or of a hostname, and list the configured hosts. Every read and
// write of a document goes through its key's DocumentLog (a Durable Object):
// versions with ETags, If-Match / If-None-Match, one write at a time, each
// published to KV whole or not at all.
import type { Context, MiddlewareHandler } from "hono";
import { Hono } from "hono/tiny";
import { callerOfKey } from "../auth/api-keys";
import { LAST_GOOD_PREFIX } from "../card/last-good";
import type { CardSource } from "../card/source";
import { DEFAULT_KEY, isDocumentKey } from "../card/store";
import { CARD_PATH, CARD_VARIANTS, type CardVariant } from "../card/variant";
import { EdgeError, type FailureReason, failure } from "../errors/failures";
import { httpFailureResponse, renderError } from "../errors/responses";
import { issueFeedTicket } from "../feed/feed-routes";
import { publishChange } from "../feed/publish";
import { readMessageBody } from "../http/body";
import { ifNoneMatchHits } from "../http/etag";
import { publicBaseUrl } from "../http/public-base";
import { normalizeHost, requestTarget } from "../http/request-target";
import { log } from "../log";
import type { Runtime } from "../runtime";
import { parseDocument, repairedHeaders } from "./document-intake";
import type { DocumentLog } from "./document-log";
import {
  type DocumentAction,
  LEGACY_PREVIOUS_PREFIX,
  type LogRefusal,
  MAX_DOCUMENT_BYTES,
  type Preconditions,
  type Version,
  type VersionSummary,
  type WriteRequest,
} from "./document-versions";
import { parseEntityTags } from "./preconditions";
import { notifyRegistries } from "./webhooks";

type AdminEnv = { Bindings: Env };

const INVALID_DOCUMENT = "The document is neither a valid card-source document nor an A2A card the edge can publish; nothing was written";

const REFUSALS: Record<LogRefusal["status"], FailureReason> = {
  404: "NOT_FOUND",
  409: "CONFLICT",
  412: "PRECONDITION_FAILED",
  503: "UNAVAILABLE",
};

/** The key as documents are stored: `default`, or a hostname in its one form (lower case, no trailing dot). */
function documentKey(raw: string, runtime: Runtime): string {
  const key = raw === DEFAULT_KEY ? raw : normalizeHost(raw);
  if (!isDocumentKey(key)) throw new EdgeError("BAD_REQUEST", 'The key must be "default" or a hostname such as agents.example.com');
  const allowlist = runtime.config.hostAllowlist;
  if (allowlist && key !== DEFAULT_KEY && !allowlist.has(key)) throw new EdgeError("BAD_REQUEST", "The hostname is not in HOST_ALLOWLIST");
  return key;
}

function kvOf(runtime: Runtime): KVNamespace {
  if (!runtime.kv) throw new EdgeError("UNAVAILABLE", "The SKILLS KV namespace is not bound");
  return runtime.kv;
}

/** The public base the key's card is served under (PUBLIC_BASE_URL wins, as for requests), `/<path>` of a `<hostname>/<path>` key after it. */
function baseFor(c: Context<AdminEnv>, runtime: Runtime, key: string): string {
  const { config } = runtime;
  if (config.publicBaseUrl) return config.publicBaseUrl + (key.includes("/") ? key.slice(key.indexOf("/")) : "");
  if (key !== DEFAULT_KEY) return `https://${key}`;
  return publicBaseUrl(requestTarget(c.req.url), c.req.raw.headers, config);
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

/** If-Match / If-None-Match as the log evaluates them; a malformed field is a 400. */
function preconditionsOf(c: Context<AdminEnv>): Preconditions {
  const ifMatch = parseEntityTags(c.req.header("if-match"));
  const ifNoneMatch = parseEntityTags(c.req.header("if-none-match"));
  if (ifMatch === null) throw new EdgeError("BAD_REQUEST", 'If-Match must be * or a list of entity-tags such as "3-0a1b2c3d4e5f"');
  if (ifNoneMatch === null) throw new EdgeError("BAD_REQUEST", 'If-None-Match must be * or a list of entity-tags such as "3-0a1b2c3d4e5f"');
  return { ifMatch, ifNoneMatch };
}

/** The body as text: at most 1 MiB counted in bytes read (whatever Content-Length says), within BODY_TIMEOUT_MS, strict UTF-8. */
async function documentText(c: Context<AdminEnv>, runtime: Runtime): Promise<string> {
  const read = await readMessageBody(c.req.raw, { maxBytes: MAX_DOCUMENT_BYTES, timeoutMs: runtime.config.bodyTimeoutMs });
  if (!read.ok) {
    if (read.reason === "too_large") throw new EdgeError("PAYLOAD_TOO_LARGE", "The document is larger than 1 MiB");
    if (read.reason === "timeout") throw new EdgeError("REQUEST_TIMEOUT", "The document did not arrive in time");
    throw new EdgeError("BAD_REQUEST", "The request body could not be read");
  }
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(read.bytes);
  } catch {
    throw new EdgeError("BAD_REQUEST", "The document is not valid UTF-8; nothing was written");
  }
}

async function changed(c: Context<AdminEnv>, runtime: Runtime, key: string, action: DocumentAction, written: Version): Promise<Response> {
  const { text } = written;
  const parsed = text === null ? null : parseDocument(text);
  const intake = parsed?.ok ? parsed.value : null;
  runtime.cards.store.prime(key, text, intake, (promise) => c.executionCtx.waitUntil(promise));
  const base = baseFor(c, runtime, key);
  // The document just written, or (after a delete) what the key now answers with.
  const resolved = intake ? { source: intake.source, repairs: intake.repairs } : await runtime.cards.store.resolve(key);
  runtime.cards.noteRepairs(resolved.source, resolved.repairs);
  const { etags: cardEtags, card } = await describeCard(runtime, resolved.source, base);
  log("info", "admin_document_changed", { key, action, repairs: intake?.repairs.length ?? 0 });
  if (runtime.config.registryWebhooks.length > 0) {
    c.executionCtx.waitUntil(notifyRegistries(runtime, { type: "agent-card.updated", host: key, action, etag: cardEtags.hybrid, card }));
  }
  const feedChange = { agent: key, action, etag: cardEtags.hybrid, cardUrl: base + CARD_PATH, written };
  c.executionCtx.waitUntil(publishChange(runtime.config, c.env.CARD_FEEDS, feedChange));
  const repairs = intake?.repairs ?? [];
  return c.json({ key, action, etag: written.etag, cardEtags, kind: intake?.kind ?? null, repairs }, 200, {
    etag: written.etag,
    ...repairedHeaders(repairs),
  });
}

/** PUT, DELETE and rollback: the log checks the preconditions and writes; this side describes the new card. */
async function write(c: Context<AdminEnv>, runtime: Runtime, key: string, request: WriteRequest): Promise<Response> {
  const written = await logCall<Version>(() => documentLog(c, key).write(request));
  return changed(c, runtime, key, request.action, written);
}

/**
 * RFC 6750 bearer token, any case of "Bearer" (RFC 9110 §11.1), compared as SHA-256 digests in constant
 * time by the edge's own API-key comparison (auth/api-keys.ts): hono/bearer-auth did the same for 0.7 KiB
 * gzip of the bundle (measured with the REST binding).
 */
function adminAuth(token: string): MiddlewareHandler<AdminEnv> {
  const stored = crypto.subtle.digest("SHA-256", new TextEncoder().encode(token)).then((d) => new Map([["admin", new Uint8Array(d)]]));
  const challenge = { "www-authenticate": 'Bearer realm="agent-card-edge admin"' };
  return async (c, next) => {
    const presented = /^bearer +(\S+)$/i.exec(c.req.header("authorization") ?? "")?.[1];
    if (presented !== undefined && (await callerOfKey(presented, await stored)) !== undefined) return next();
    return httpFailureResponse(failure("UNAUTHENTICATED", "A valid admin bearer token is required", { headers: challenge }));
  };
}

/** GET /hosts: the document keys in KV (old `previous:<key>` values and `last-good:<key>` copies excluded) and HOST_ALLOWLIST. */
async function listHosts(c: Context<AdminEnv>, runtime: Runtime): Promise<Response> {
  const keys: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 20; page++) {
    const listed: KVNamespaceListResult<unknown, string> = await kvOf(runtime).list(cursor ? { cursor } : {});
    keys.push(
      ...listed.keys.map((k) => k.name).filter((name) => !name.startsWith(LEGACY_PREVIOUS_PREFIX) && !name.startsWith(LAST_GOOD_PREFIX)),
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
  return write(c, runtime, key, { key, action: "put", text, preconditions });
}

/** The admin routes of one configuration; mounted under ADMIN_PATH by the route table only when ADMIN_TOKEN is set. */
export function createAdminApp(runtime: Runtime): Hono<AdminEnv> {
  const admin = new Hono<AdminEnv>();
  admin.use(adminAuth(runtime.config.adminToken ?? ""));
  admin.get("/hosts", (c) => listHosts(c, runtime));
  admin.get("/documents/:key", (c) => readDocument(c, runtime));
  admin.get("/documents/:key/repairs", (c) => readRepairs(c, runtime));
  admin.get("/documents/:key/versions", async (c) => {
    const key = documentKey(c.req.param("key"), runtime);
    const { versions } = await logCall<{ versions: VersionSummary[] }>(() => documentLog(c, key).history(key));
    return c.json({ key, versions }, 200, { "cache-control": "no-store" });
  });
  admin.put("/documents/:key", (c) => putDocument(c, runtime));
  admin.delete("/documents/:key", (c) => {
    const key = documentKey(c.req.param("key"), runtime);
    return write(c, runtime, key, { key, action: "delete", preconditions: preconditionsOf(c) });
  });
  /** Restores the previous version; the replaced one becomes the previous (a second rollback redoes). */
  admin.post("/documents/:key/rollback", (c) => {
    const key = documentKey(c.req.param("key"), runtime);
    return write(c, runtime, key, { key, action: "rollback", preconditions: preconditionsOf(c) });
  });
  admin.post("/feed-tickets", (c) => issueFeedTicket(c, runtime));
  admin.notFound(() => httpFailureResponse({ failed: true, reason: "NOT_FOUND" }));
  admin.onError(renderError);
  return admin;
}
