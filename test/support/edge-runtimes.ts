// The edge in both runtimes a deployment meets, for suites that speak to it over raw sockets: the BUILT bundle
// in workerd (Miniflare, a direct socket: as deployed) and the source under `wrangler dev`. Each keeps the
// worker's log lines to itself (workerd's through Miniflare's structured-log hook, wrangler's from its output),
// so a suite reads the lines of its own calls and nothing reaches the console.
import { join } from "node:path";
import { serve, wranglerDurableObjects, wranglerVars } from "../../bench/lib";
import { builtBundle } from "./built-bundle";
import { type LogEvent, logEvents } from "./console";
import { startWranglerDev, wranglerDevDir } from "./processes";

export const RUNTIMES = ["workerd (built bundle)", "wrangler dev"] as const;
export type Runtime = (typeof RUNTIMES)[number];

export interface Edge {
  port: number;
  /** The Host a client names: the edge's own address, so URLs it derives from its base (the relay's) reach it. */
  host: string;
  /** A position in the worker's log, for `events`. */
  mark(): number;
  /** The worker's structured log lines since `mark`, optionally only those of one event. */
  events(mark: number, event?: string): LogEvent[];
  /** The worker's output so far, one log line a line (wrangler dev's own lines among them). */
  output(): string;
  stop(): Promise<void>;
}

export interface EdgeOptions {
  /** Card-source documents stored in SKILLS first, by key (objects as JSON). */
  documents?: Record<string, unknown>;
  /** workerd only: local storage (KV, Durable Objects) kept in this directory, so a new edge on it finds it. */
  persist?: string;
}

let bundle: { path: string } | undefined;

async function workerd(vars: Record<string, string>, options: EdgeOptions): Promise<Edge> {
  bundle ??= builtBundle();
  const lines: string[] = [];
  const served = await serve({
    modules: true,
    scriptPath: bundle.path,
    modulesRoot: join(bundle.path, ".."),
    kvNamespaces: ["SKILLS"],
    durableObjects: wranglerDurableObjects(),
    bindings: { ...wranglerVars(), ...vars },
    handleStructuredLogs: ({ message }: { message: string }) => void lines.push(message),
    ...(options.persist ? { resourcePersistencePath: options.persist } : {}),
  });
  const kv = await served.mf.getKVNamespace("SKILLS");
  for (const [key, value] of Object.entries(options.documents ?? {})) await kv.put(key, JSON.stringify(value));
  const port = Number(served.url.port);
  return {
    port,
    host: `127.0.0.1:${port}`,
    mark: () => lines.length,
    events: (mark, event) => lines.slice(mark).flatMap((line) => logEvents(line, event)),
    output: () => lines.join("\n"),
    stop: served.stop,
  };
}

async function wranglerDev(vars: Record<string, string>, options: EdgeOptions): Promise<Edge> {
  // With documents: a directory of its own whose local state holds them (as `wrangler kv bulk put --local` leaves it).
  const dir = options.documents ? await wranglerDevDir("edge-dev-", options.documents, vars) : undefined;
  const args = dir ? dir.args : Object.entries(vars).flatMap(([name, value]) => ["--var", `${name}:${value}`]);
  const { dev, base } = await startWranglerDev(args).catch((error: unknown) => {
    dir?.cleanUp();
    throw error;
  });
  const port = Number(new URL(base).port);
  return {
    port,
    host: `127.0.0.1:${port}`,
    mark: () => dev.output().length,
    events: (mark, event) => logEvents(dev.output().slice(mark), event),
    output: dev.output,
    stop: async () => {
      await dev.stop();
      dir?.cleanUp();
    },
  };
}

/** The edge in `runtime` with these variables (wrangler.toml's [vars] beneath them), ready for calls. */
export function startEdge(runtime: Runtime, vars: Record<string, string>, options: EdgeOptions = {}): Promise<Edge> {
  return runtime === "wrangler dev" ? wranglerDev(vars, options) : workerd(vars, options);
}
