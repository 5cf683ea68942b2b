// The admin API (under ADMIN_PATH, bearer ADMIN_TOKEN; absent when the token is
// unset): read, replace, delete and roll back the card-source document of
// `default` or of a hostname, and list the configured hosts. Every read and
// write of a document goes through its key's DocumentLog (a Durable Object):
// versions with ETags, If-Match / If-None-Match, one write at a time, each
// published to KV whole or not at all.
import { Hono, type Context } from "hono";
import { CARD_VARIANTS, type CardVariant } from "../card/variant";
import { parseCardSourceText, type CardSource } from "../card/source";
import { DEFAULT_KEY, isDocumentKey } from "../card/store";
import { errorResponse, HttpError, renderError } from "../errors";
import { readBody } from "../http/body";
import { ifNoneMatchHits } from "../http/etag";
import { publicBaseUrl } from "../http/public-base";
import { requestTarget } from "../http/request-url";
import { log } from "../log";
import { runtimeFor, type Runtime, type RuntimeDeps } from "../runtime";
import { LEGACY_PREVIOUS_PREFIX, MAX_DOCUMENT_BYTES, type DocumentAction, type DocumentLog, type Failure, type Preconditions, type Version, type VersionSummary, type WriteRequest } from "./document-log";
import { parseEntityTags } from "./preconditions";
import { notifyRegistries } from "./webhooks";

type AdminEnv = { Bindings: Env; Variables: { runtime: Runtime } };

const INVALID_DOCUMENT = "The document is not a valid card-source document; nothing was written";

/** Constant-time: both sides are hashed to 32 bytes, then compared in full. */
async function tokenMatches(expected: string, provided: string): Promise<boolean> {
  const encoder = new TextEncoder();
  const [a, b] = await Promise.all([
    crypto.subtle.digest("SHA-256", encoder.encode(expected)),
    crypto.subtle.digest("SHA-256", encoder.encode(provided)),
  ]);
  return crypto.subtle.timingSafeEqual(a, b);
}

function documentKey(raw: string, runtime: Runtime): string {
  const key = raw.toLowerCase();
  if (!isDocumentKey(key)) throw new HttpError(400, 'The key must be "default" or a hostname such as agents.example.com');
  const allowlist = runtime.config.hostAllowlist;
  if (allowlist && key !== DEFAULT_KEY && !allowlist.has(key)) throw new HttpError(400, "The hostname is not in HOST_ALLOWLIST");
  return key;
}

function kvOf(runtime: Runtime): KVNamespace {
  if (!runtime.kv) throw new HttpError(503, "The SKILLS KV namespace is not bound");
  return runtime.kv;
}

/** The public base the key's card is served under (PUBLIC_BASE_URL wins, as for requests). */
function baseFor(c: Context<AdminEnv>, key: string): string {
  const { config } = c.get("runtime");
  if (config.publicBaseUrl) return config.publicBaseUrl;
  if (key !== DEFAULT_KEY) return `https://${key}`;
  return publicBaseUrl(requestTarget(c.req.url), c.req.raw.headers, config);
}

/** ETags of every variant of the card now served from `source`, plus its hybrid card as served (signed). */
async function describeCard(runtime: Runtime, source: CardSource, base: string) {
  const etags = {} as Record<CardVariant, string>;
  for (const variant of CARD_VARIANTS) etags[variant] = (await runtime.card(source, base, variant)).etag;
  return { etags, card: (await runtime.card(source, base, "hybrid")).card };
}

/** The key's DocumentLog: one Durable Object per key, so writes to different hosts never wait on each other. */
function documentLog(c: Context<AdminEnv>, key: string): DurableObjectStub<DocumentLog> {
  const namespace = c.env.ADMIN_DOCUMENTS as DurableObjectNamespace<DocumentLog> | undefined;
  if (!namespace) throw new HttpError(503, "The ADMIN_DOCUMENTS Durable Object is not bound");
  return namespace.get(namespace.idFromName(key));
}

/** A call to the log; a failure to reach it leaves the outcome unknown, and says so. */
async function logCall<T>(call: () => Promise<unknown>): Promise<T> {
  let outcome: T | Failure;
  try {
    outcome = (await call()) as T | Failure;
  } catch (error) {
    log("error", "admin_log_unreachable", { error: (error as Error).name });
    throw new HttpError(503, "The document log did not answer; GET the document to see whether the write was applied");
  }
  if ((outcome as Failure).ok === false) {
    const failure = outcome as Failure;
    throw new HttpError(failure.status, failure.message);
  }
  return outcome as T;
}

/** If-Match / If-None-Match as the log evaluates them; a malformed field is a 400. */
function preconditionsOf(c: Context<AdminEnv>): Preconditions {
  const ifMatch = parseEntityTags(c.req.header("if-match"));
  const ifNoneMatch = parseEntityTags(c.req.header("if-none-match"));
  if (ifMatch === null) throw new HttpError(400, 'If-Match must be * or a list of entity-tags such as "3-0a1b2c3d4e5f"');
  if (ifNoneMatch === null) throw new HttpError(400, 'If-None-Match must be * or a list of entity-tags such as "3-0a1b2c3d4e5f"');
  return { ifMatch, ifNoneMatch };
}

