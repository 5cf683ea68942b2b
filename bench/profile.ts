// npm run bench:profile — where a call's CPU time goes: the built bundle in workerd under load (wrk or
// autocannon, as the other benches), profiled through workerd's V8 inspector (bench/cpu-profile.ts), in
// the measured configuration of bench:proxy (every feature on: bench/proxy-targets.ts). Prints, per
// target, the top functions and modules by self time in µs per request, the runtime's own share
// ((program): workerd outside JavaScript; (garbage collector)) beside the bundle's.
//   call: a ~1 KiB SendMessage to a fixed-JSON origin (JSON-RPC, native passthrough);
//   card: GET /.well-known/agent-card.json;
//   floor: the same call through the buffering, parsing passthrough (bench:proxy section 1's floor), and
//   bare: through the bare passthrough, so the runtime's own costs (fetch, Response) compare line by line.
// With BENCH_BASELINE=<another build's index.js>, that build is profiled the same way in the same run.
// Each target is profiled BENCH_ROUNDS times, the rounds alternating between targets, and the figures summed.
// BENCH_PROFILE_OUT=<dir> also writes each profile as a .cpuprofile file (DevTools' Performance panel opens it).
import { mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { type Cli, cli } from "../scripts/usage";
import { inspectorUrl, profileWhile, selfTimes, sourceOf } from "./cpu-profile";
import { buildBundle, runBench, serve, stopOnExit } from "./lib";
import { BENCH_KNOBS_USAGE, benchKnobs, load } from "./measure";
import { BARE_PASSTHROUGH, BUFFERING_PASSTHROUGH, fixedJsonOrigin, measuredEdge, sendBody } from "./proxy-targets";

const cmd: Cli = cli(
  "bench:profile",
  `usage: ${BENCH_KNOBS_USAGE} [BENCH_PROFILE_TOP=15] [BENCH_PROFILE_TARGETS=call,card] [BENCH_BASELINE=dir/index.js] [BENCH_PROFILE_OUT=dir] npm run bench:profile`,
);
cmd.parseArgs({ options: {} });
const knobs = benchKnobs(cmd);
const TOP = cmd.intEnv("BENCH_PROFILE_TOP", 15, 1);
const TARGETS = cmd.listEnv("BENCH_PROFILE_TARGETS", ["call", "card", "floor", "bare"] as const) ?? ["call", "card", "floor", "bare"];
const BASELINE = process.env.BENCH_BASELINE || undefined;
const OUT = process.env.BENCH_PROFILE_OUT || undefined;

const headers = { "content-type": "application/json", "a2a-version": "1.0" };
const kib = { method: "POST" as const, body: sendBody("SendMessage", 1024) };

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const us = (value: number) => value.toFixed(1).padStart(8);

type Served = { url: URL; stop: () => Promise<void> };

interface Profiled {
  label: string;
  target: { name: string; path: string; call: boolean };
  socket: string;
  url: string;
  sourceAt: ReturnType<typeof sourceOf>;
  /** Summed over the rounds. */
  requests: number;
  seconds: number;
  busy: number;
  modules: Map<string, number>;
  functions: Map<string, { name: string; where: string; us: number }>;
}

/** Starts a worker with its inspector, and registers each of its targets for profiling. */
async function register(
  into: Profiled[],
  label: string,
  start: (port: number) => Promise<Served>,
  sourceAt: ReturnType<typeof sourceOf>,
  targets: Array<Profiled["target"]>,
): Promise<void> {
  const port = await freePort();
  const served = await start(port);
  stopOnExit(served.stop);
  const socket = await inspectorUrl(port, "edge");
  for (const target of targets) {
    const url = new URL(target.path, served.url).href;
    into.push({ label, target, socket, url, sourceAt, requests: 0, seconds: 0, busy: 0, modules: new Map(), functions: new Map() });
  }
}

/** One profile of one target under load, added to its sums. */
async function profileRound(entry: Profiled, round: number): Promise<void> {
  const sent = entry.target.call ? headers : {};
  const opts = entry.target.call ? { request: kib } : {};
  if (round === 0) await load(entry.url, sent, { ...opts, duration: 1 }); // warm: compiled, cached
  const { profile, result } = await profileWhile(entry.socket, () => load(entry.url, sent, opts));
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${entry.label} ${entry.target.name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  if (OUT) {
    mkdirSync(OUT, { recursive: true });
    writeFileSync(
      join(OUT, `${entry.label.replaceAll(/[ ,]+/g, "-")}-${entry.target.name}-${round + 1}.cpuprofile`),
      JSON.stringify(profile),
    );
  }
  const times = selfTimes(profile, entry.sourceAt);
  entry.requests += result.total;
  entry.seconds += knobs.duration;
  entry.busy += times.busy;
  for (const { where, us } of times.modules) entry.modules.set(where, (entry.modules.get(where) ?? 0) + us);
  for (const fn of times.functions) {
    const key = `${fn.name} ${fn.where}`;
    const sum = entry.functions.get(key) ?? { ...fn, us: 0 };
    sum.us += fn.us;
    entry.functions.set(key, sum);
  }
}

function report(entry: Profiled): void {
  const per = (value: number) => value / entry.requests;
  const share = (value: number) => `${((100 * value) / entry.busy).toFixed(1).padStart(5)}%`;
  console.log(
    `\n${entry.label}, ${entry.target.name}: ${entry.requests} requests over ${knobs.rounds} rounds (${(entry.requests / entry.seconds).toFixed(0)} req/s profiled, ${knobs.connections} connections); busy ${per(entry.busy).toFixed(1)} µs per request`,
  );
  console.log(`${"µs/req".padStart(8)} ${"share".padStart(6)}  module`);
  for (const [where, time] of [...entry.modules].sort((a, b) => b[1] - a[1]).slice(0, TOP)) {
    console.log(`${us(per(time))} ${share(time)}  ${where}`);
  }
  console.log(`${"µs/req".padStart(8)} ${"share".padStart(6)}  function (self time)`);
  for (const { name, where, us: time } of [...entry.functions.values()].sort((a, b) => b.us - a.us).slice(0, TOP)) {
    console.log(`${us(per(time))} ${share(time)}  ${name}  ${where}`);
  }
}

const edgeTargets = TARGETS.filter((t) => t === "call" || t === "card").map((name) => ({
  name,
  path: name === "call" ? "/" : "/.well-known/agent-card.json",
  call: name === "call",
}));
const inlineScript = () => ({ where: "(the passthrough)" });

await runBench(async () => {
  const bundle = buildBundle();
  const fixed = await fixedJsonOrigin();
  stopOnExit(fixed.close);
  console.log(
    `bench:profile — ${knobs.rounds} rounds x ${knobs.duration}s per target, ${knobs.tool}, V8 sampling every 100 µs through workerd's inspector`,
  );
  const entries: Profiled[] = [];
  for (const [name, script] of [
    ["floor", BUFFERING_PASSTHROUGH],
    ["bare", BARE_PASSTHROUGH],
  ] as const) {
    if (!TARGETS.includes(name)) continue;
    const start = (inspectorPort: number) =>
      serve({ modules: true, script, name: "edge", inspectorPort, bindings: { ORIGIN_URL: fixed.url } } as never);
    const label = `${name === "floor" ? "buffering, parsing" : "bare"} passthrough`;
    await register(entries, label, start, inlineScript, [{ name: "call", path: "/", call: true }]);
  }
  const builds: Array<[string, string]> = [["this build", bundle.path], ...(BASELINE ? [["baseline", BASELINE] as [string, string]] : [])];
  for (const [label, path] of edgeTargets.length > 0 ? builds : []) {
    const start = (inspectorPort: number) => measuredEdge({ path }, fixed.url, { inspectorPort, name: "edge" });
    await register(entries, label, start, sourceOf(path), edgeTargets);
  }
  // Rounds alternate between the targets, as sideBySide's loads do: a machine's drift falls on all of them.
  for (let round = 0; round < knobs.rounds; round++) for (const entry of entries) await profileRound(entry, round);
  for (const entry of entries) report(entry);
  return 0;
});
