// Calls the worker inside workerd (vitest-pool-workers) with a fresh env, so
// each call sees its own config and per-isolate caches; `env.SKILLS` is the
// real local KV namespace from wrangler.toml.
import { env } from "cloudflare:workers";
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
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