/** The body as text: at most 1 MiB counted in bytes read (whatever Content-Length says), within BODY_TIMEOUT_MS, strict UTF-8. */
async function documentText(c: Context<AdminEnv>): Promise<string> {
  const read = await readBody(c.req.raw.body, { maxBytes: MAX_DOCUMENT_BYTES, timeoutMs: c.get("runtime").config.bodyTimeoutMs });
  if (!read.ok) {
    if (read.reason === "too_large") throw new HttpError(413, "The document is larger than 1 MiB");
    if (read.reason === "timeout") throw new HttpError(408, "The document did not arrive in time");
    throw new HttpError(400, "The request body could not be read");
  }
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(read.bytes);
  } catch {
    throw new HttpError(400, "The document is not valid UTF-8; nothing was written");
  }
}

/** Validation that never escapes as a 500: whatever the parser throws (a pathological document) is an invalid document. */
function parseDocument(text: string): ReturnType<typeof parseCardSourceText> {
  try {
    return parseCardSourceText(text);
  } catch (error) {
    log("warn", "admin_document_unparsable", { error: (error as Error).name, bytes: text.length });
    return { ok: false, issues: [{ path: "", message: "the document could not be validated (too deeply nested or too complex)" }] };
  }
}

async function changed(c: Context<AdminEnv>, key: string, action: DocumentAction, written: Version): Promise<Response> {
  const runtime = c.get("runtime");
  const { text } = written;
  const parsed = text === null ? null : parseDocument(text);
  runtime.store.prime(key, text, parsed?.ok ? parsed.value : null);
  const base = baseFor(c, key);
  // The document just written, or (after a delete) what the key now falls back to.
  const source = parsed?.ok ? parsed.value : await runtime.store.lookup(key);
  const { etags: cardEtags, card } = await describeCard(runtime, source, base);
  log("info", "admin_document_changed", { key, action });
  if (runtime.config.registryWebhooks.length > 0) {
    c.executionCtx.waitUntil(notifyRegistries(runtime, { type: "agent-card.updated", host: key, action, etag: cardEtags.hybrid, card }));
  }
  return c.json({ key, action, etag: written.etag, cardEtags }, 200, { etag: written.etag });
}

/** PUT, DELETE and rollback: the log checks the preconditions and writes; this side describes the new card. */
async function write(c: Context<AdminEnv>, key: string, request: WriteRequest): Promise<Response> {
  const written = await logCall<Version>(() => documentLog(c, key).write(request));
  return changed(c, key, request.action, written);
}

export function createAdminApp(deps: RuntimeDeps): Hono<AdminEnv> {
  const admin = new Hono<AdminEnv>();

  admin.use(async (c, next) => {
    const runtime = runtimeFor(c.env, deps);
    c.set("runtime", runtime);
    const token = runtime.config.adminToken;
    if (!token) throw new HttpError(404, "Not found");
    // The scheme name is case-insensitive (RFC 9110 §11.1).
    const provided = /^bearer +(.+)$/i.exec(c.req.header("authorization") ?? "")?.[1] ?? "";
    if (!provided || !(await tokenMatches(token, provided))) {
      throw new HttpError(401, "A valid admin bearer token is required", { "www-authenticate": 'Bearer realm="agent-card-edge admin"' });
    }
    await next();
  });

  admin.get("/hosts", async (c) => {
    const runtime = c.get("runtime");
    const keys: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 20; page++) {
      const listed: KVNamespaceListResult<unknown, string> = await kvOf(runtime).list(cursor ? { cursor } : {});
      // `previous:<key>` values are the old admin API's; the log adopted them.
      keys.push(...listed.keys.map((k) => k.name).filter((name) => !name.startsWith(LEGACY_PREVIOUS_PREFIX)));
      if (listed.list_complete) break;
      cursor = listed.cursor;
    }
    const allowlist = runtime.config.hostAllowlist ? [...runtime.config.hostAllowlist].sort() : null;
    return c.json({ default: keys.includes(DEFAULT_KEY), hosts: keys.filter((k) => k !== DEFAULT_KEY).sort(), allowlist });
  });

  admin.get("/documents/:key", async (c) => {
    const key = documentKey(c.req.param("key"), c.get("runtime"));
    const current = await logCall<Version & { text: string }>(() => documentLog(c, key).read(key));
    const headers = { etag: current.etag, "cache-control": "no-store" };
    if (ifNoneMatchHits(c.req.header("if-none-match") ?? null, current.etag)) return new Response(null, { status: 304, headers });
    return new Response(current.text, { headers: { ...headers, "content-type": "application/json" } });
  });

  admin.get("/documents/:key/versions", async (c) => {
    const key = documentKey(c.req.param("key"), c.get("runtime"));
    const { versions } = await logCall<{ versions: VersionSummary[] }>(() => documentLog(c, key).history(key));
    return c.json({ key, versions }, 200, { "cache-control": "no-store" });
  });

  admin.put("/documents/:key", async (c) => {
    const key = documentKey(c.req.param("key"), c.get("runtime"));
    const preconditions = preconditionsOf(c);
    const text = await documentText(c);
    const parsed = parseDocument(text);
    if (!parsed.ok) throw new HttpError(422, INVALID_DOCUMENT, {}, parsed.issues);
    return write(c, key, { key, action: "put", text, preconditions });
  });

  admin.delete("/documents/:key", async (c) => {
    const key = documentKey(c.req.param("key"), c.get("runtime"));
    return write(c, key, { key, action: "delete", preconditions: preconditionsOf(c) });
  });

  /** Restores the previous version; the replaced one becomes the previous (a second rollback redoes). */
  admin.post("/documents/:key/rollback", async (c) => {
    const key = documentKey(c.req.param("key"), c.get("runtime"));
    return write(c, key, { key, action: "rollback", preconditions: preconditionsOf(c) });
  });

  admin.notFound(() => errorResponse(404, "Not found"));
  admin.onError(renderError);
  return admin;
}
