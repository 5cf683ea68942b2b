// Load on 127.0.0.1 and how its figures are shown: wrk or autocannon, rounds
// alternated between targets, goals said plainly. The knobs (BENCH_*) are
// read and checked once, by benchKnobs, before a bench starts anything.
import { execFile, execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import autocannon from "autocannon";
import type { Cli } from "../scripts/usage";
import { tempDir } from "./lib";

export interface BenchKnobs {
  /** BENCH_DURATION: seconds per load. */
  duration: number;
  /** BENCH_ROUNDS: rounds of sideBySide. */
  rounds: number;
  /** BENCH_CONNECTIONS: connections per load unless a bench says otherwise. */
  connections: number;
  /** BENCH_TOOL, else wrk when installed. */
  tool: "wrk" | "autocannon";
}

/** The usage line's part for these knobs. */
export const BENCH_KNOBS_USAGE = "[BENCH_DURATION=5] [BENCH_ROUNDS=4] [BENCH_CONNECTIONS=16] [BENCH_TOOL=wrk|autocannon]";

let knobs: BenchKnobs | undefined;

/** Reads the BENCH_* knobs for load() and sideBySide(); a wrong one is a usage error (exit 2). */
export function benchKnobs(cmd: Cli): BenchKnobs {
  const duration = cmd.intEnv("BENCH_DURATION", 5, 1);
  const rounds = cmd.intEnv("BENCH_ROUNDS", 4, 1);
  const connections = cmd.intEnv("BENCH_CONNECTIONS", 16, 1);
  const chosen = cmd.choiceEnv("BENCH_TOOL", ["wrk", "autocannon"] as const);
  const wrkInstalled = hasWrk();
  if (chosen === "wrk" && !wrkInstalled) cmd.usageError("BENCH_TOOL=wrk, but wrk is not installed (apt-get install wrk)");
  // wrk (C) when installed: autocannon runs in Node and saturates first, so it measures its own header parsing more than the worker.
  knobs = { duration, rounds, connections, tool: chosen ?? (wrkInstalled ? "wrk" : "autocannon") };
  return knobs;
}

function knobsRead(): BenchKnobs {
  if (!knobs) throw new Error("benchKnobs() must run first: the knobs are checked before anything starts");
  return knobs;
}

export interface Load {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  total: number;
  non2xx: number;
  errors: number;
  /** The serving workerd's CPU time per request, in µs (bench/cpu.ts withCpu), where the bench takes it. */
  cpuMicrosPerRequest?: number;
}

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
  const path = join(tempDir("bench-wrk-"), "request.lua");
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
  const { tool, ...defaults } = knobsRead();
  const connections = opts.connections ?? defaults.connections;
  const duration = opts.duration ?? defaults.duration;
  if (tool === "wrk") return wrk(url, headers, connections, duration, opts);
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
  const { rounds } = knobsRead();
  for (let round = 0; round < rounds; round++) {
    for (const [name, fn] of Object.entries(targets)) runs[name]!.push(await fn());
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
  return Object.fromEntries(
    Object.entries(runs).map(([name, rs]) => [
      name,
      {
        // CPU per request: the median round (one round on a busy core does not move it).
        ...(rs.every((r) => r.cpuMicrosPerRequest !== undefined)
          ? { cpuMicrosPerRequest: median(rs.map((r) => r.cpuMicrosPerRequest ?? 0)) }
          : {}),
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
  const width = Math.max(28, ...Object.keys(rows).map((name) => name.length + 1));
  console.log(
    "target".padEnd(width),
    "req/s".padStart(10),
    "p50 ms".padStart(8),
    "p99 ms".padStart(8),
    "requests".padStart(10),
    "non2xx".padStart(7),
    "errors".padStart(7),
    "CPU µs/req".padStart(11),
  );
  for (const [name, r] of Object.entries(rows)) {
    console.log(
      name.padEnd(width),
      r.requestsPerSecond.toFixed(0).padStart(10),
      r.p50.toFixed(1).padStart(8),
      r.p99.toFixed(1).padStart(8),
      String(r.total).padStart(10),
      String(r.non2xx).padStart(7),
      String(r.errors).padStart(7),
      (r.cpuMicrosPerRequest === undefined ? "-" : r.cpuMicrosPerRequest.toFixed(1)).padStart(11),
    );
  }
}
