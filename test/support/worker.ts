// Calls the worker inside workerd (@cloudflare/vitest-plugin) with a fresh env, so
// each call sees its own config and per-isolate caches; `env.SKILLS` is the
// real local KV namespace from wrangler.toml.

import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { createWorker } from "../../src/app";

export type EnvOverrides = Partial<Record<keyof Env | string, unknown>>;

export function makeEnv(overrides: EnvOverrides = {}): Env {
  return { ...env, ...overrides } as Env;
}

/** The exported worker: card GETs on its fast path, everything else through the Hono app. */
const worker = createWorker();

/** One request; pass the same `workerEnv` to share an isolate's caches between calls. */
export async function call(input: string, init: RequestInit = {}, workerEnv: Env = makeEnv()): Promise<Response> {
  const ctx = createExecutionContext();
  const response = await worker.fetch!(new Request(input, init) as Request<unknown, IncomingRequestCfProperties>, workerEnv, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

export const CARD = "/.well-known/agent-card.json";
export const LEGACY = "/.well-known/agent.json";

export interface FakeOrigin {
  fetch: (input: string, init?: RequestInit) => Promise<Response>;
  /** Every request the origin received, as a Request (body readable once). */
  requests: Request[];
  /** Raw bytes of each request body, in order. */
  bodies: Uint8Array[];
}

/** An origin behind an injected fetch: `handler` answers each request. */
export function fakeOrigin(handler: (request: Request) => Response | Promise<Response>): FakeOrigin {
  const origin: FakeOrigin = {
    requests: [],
    bodies: [],
    fetch: async (input, init) => {
      const request = new Request(input, init);
      const bytes = new Uint8Array(await request.clone().arrayBuffer());
      origin.requests.push(request);
      origin.bodies.push(bytes);
      return handler(request);
    },
  };
  return origin;
}

/** Like `call`, through a worker built with the given origin fetch. */
export async function callVia(
  origin: Pick<FakeOrigin, "fetch">,
  input: string,
  init: Omit<RequestInit, "cf"> & { cf?: unknown } = {},
  workerEnv: Env = makeEnv(),
): Promise<Response> {
  const worker = createWorker({ fetch: origin.fetch });
  const ctx = createExecutionContext();
  const response = await worker.fetch!(
    new Request(input, init as RequestInit) as Request<unknown, IncomingRequestCfProperties>,
    workerEnv,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return response;
}

/**
 * A KV namespace holding only `documents` (by key; objects stored as JSON), for a test that needs one
 * host's documents and nothing else; writes (the last good copy the worker keeps) land in it too.
 */
export function documentsKv(documents: Record<string, unknown>): KVNamespace {
  const values = new Map(Object.entries(documents).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)]));
  const metadata = new Map<string, unknown>();
  const kv = {
    get: async (key: string) => values.get(key) ?? null,
    getWithMetadata: async (key: string) => ({ value: values.get(key) ?? null, metadata: metadata.get(key) ?? null, cacheStatus: null }),
    put: async (key: string, value: string, options?: { metadata?: unknown }) => {
      values.set(key, value);
      metadata.set(key, options?.metadata);
    },
    delete: async (key: string) => {
      values.delete(key);
      metadata.delete(key);
    },
    list: async () => ({ keys: [...values.keys()].map((name) => ({ name })), list_complete: true, cacheStatus: null }),
  };
  return kv as unknown as KVNamespace;
}

/** SHA-256 of a text, lower-case hex: what AUTH_API_KEYS holds of a key (`sha256:<hex>`). */
export async function sha256Hex(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return [...digest].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

/**
 * A caller the edge authenticates by API key (edge authentication): a document
 * whose card requires the `partnerKey` scheme, AUTH_API_KEYS holding the hash
 * of `key`, and the header that presents it.
 */
export async function apiKeyCaller(caller = "partner", key = "partner-key-0123456789") {
  const hash = await sha256Hex(key);
  const document = {
    name: "Keyed Agent",
    capabilities: { extendedAgentCard: true },
    securitySchemes: { partnerKey: { type: "apiKey", in: "header", name: "X-API-Key" } },
    security: [{ partnerKey: [] }],
  };
  const kv = documentsKv({ default: document });
  return { env: { SKILLS: kv, AUTH_API_KEYS: JSON.stringify({ [caller]: `sha256:${hash}` }) }, headers: { "X-API-Key": key } };
}
