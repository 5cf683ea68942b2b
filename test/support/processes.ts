// Real processes for the node-side tests: start, wait, stop. Servers bind port 0 and say where they listen.
import { type ChildProcess, spawn } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { hermeticEnv, isolatedWranglerConfig, NO_ENV_FILE } from "./hermetic";
import { putLocalKv } from "./local-kv";
import { withSampleCard } from "./sample-card";

export const ROOT = new URL("../../", import.meta.url).pathname;

export interface Started {
  child: ChildProcess;
  output: () => string;
  stop: () => Promise<void>;
}

/** What start() started and nobody stopped yet: a bench stops them all on its way out (bench/lib.ts). */
const running = new Set<Started>();

/** Stops every process start() started that is still running. */
export async function stopStarted(): Promise<void> {
  await Promise.all([...running].map((started) => started.stop()));
}

/**
 * Starts a command in its own process group (so stop() ends its children too).
 * Its own group also means a terminal's Ctrl-C never reaches it: whoever starts it stops it.
 */
export function start(command: string, args: string[], env: Record<string, string | undefined> = {}, cwd = ROOT): Started {
  // No network: Miniflare's sample `request.cf` is not fetched (a test may unset this to see what a user sees).
  const merged: NodeJS.ProcessEnv = { ...hermeticEnv(), CLOUDFLARE_CF_FETCH_ENABLED: "false", ...env };
  for (const [name, value] of Object.entries(merged)) if (value === undefined) delete merged[name];
  const child = spawn(command, args, {
    cwd,
    env: merged,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  void exited.then(() => running.delete(started));
  const started: Started = {
    child,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        try {
          process.kill(-child.pid!, "SIGTERM");
        } catch {
          /* already gone */
        }
        const timer = setTimeout(() => {
          try {
            process.kill(-child.pid!, "SIGKILL");
          } catch {
            /* already gone */
          }
        }, 5_000);
        await exited;
        clearTimeout(timer);
      }
    },
  };
  running.add(started);
  return started;
}

/**
 * The processes (pid and command line) whose environment holds `name=value`.
 * Set on a command a test starts, it finds every process that command started,
 * even one whose parent died and left it to init: a parent chain from the
 * command would miss exactly that one.
 */
export function processesWithEnv(name: string, value: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync("/proc").filter((entry) => /^\d+$/.test(entry))) {
    try {
      if (!readFileSync(`/proc/${pid}/environ`, "utf8").split("\0").includes(`${name}=${value}`)) continue;
      found.push(`${pid} ${readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ").trim()}`);
    } catch {
      /* gone, or not ours to read */
    }
  }
  return found;
}

/**
 * Polls `url` until it answers (any status) or the process dies or time runs out. One request at a time:
 * a request that has reached the server is awaited (up to the deadline), never abandoned for a new one,
 * so a slow first answer (a cold isolate on a busy machine) is not followed by a second request running
 * beside it in the worker.
 */
