// The admin API inside workerd, for the worker tests: a caller with the bearer
// token, unique hostnames removed from KV after each test, and a KV whose writes
// to one key fail. The DocumentLog Durable Objects are the real ones of
// wrangler.toml (ADMIN_DOCUMENTS); each test uses its own keys, so their state
// never leaks into another test.
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, vi } from "vitest";
import { createWorker } from "../../src/app";
import { CARD, type FakeOrigin, fakeOrigin, makeEnv } from "./worker";

export const TOKEN = "admin-token-0123456789abcdef";
export const kv = env.SKILLS;

export type AdminCall = (url: string, init?: RequestInit, auth?: string | null) => Promise<Response>;

/** A worker with ADMIN_TOKEN set (plus `overrides`); each call passes the token unless `auth` says otherwise. */
export function adminWorker(
  overrides: Record<string, unknown> = {},
  origin: Pick<FakeOrigin, "fetch"> = fakeOrigin(() => new Response("ok")),
): AdminCall {
  const w = createWorker({ fetch: origin.fetch });
  const workerEnv = makeEnv({ ADMIN_TOKEN: TOKEN, ...overrides });
  return async (url, init = {}, auth = `Bearer ${TOKEN}`) => {
    const headers = new Headers(init.headers);
    if (auth) headers.set("authorization", auth);
    const ctx = createExecutionContext();
    const response = await w.fetch!(new Request(url, { ...init, headers }) as never, workerEnv, ctx);
    await waitOnExecutionContext(ctx);
    return response;
  };
}

/** Registers the clean-up; returns `host(name)`, a fresh hostname removed from KV after the test. */
export function useHosts(): { host: (name: string) => string; used: string[] } {
  const used: string[] = [];
  afterEach(async () => {
    vi.restoreAllMocks();
    await Promise.all(used.splice(0).flatMap((k) => [kv.delete(k), kv.delete(`previous:${k}`), kv.delete(`last-good:${k}`)]));
  });
  return {
    used,
    host: (name) => {
      const h = `${name}-${crypto.randomUUID().slice(0, 8)}.example.com`;
      used.push(h);
      return h;
    },
  };
}

/**
 * From now until the test ends, KV writes (put and delete) of `failingKey` fail.
 * The DocumentLog writes KV through the same binding object as `env.SKILLS`, so
 * the spy reaches inside the Durable Object.
 */
export function failKvWritesTo(failingKey: string): void {
  const put = kv.put.bind(kv);
  const del = kv.delete.bind(kv);
  const fail = () => Promise.reject(new Error("KV unavailable"));
  vi.spyOn(kv, "put").mockImplementation(((k: string, ...rest: [never, never]) => (k === failingKey ? fail() : put(k, ...rest))) as never);
  vi.spyOn(kv, "delete").mockImplementation(((k: string) => (k === failingKey ? fail() : del(k))) as never);
}

export const put = (doc: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: "PUT",
  headers: { "content-type": "application/json", ...headers },
  body: typeof doc === "string" ? doc : JSON.stringify(doc),
});

export const cardName = async (call: AdminCall, h: string): Promise<string> =>
  ((await (await call(`https://${h}${CARD}`, {}, null)).json()) as { name: string }).name;

/** The body every admin write answers with. */
export interface Written {
  key: string;
  action: string;
  etag: string;
  cardEtags: Record<string, string>;
}
