// The admin side of the index of agents: after a document write of a path agent, its host's AgentIndex
// (agent-index.ts) records it (or forgets it, after a delete), publishes the index to KV, and this isolate
// routes by the new index at once; and the index rebuilt from KV, for documents written there by hand.
import { EdgeError } from "../errors/failures";
import type { Runtime } from "../runtime";
import type { AgentIndex, IndexOutcome } from "./agent-index";
import { parseAgentPath } from "./agent-paths";
import { type AgentEntry, MAX_AGENTS_PER_HOST } from "./index-copy";

function indexOf(env: Env, hostname: string): DurableObjectStub<AgentIndex> {
  const namespace = env.AGENT_INDEX as DurableObjectNamespace<AgentIndex> | undefined;
  if (!namespace) throw new EdgeError("UNAVAILABLE", "The AGENT_INDEX Durable Object is not bound");
  return namespace.get(namespace.idFromName(hostname));
}

function applied(runtime: Runtime, hostname: string, outcome: IndexOutcome): AgentEntry[] {
  if (!outcome.ok) throw new EdgeError(outcome.status === 409 ? "CONFLICT" : "UNAVAILABLE", outcome.message);
  const paths = new Set(outcome.agents.map((agent) => agent.path));
  runtime.agents.prime(hostname, { version: outcome.version, entries: outcome.agents, paths });
  return outcome.agents;
}

/** A path agent written (`entry`) or deleted (null). */
export async function indexChange(env: Env, runtime: Runtime, hostname: string, path: string, entry: AgentEntry | null): Promise<void> {
  const index = indexOf(env, hostname);
  applied(runtime, hostname, (await (entry ? index.put(hostname, entry) : index.remove(hostname, path))) as IndexOutcome);
}

/** The index of `hostname` rebuilt from the documents KV holds under `<hostname>/` (bounded pages of KV list). */
export async function rebuildIndex(env: Env, runtime: Runtime, hostname: string): Promise<AgentEntry[]> {
  const kv = runtime.kv;
  if (!kv) throw new EdgeError("UNAVAILABLE", "The SKILLS KV namespace is not bound");
  const entries: AgentEntry[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 20 && entries.length < MAX_AGENTS_PER_HOST; page++) {
    const listed: KVNamespaceListResult<unknown, string> = await kv.list({ prefix: `${hostname}/`, ...(cursor ? { cursor } : {}) });
    for (const { name } of listed.keys) {
      const path = name.slice(hostname.length);
      const parsed = parseAgentPath(path);
      if (!("path" in parsed) || parsed.path !== path) continue;
      const source = await runtime.cards.store.lookup(name);
      entries.push({ path, name: source.name, ...(source.description ? { description: source.description } : {}) });
    }
    if (listed.list_complete) break;
    cursor = listed.cursor;
  }
  return applied(runtime, hostname, (await indexOf(env, hostname).replace(hostname, entries)) as IndexOutcome);
}
