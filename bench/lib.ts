// Shared bench plumbing: the built bundle (as deployed), served by workerd via
// Miniflare directly (not `wrangler dev`), loaded with autocannon on 127.0.0.1.
import { execFile, execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { gzipSync } from "node:zlib";
import autocannon from "autocannon";
import { Miniflare, type MiniflareOptions } from "miniflare";

export const ROOT = new URL("../", import.meta.url).pathname;
export const DURATION_S = Number(process.env.BENCH_DURATION ?? 5);
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);

/** `npm run build` into a temp dir; returns the bundle path and its gzip size. */
export function buildBundle(): { path: string; bytes: number; gzipBytes: number } {
  const outdir = mkdtempSync(join(tmpdir(), "bench-bundle-"));
  execFileSync(join(ROOT, "node_modules/.bin/wrangler"), ["deploy", "--dry-run", "--outdir", outdir], {
    cwd: ROOT,
    env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
    stdio: "ignore",
  });
  const path = join(outdir, "index.js");
  const code = readFileSync(path);
  return { path, bytes: code.length, gzipBytes: gzipSync(code, { level: 9 }).length };
}

/** The [vars] of wrangler.toml, as wrangler would bind them. */
export function wranglerVars(): Record<string, string> {
  const toml = readFileSync(join(ROOT, "wrangler.toml"), "utf8");
  const section = toml.split(/^\[vars\]\s*$/m)[1]?.split(/^\[/m)[0] ?? "";
  return Object.fromEntries([...section.matchAll(/^(\w+)\s*=\s*"([^"]*)"/gm)].map((m) => [m[1]!, m[2]!]));
}

/**
 * One worker in workerd, reached on a direct socket (no Miniflare entry worker
 * in the path, as on Cloudflare where the request goes straight to the isolate).
 */
export async function serve(options: MiniflareOptions): Promise<{ url: URL; mf: Miniflare; stop: () => Promise<void> }> {
  const mf = new Miniflare({
    host: "127.0.0.1",
    port: 0,
    compatibilityDate: "2026-05-01",
    unsafeDirectSockets: [{ host: "127.0.0.1", port: 0 }],
    ...options,
  } as MiniflareOptions);
  await mf.ready;
  const url = await mf.unsafeGetDirectURL();
  return { url, mf, stop: () => mf.dispose() };
}

/** The built bundle as deployed: wrangler.toml [vars] plus `bindings`, an empty SKILLS namespace. */
export function serveBundle(bundle: { path: string }, bindings: Record<string, string> = {}) {
  return serve({
    modules: true,
    scriptPath: bundle.path,
    modulesRoot: dirname(bundle.path),
    kvNamespaces: ["SKILLS"],
    bindings: { ...wranglerVars(), ...bindings },
  });
}

export interface Load {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  total: number;
  non2xx: number;
  errors: number;
}

/**
 * wrk (C, Debian package `wrk`) when installed: autocannon runs in Node and
 * saturates first, so it measures its own header parsing more than the worker.
 */
export const LOAD_TOOL = process.env.BENCH_TOOL ?? (hasWrk() ? "wrk" : "autocannon");

function hasWrk(): boolean {
  try {
    execFileSync("wrk", ["--version"], { stdio: "ignore" });
    return true;
  } catch (error) {
    // wrk --version exits 1 after printing its banner.
    return (error as { status?: number }).status === 1;
  }
}

function wrkMs(value: string, unit: string): number {
  return Number(value) * ({ us: 0.001, ms: 1, s: 1000, m: 60_000 }[unit] ?? NaN);
}

/** A wrk Lua script file. */
function luaFile(lua: string): string {
  const path = join(mkdtempSync(join(tmpdir(), "bench-wrk-")), "request.lua");
  writeFileSync(path, lua);
  return path;
}

/** Lua that sends `body` with `method` (wrk itself only does GET). */
const requestLua = (method: string, body: string) => `wrk.method = ${JSON.stringify(method)}\nwrk.body = ${JSON.stringify(body)}\n`;

async function wrk(url: string, headers: Record<string, string>, connections: number, duration: number, opts: LoadOptions): Promise<Load> {
  const lua = opts.lua ?? (opts.request ? requestLua(opts.request.method, opts.request.body) : undefined);
  const script = lua ? ["-s", luaFile(lua)] : [];
  const args = [
    "-t1",
    `-c${connections}`,
    `-d${duration}s`,
    "--latency",
    ...script,
    ...Object.entries(headers).flatMap(([k, v]) => ["-H", `${k}: ${v}`]),
    url,
  ];
  const out = await new Promise<string>((resolve, reject) =>
    execFile("wrk", args, (error, stdout) => (error ? reject(error) : resolve(stdout))),
  );
  const latency = (p: string) => {
    const m = out.match(new RegExp(`^\\s+${p}%\\s+([\\d.]+)(us|ms|s|m)\\s*$`, "m"));
    return m ? wrkMs(m[1]!, m[2]!) : NaN;
  };
  const errors = out.match(/Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/);
  return {
    requestsPerSecond: Number(out.match(/Requests\/sec:\s+([\d.]+)/)?.[1] ?? NaN),
    p50: latency("50"),
    p99: latency("99"),
    total: Number(out.match(/(\d+) requests in/)?.[1] ?? NaN),
    non2xx: Number(out.match(/Non-2xx or 3xx responses: (\d+)/)?.[1] ?? 0),
    errors: errors ? errors.slice(1).reduce((a, n) => a + Number(n), 0) : 0,
  };
}

export interface LoadOptions {
  connections?: number;
  duration?: number;
  /** A POST (or other) request instead of GET. */
  request?: { method: "POST" | "PUT"; body: string };
  /** A whole wrk Lua script (wrk only), e.g. one that varies the Host header per request. */
  lua?: string;
}

export async function load(url: string, headers: Record<string, string> = {}, opts: LoadOptions = {}): Promise<Load> {
  const connections = opts.connections ?? CONNECTIONS;
  const duration = opts.duration ?? DURATION_S;
  if (LOAD_TOOL === "wrk") return wrk(url, headers, connections, duration, opts);
  if (opts.lua) throw new Error("this load needs wrk (apt-get install wrk)");
  const result = await autocannon({ url, headers, connections, duration, ...(opts.request ?? {}) });
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

/** Alternates the targets round by round so drift hits both alike; returns the mean per target. */
export async function sideBySide(targets: Record<string, () => Promise<Load>>): Promise<Record<string, Load>> {
  const runs: Record<string, Load[]> = Object.fromEntries(Object.keys(targets).map((k) => [k, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, fn] of Object.entries(targets)) runs[name]!.push(await fn());
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  return Object.fromEntries(
    Object.entries(runs).map(([name, rs]) => [
      name,
      {
        requestsPerSecond: mean(rs.map((r) => r.requestsPerSecond)),
        p50: mean(rs.map((r) => r.p50)),
        p99: mean(rs.map((r) => r.p99)),
        total: rs.reduce((a, r) => a + r.total, 0),
        non2xx: rs.reduce((a, r) => a + r.non2xx, 0),
        errors: rs.reduce((a, r) => a + r.errors, 0),
      },
    ]),
  );
}

/**
 * One goal, said plainly: the figure, the goal and whether this run met it.
 * Benches never fail on timing; the reader is never left to guess either.
 */
export function verdict(name: string, figure: string, goal: string, met: boolean): void {
  console.log(`${name}: figure ${figure}; goal ${goal}; met: ${met ? "yes" : "no"}`);
}

export function printTable(rows: Record<string, Load>): void {
  console.log(
    "target".padEnd(28),
    "req/s".padStart(10),
    "p50 ms".padStart(8),
    "p99 ms".padStart(8),
    "requests".padStart(10),
    "non2xx".padStart(7),
    "errors".padStart(7),
  );
  for (const [name, r] of Object.entries(rows)) {
    console.log(
      name.padEnd(28),
      r.requestsPerSecond.toFixed(0).padStart(10),
      r.p50.toFixed(1).padStart(8),
      r.p99.toFixed(1).padStart(8),
      String(r.total).padStart(10),
      String(r.non2xx).padStart(7),
      String(r.errors).padStart(7),
    );
  }
}
