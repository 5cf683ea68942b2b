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

/** Profiles `targets` (each a URL under the served worker, and its request) while loading them. */
async function profileOne(
  label: string,
  start: (port: number) => Promise<Served>,
  sourceAt: ReturnType<typeof sourceOf>,
  targets: Array<{ name: string; path: string; call: boolean }>,
): Promise<void> {
  const port = await freePort();
  const served = await start(port);
  const socket = await inspectorUrl(port, "edge");
  for (const target of targets) {
    const url = new URL(target.path, served.url).href;
    const sent = target.call ? headers : {};
    const opts = target.call ? { request: kib } : {};
    await load(url, sent, { ...opts, duration: 1 }); // warm: compiled, cached
    const { profile, result } = await profileWhile(socket, () => load(url, sent, opts));
    if (result.non2xx > 0 || result.errors > 0)
      throw new Error(`${label} ${target.name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
    if (OUT) {
      mkdirSync(OUT, { recursive: true });
      writeFileSync(join(OUT, `${label.replaceAll(" ", "-")}-${target.name}.cpuprofile`), JSON.stringify(profile));
    }
    const times = selfTimes(profile, sourceAt);
    const per = (value: number) => value / result.total;
    console.log(
      `\n${label}, ${target.name}: ${result.total} requests (${result.requestsPerSecond.toFixed(0)} req/s profiled, ${knobs.connections} connections); busy ${per(times.busy).toFixed(1)} µs per request`,
    );
    console.log(`${"µs/req".padStart(8)} ${"share".padStart(6)}  module`);
    for (const { where, us: time } of times.modules.slice(0, TOP)) {
      console.log(`${us(per(time))} ${((100 * time) / times.busy).toFixed(1).padStart(5)}%  ${where}`);
    }
    console.log(`${"µs/req".padStart(8)} ${"share".padStart(6)}  function (self time)`);
    for (const { name, where, us: time } of times.functions.slice(0, TOP)) {
      console.log(`${us(per(time))} ${((100 * time) / times.busy).toFixed(1).padStart(5)}%  ${name}  ${where}`);
    }
  }
  await served.stop();
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
  console.log(`bench:profile — ${knobs.duration}s per profile, ${knobs.tool}, V8 sampling every 100 µs through workerd's inspector`);
  for (const [name, script] of [
    ["floor", BUFFERING_PASSTHROUGH],
    ["bare", BARE_PASSTHROUGH],
  ] as const) {
    if (!TARGETS.includes(name)) continue;
    const start = (inspectorPort: number) =>
      serve({ modules: true, script, name: "edge", inspectorPort, bindings: { ORIGIN_URL: fixed.url } } as never);
    await profileOne(`${name === "floor" ? "buffering, parsing" : "bare"} passthrough`, start, inlineScript, [
      { name: "call", path: "/", call: true },
    ]);
  }
  const builds: Array<[string, string]> = [["this build", bundle.path], ...(BASELINE ? [["baseline", BASELINE] as [string, string]] : [])];
  for (const [label, path] of edgeTargets.length > 0 ? builds : []) {
    const start = (inspectorPort: number) => measuredEdge({ path }, fixed.url, { inspectorPort, name: "edge" });
    await profileOne(label, start, sourceOf(path), edgeTargets);
  }
  return 0;
});
