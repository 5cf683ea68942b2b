// Shared bench plumbing: the built bundle (as deployed), served by workerd via
// Miniflare directly (not `wrangler dev`), and stopping all a bench started
// however it ends. Load tools and their knobs: measure.ts.
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { get as httpGet } from "node:http";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { gzipSync } from "node:zlib";
import type { Miniflare, V4MiniflareOptions } from "miniflare";
import { stopStarted } from "../test/support/processes";

export const ROOT = new URL("../", import.meta.url).pathname;

// ---- stopping what a bench started, on every way out ----

const stops = new Set<() => Promise<void>>();

/**
 * Registers `stop` to run when the bench ends (runBench). Returns it made
 * run-once: calling it stops now and forgets it, so a bench that stops a
 * server early does not stop it twice.
 */
export function stopOnExit(stop: () => unknown): () => Promise<void> {
  let done: Promise<void> | undefined;
  const once = () => {
    stops.delete(once);
    done ??= Promise.resolve()
      .then(stop)
      .then(() => undefined);
    return done;
  };
  stops.add(once);
  return once;
}

/** Newest first (a worker before the origin it calls); one that fails does not keep the rest running. */
async function stopAll(): Promise<void> {
  for (const stop of [...stops].reverse()) {
    await stop().catch((error: unknown) => process.stderr.write(`while stopping: ${(error as Error).message}\n`));
  }
  // Processes started in their own group (test/support/processes.ts) never see a terminal's Ctrl-C.
  await stopStarted();
}

/** 128 + the signal's number, as a shell reports a process ended by it. */
const SIGNAL_EXIT = { SIGINT: 130, SIGTERM: 143 } as const;
const STOP_DEADLINE_MS = 10_000;
/** runBench's own listeners, by signal; none outside a bench (a test process keeps its runner's). */
const signalListeners = new Map<string, () => void>();

/**
 * Miniflare's exit hook answers SIGINT/SIGTERM with process.exit at once,
 * which would cut the stops short (the origin process left running): in a
 * bench, only runBench's listeners stay. Its "exit" listener stays too, and
 * still disposes workerd should the process end some other way.
 */
function keepSignalsOurs(): void {
  for (const [signal, ours] of signalListeners) {
    for (const listener of process.listeners(signal as NodeJS.Signals)) {
      if (listener !== ours) process.off(signal, listener);
    }
  }
}

/**
 * Runs a bench's main and then stops everything registered with stopOnExit
 * (and every process started with start()), whatever happened: it ended
 * (exit with its code, 0 by default), it threw (the error printed, exit 1),
 * or SIGINT/SIGTERM arrived (exit 130/143). A stop that hangs is given
 * STOP_DEADLINE_MS, then the process exits anyway.
 */
export async function runBench(main: () => Promise<number | undefined>): Promise<void> {
  let exiting = false;
  const exit = async (code: number) => {
    // The first way out wins: Ctrl-C pressed again while stopping changes nothing (the deadline bounds the wait).
    if (exiting) return;
    exiting = true;
    setTimeout(() => {
      process.stderr.write(`stopping took over ${STOP_DEADLINE_MS / 1000} s; exiting anyway\n`);
      process.exit(code);
    }, STOP_DEADLINE_MS);
    await stopAll();
    process.exit(code);
  };
  for (const [signal, code] of Object.entries(SIGNAL_EXIT)) {
    const listener = () => {
      if (!exiting) process.stderr.write(`\n${signal}: stopping what this bench started\n`);
      void exit(code);
    };
    signalListeners.set(signal, listener);
    process.on(signal, listener);
  }
  let code = 1;
  try {
    code = (await main()) ?? 0;
  } catch (error) {
    // After a signal, main fails because its servers are gone: not news.
    if (!exiting) console.error(error);
  }
  await exit(code);
}

/** A temp dir, removed when the bench ends. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  stopOnExit(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

// ---- the worker as deployed ----

/** `npm run build` (of `root`, by default this checkout) into a temp dir; returns the bundle path and its gzip size. */
export function buildBundle(root = ROOT): { path: string; bytes: number; gzipBytes: number } {
  const outdir = tempDir("bench-bundle-");
  execFileSync(join(ROOT, "node_modules/.bin/wrangler"), ["deploy", "--dry-run", "--outdir", outdir], {
    cwd: root,
    env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
    stdio: "ignore",
  });
  const path = join(outdir, "index.js");
  const code = readFileSync(path);
  return { path, bytes: code.length, gzipBytes: gzipSync(code, { level: 9 }).length };
}

/** A source edit: `from`, which must occur exactly once in `file`, becomes `to`. */
export interface SourceEdit {
  file: string;
  from: string;
  to: string;
}

