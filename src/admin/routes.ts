// The admin API (under ADMIN_PATH, bearer ADMIN_TOKEN; absent when the token is
// unset): read, replace, delete and roll back the card-source document of
// `default` or of a hostname, and list the configured hosts. Every write keeps
// the replaced document as the key's previous version, writes it first, and
// leaves the current document untouched when anything fails.
import { Hono, type Context } from "hono";
import { CARD_VARIANTS, type CardVariant } from "../card/render";
import { parseCardSourceText, type CardSource } from "../card/source";
import { DEFAULT_KEY, isDocumentKey } from "../card/store";
import { errorResponse, HttpError, renderError } from "../errors";
import { publicBaseUrl } from "../http/public-base";
import { requestTarget } from "../http/request-url";
import { log } from "../log";
import { runtimeFor, type Runtime, type RuntimeDeps } from "../runtime";
import { notifyRegistries } from "./webhooks";

type AdminEnv = { Bindings: Env; Variables: { runtime: Runtime } };

const PREVIOUS_PREFIX = "previous:";
const MAX_DOCUMENT_BYTES = 1024 * 1024;

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

async function kvWrite(what: string, action: () => Promise<unknown>): Promise<void> {
  try {
    await action();
  } catch (error) {
    log("error", "admin_write_failed", { what, error: (error as Error).name });
    throw new HttpError(503, "The KV write failed; the current document is unchanged");
  }
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

async function changed(c: Context<AdminEnv>, key: string, action: string, text: string | null): Promise<Response> {
  const runtime = c.get("runtime");
  const parsed = text === null ? null : parseCardSourceText(text);
  runtime.store.prime(key, text, parsed?.ok ? parsed.value : null);
  const base = baseFor(c, key);
  // The document just written, or (after a delete) what the key now falls back to.
  const source = parsed?.ok ? parsed.value : await runtime.store.lookup(key);
  const { etags, card } = await describeCard(runtime, source, base);
  log("info", "admin_document_changed", { key, action });
  if (runtime.config.registryWebhooks.length > 0) {
    c.executionCtx.waitUntil(notifyRegistries(runtime, { type: "agent-card.updated", host: key, action, etag: etags.hybrid, card }));
  }
  return c.json({ key, action, etags }, 200, { etag: etags.hybrid });
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
      keys.push(...listed.keys.map((k) => k.name).filter((name) => !name.startsWith(PREVIOUS_PREFIX)));
      if (listed.list_complete) break;
      cursor = listed.cursor;
    }
    const allowlist = runtime.config.hostAllowlist ? [...runtime.config.hostAllowlist].sort() : null;
    return c.json({ default: keys.includes(DEFAULT_KEY), hosts: keys.filter((k) => k !== DEFAULT_KEY).sort(), allowlist });
  });

  admin.get("/documents/:key", async (c) => {
    const key = documentKey(c.req.param("key"), c.get("runtime"));
    const text = await kvOf(c.get("runtime")).get(key);
    if (text === null) throw new HttpError(404, `No document is stored for ${key}`);
    return new Response(text, { headers: { "content-type": "application/json" } });
  });

  admin.put("/documents/:key", async (c) => {
    const key = documentKey(c.req.param("key"), c.get("runtime"));
    const kv = kvOf(c.get("runtime"));
    if (Number(c.req.header("content-length") ?? 0) > MAX_DOCUMENT_BYTES) throw new HttpError(413, "The document is larger than 1 MiB");
    const text = await c.req.text();
    if (text.length > MAX_DOCUMENT_BYTES) throw new HttpError(413, "The document is larger than 1 MiB");
    const parsed = parseCardSourceText(text);
    if (!parsed.ok) throw new HttpError(422, "The document is not a valid card-source document; nothing was written", {}, parsed.issues);
    const current = await kv.get(key);
    if (current !== null) await kvWrite("previous", () => kv.put(`${PREVIOUS_PREFIX}${key}`, current));
    await kvWrite("document", () => kv.put(key, text));
    return changed(c, key, "put", text);
  });

  admin.delete("/documents/:key", async (c) => {
    const key = documentKey(c.req.param("key"), c.get("runtime"));
    const kv = kvOf(c.get("runtime"));
    const current = await kv.get(key);
    if (current === null) throw new HttpError(404, `No document is stored for ${key}`);
    await kvWrite("previous", () => kv.put(`${PREVIOUS_PREFIX}${key}`, current));
    await kvWrite("document", () => kv.delete(key));
    return changed(c, key, "delete", null);
  });

  /** Restores the previous version; the replaced one becomes the previous (a second rollback redoes). */
  admin.post("/documents/:key/rollback", async (c) => {
    const key = documentKey(c.req.param("key"), c.get("runtime"));
    const kv = kvOf(c.get("runtime"));
    const [previous, current] = await Promise.all([kv.get(`${PREVIOUS_PREFIX}${key}`), kv.get(key)]);
    if (previous === null) throw new HttpError(404, `No previous version is stored for ${key}`);
    await kvWrite("document", () => kv.put(key, previous));
    try {
      await (current === null ? kv.delete(`${PREVIOUS_PREFIX}${key}`) : kv.put(`${PREVIOUS_PREFIX}${key}`, current));
    } catch (error) {
      // Undo the first write so that nothing is lost: the rollback did not happen.
      log("error", "admin_write_failed", { what: "previous", error: (error as Error).name });
      await kvWrite("undo", () => (current === null ? kv.delete(key) : kv.put(key, current)));
      throw new HttpError(503, "The KV write failed; the current document is unchanged");
    }
    return changed(c, key, "rollback", previous);
  });

  admin.notFound(() => errorResponse(404, "Not found"));
  admin.onError(renderError);
  return admin;
}