export async function waitForHttp(url: string, started: Started, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (started.child.exitCode !== null) throw new Error(`process exited early:\n${started.output()}`);
    try {
      await fetch(url, { signal: AbortSignal.timeout(Math.max(1, deadline - Date.now())) });
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  throw new Error(`timed out waiting for ${url}:\n${started.output()}`);
}

/**
 * Waits (bounded) until the process has printed a line matching `pattern` and returns its first group:
 * how a server started on port 0 says where it listens. Fails if the process exits first.
 */
export async function waitForOutput(started: Started, pattern: RegExp, what: string, timeoutMs = 120_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = pattern.exec(started.output())?.[1];
    if (found !== undefined) return found;
    if (started.child.exitCode !== null) throw new Error(`process exited before ${what}:\n${started.output()}`);
    if (Date.now() > deadline) throw new Error(`${what}: not printed within ${timeoutMs} ms:\n${started.output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Starts a TypeScript file as one node process (`node --import tsx`, the node running the tests). Not
 * through the `tsx` command: its signal relay gives a child 30 ms to acknowledge a SIGTERM, and on a busy
 * machine it then kills the child and exits 143 while the child is still shutting down cleanly.
 */
export function startTs(file: string, args: string[] = [], env: Record<string, string> = {}): Started {
  return start(process.execPath, ["--import", "tsx", file, ...args], env);
}

/** Runs a command to completion (in the repository unless `cwd` says otherwise). */
export function run(
  command: string,
  args: string[],
  /** Added to the hermetic environment; undefined removes a variable. */
  env: Record<string, string | undefined> = {},
  cwd = ROOT,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd,
      env: { ...hermeticEnv(), ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c) => (stdout += c));
    child.stderr.on("data", (c) => (stderr += c));
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/**
 * A loopback port nobody listens on now: for a process that must know its port before it starts (its card or
 * its tokens name it), or an address where nothing answers. A port taken in between fails that start, loudly.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function devConfigDir(): string {
  mkdirSync(join(ROOT, "test-output"), { recursive: true });
  return mkdtempSync(join(ROOT, "test-output", "wrangler-dev-"));
}

/** The URL `wrangler dev` prints once it listens (`Ready on http://127.0.0.1:PORT`). */
export const WRANGLER_READY = /Ready on (http:\/\/127\.0\.0\.1:\d+)/;

/**
 * `wrangler dev` on 127.0.0.1, ready (the card answers); extra args appended. Port 0 for the server and
 * the inspector: wrangler binds whatever is free and prints where, so no port chosen here can be taken by
 * another process before wrangler binds it. Never the developer's dev state: no `.dev.vars`
 * (hermetic.ts), and local KV and Durable Objects in a fresh directory (removed by stop()) unless the
 * test passes its own `--persist-to`.
 */
export async function startWranglerDev(extra: string[] = []): Promise<{ dev: Started; base: string }> {
  const state = extra.includes("--persist-to") ? undefined : mkdtempSync(join(tmpdir(), "wrangler-state-"));
  // A config file of its own: wrangler dev restarts the worker whenever its config file is replaced, and
  // another suite starting its own dev would replace a shared one (a POST in flight then gets a 503).
  const configDir = extra.includes("--config") ? undefined : devConfigDir();
  const started = start("node_modules/.bin/wrangler", [
    "dev",
    "--ip",
    "127.0.0.1",
    "--port",
    "0",
    "--inspector-port",
    "0",
    ...NO_ENV_FILE,
    // The sample card in place of the user's (the [alias] of this copy of wrangler.toml), unless a test brings its own config.
    ...(extra.includes("--config") ? [] : ["--config", isolatedWranglerConfig(ROOT, withSampleCard, configDir)]),
    ...(state ? ["--persist-to", state] : []),
    ...extra,
  ]);
  const dev: Started = {
    ...started,
    stop: async () => {
      await started.stop();
      if (state) rmSync(state, { recursive: true, force: true });
      if (configDir) rmSync(configDir, { recursive: true, force: true });
    },
  };
  try {
    const base = await waitForOutput(dev, WRANGLER_READY, "wrangler dev's Ready line");
    await waitForHttp(`${base}/.well-known/agent-card.json`, dev);
    return { dev, base };
  } catch (error) {
    await dev.stop();
    throw error;
  }
}

/** Whether the module at `moduleUrl` (its import.meta.url) is the one node was started with (a support file run as a process). */
export function isMain(moduleUrl: string): boolean {
  const entry = process.argv[1];
  if (!entry) return false;
  try {
    return realpathSync(entry) === realpathSync(fileURLToPath(moduleUrl));
  } catch {
    return false;
  }
}

/** Local state with a set of documents in SKILLS, and how many devs' directories hold a copy of it. */
interface Seeded {
  dir: string;
  state: Promise<string>;
  users: number;
}
const seeded = new Map<string, Seeded>();

/**
 * Local state with `documents` stored in SKILLS (by key), as `wrangler kv bulk put --local` leaves it. Devs that
 * start while one holds the same set copy it instead, and `release` (with the last copy) removes it.
 */
function seededState(documents: Record<string, unknown>): { state: Promise<string>; release: () => void } {
  const key = JSON.stringify(documents);
  let entry = seeded.get(key);
  if (!entry) {
    const dir = mkdtempSync(join(tmpdir(), "kv-seed-"));
    const state = join(dir, "state");
    const texts = Object.fromEntries(Object.entries(documents).map(([name, value]) => [name, JSON.stringify(value)]));
    entry = { dir, state: putLocalKv(state, "SKILLS", texts).then(() => state), users: 0 };
    seeded.set(key, entry);
  }
  entry.users++;
  const held = entry;
  return {
    state: held.state,
    release: () => {
      if (--held.users > 0) return;
      if (seeded.get(key) === held) seeded.delete(key);
      rmSync(held.dir, { recursive: true, force: true });
    },
  };
}

/**
 * A directory of its own for one `wrangler dev` (it reloads when its config file changes): wrangler.toml
 * with `main` absolute plus `extraConfig`, local state with `documents` stored in SKILLS (by key). The
 * arguments that point wrangler dev at it, then `--var` for each of `vars`; `cleanUp` removes it.
 */
export async function wranglerDevDir(
  prefix: string,
  documents: Record<string, unknown>,
  vars: Record<string, string>,
  extraConfig = "",
): Promise<{ args: string[]; cleanUp: () => void }> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  mkdirSync(join(dir, "config"));
  const config = join(dir, "config", "wrangler.toml");
  const toml = readFileSync(join(ROOT, "wrangler.toml"), "utf8").replace(
    /^main = "(.+)"$/m,
    (_l, main: string) => `main = ${JSON.stringify(join(ROOT, main))}`,
  );
  writeFileSync(config, withSampleCard(toml + extraConfig));
  const persist = join(dir, "state");
  let release: () => void = () => undefined;
  if (Object.keys(documents).length > 0) {
    const seed = seededState(documents);
    release = seed.release;
    try {
      cpSync(await seed.state, persist, { recursive: true });
    } catch (error) {
      release();
      throw error;
    }
  }
  const varArgs = Object.entries(vars).flatMap(([name, value]) => ["--var", `${name}:${value}`]);
  const cleanUp = () => {
    rmSync(dir, { recursive: true, force: true });
    release();
  };
  return { args: ["--config", config, "--persist-to", persist, ...varArgs], cleanUp };
}