/** The worker built from a copy of this checkout with `edits` applied (what the bundle needs: src/, its config, the card). */
export function buildEdited(edits: readonly SourceEdit[]): { path: string; bytes: number; gzipBytes: number } {
  const copy = tempDir("bench-source-");
  for (const entry of ["src", "wrangler.toml", "package.json", "tsconfig.json", "skills.json"]) {
    cpSync(join(ROOT, entry), join(copy, entry), { recursive: true });
  }
  symlinkSync(join(ROOT, "node_modules"), join(copy, "node_modules"));
  for (const { file, from, to } of edits) {
    const path = join(copy, file);
    const source = readFileSync(path, "utf8");
    const at = source.indexOf(from);
    if (at < 0 || source.indexOf(from, at + 1) >= 0) throw new Error(`${file}: ${JSON.stringify(from)} does not occur exactly once`);
    writeFileSync(path, source.slice(0, at) + to + source.slice(at + from.length));
  }
  return buildBundle(copy);
}

/** The compatibility_date of wrangler.toml: the benches run the runtime the worker is deployed with. */
export function wranglerCompatibilityDate(): string {
  const date = /^compatibility_date\s*=\s*"([^"]+)"/m.exec(readFileSync(join(ROOT, "wrangler.toml"), "utf8"))?.[1];
  if (!date) throw new Error("wrangler.toml has no compatibility_date");
  return date;
}

/** The [vars] of wrangler.toml, as wrangler would bind them. */
export function wranglerVars(): Record<string, string> {
  const toml = readFileSync(join(ROOT, "wrangler.toml"), "utf8");
  const section = toml.split(/^\[vars\]\s*$/m)[1]?.split(/^\[/m)[0] ?? "";
  return Object.fromEntries([...section.matchAll(/^(\w+)\s*=\s*"([^"]*)"/gm)].map((m) => [m[1]!, m[2]!]));
}

/** The Durable Object bindings of wrangler.toml, as Miniflare declares them (each class is in new_sqlite_classes). */
export function wranglerDurableObjects(): Record<string, { className: string; useSQLite: true }> {
  const toml = readFileSync(join(ROOT, "wrangler.toml"), "utf8");
  const blocks = toml.split(/^\[\[durable_objects\.bindings\]\]\s*$/m).slice(1);
  return Object.fromEntries(
    blocks.map((block) => {
      const [name, className] = [/^name\s*=\s*"(\w+)"/m, /^class_name\s*=\s*"(\w+)"/m].map((pattern) => pattern.exec(block)?.[1]);
      if (!name || !className) throw new Error(`wrangler.toml: a Durable Object binding without name or class_name: ${block}`);
      return [name, { className, useSQLite: true as const }];
    }),
  );
}

/**
 * The workers' log lines, as Miniflare prints them, but for the bundled sample's warning: every fresh isolate
 * of the bundle (each target, each cold-start sample) says once that it serves the sample skills.json.
 */
function benchLogs({ level, message }: { level: string; message: string }): void {
  if (message.includes('"event":"bundled_document_sample"')) return;
  if (level === "error" || level === "warn") console.error(message);
  else console.log(message);
}

/**
 * One worker in workerd, reached on a direct socket (no Miniflare entry worker
 * in the path, as on Cloudflare where the request goes straight to the isolate).
 * Stopped when the bench ends, if not before.
 */
export async function serve(options: V4MiniflareOptions): Promise<{ url: URL; mf: Miniflare; stop: () => Promise<void> }> {
  // Loaded here, not at the top: importing Miniflare takes ~0.7 s of CPU, which a bench refusing a bad
  // option (or printing its usage) would pay before saying so.
  const { convertV4MiniflareOptions, Miniflare } = await import("miniflare");
  // Miniflare 5 takes its own options shape; the single-worker (v4) form is converted, as wrangler does.
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      host: "127.0.0.1",
      port: 0,
      compatibilityDate: wranglerCompatibilityDate(),
      unsafeDirectSockets: [{ host: "127.0.0.1", port: 0 }],
      handleStructuredLogs: benchLogs,
      ...options,
    } as V4MiniflareOptions),
  );
  keepSignalsOurs();
  // Registered before waiting: workerd is already starting.
  const stop = stopOnExit(() => mf.dispose());
  await mf.ready;
  const url = await mf.unsafeGetDirectURL();
  return { url, mf, stop };
}

/** The built bundle as deployed: wrangler.toml [vars] plus `bindings`, an empty SKILLS namespace. */
export function serveBundle(bundle: { path: string }, bindings: Record<string, string> = {}, options: Record<string, unknown> = {}) {
  return serve({
    modules: true,
    scriptPath: bundle.path,
    modulesRoot: dirname(bundle.path),
    kvNamespaces: ["SKILLS"],
    bindings: { ...wranglerVars(), ...bindings },
    ...options,
  } as V4MiniflareOptions);
}

/** A GET with its own Host header (fetch may not set one): the body. */
export function getWithHost(url: string, host: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const request = httpGet(url, { headers: { host } }, (response) => {
      let text = "";
      response.on("data", (chunk) => (text += chunk));
      response.on("end", () => resolve(text));
    });
    request.on("error", reject);
  });
}
