// npm run bench:scale — how cost grows, on the built bundle in workerd
// (Miniflare, direct socket), one table per dimension:
//  - card first-build time and steady req/s for documents of 10, 100 and 1,000 skills;
//  - steady card req/s across 1, 100 and 10,000 distinct hosts (memo eviction included);
//  - proxy p50 for 1 KiB, 100 KiB and 1 MiB bodies, this worker against a bare passthrough;
//  - cold start (process start to the first response of a fresh isolate), this worker against a static-bytes worker.
// Each goal is printed with the figure and whether this run met it.
import { type Cli, cli } from "../scripts/usage";
import { buildBundle, runBench, serve, serveBundle, stopOnExit } from "./lib";
import { BENCH_KNOBS_USAGE, benchKnobs, load, verdict } from "./measure";
import { BARE_PASSTHROUGH, fixedJsonOrigin, sendBody } from "./proxy-targets";

// BENCH_ROUNDS and BENCH_CONNECTIONS are read too: the defaults of load().
const cmd: Cli = cli("bench:scale", `usage: ${BENCH_KNOBS_USAGE} npm run bench:scale`);
cmd.parseArgs({ options: {} });
const knobs = benchKnobs(cmd);

const CARD_PATH = "/.well-known/agent-card.json";
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (n: number) => `${n.toFixed(2)} ms`;

function skillsDocument(count: number): string {
  const skills = Array.from({ length: count }, (_, i) => ({
    name: `Skill ${String(i).padStart(4, "0")}`,
    description: `Does task number ${i} for the caller, with a description of ordinary length.`,
    tags: ["bench", `t${i % 10}`],
    examples: [`Please do task ${i}`],
  }));
  return JSON.stringify({ name: "Scale Agent", skills });
}

/** One GET, timed from the client. */
async function timedGet(url: string, headers: Record<string, string> = {}): Promise<number> {
  const started = performance.now();
  const response = await fetch(url, { headers });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`HTTP ${response.status} from ${url}`);
  return performance.now() - started;
}

async function cardBySkills(bundle: { path: string }): Promise<void> {
  console.log("\ncard by document size (hybrid card, one host)");
  console.log("skills".padStart(7), "body KiB".padStart(9), "first build".padStart(12), "req/s".padStart(9), "304 req/s".padStart(10));
  const steady: Record<number, { rps: number; revalidated: number; build: number }> = {};
  for (const count of [10, 100, 1000]) {
    // A trusted prefix makes a new public base (and so a new build) without a new host (no new KV read).
    const worker = await serveBundle(bundle, { TRUST_FORWARDED_HEADERS: "true", KV_CACHE_TTL: "86400" });
    try {
      await (await worker.mf.getKVNamespace("SKILLS")).put("default", skillsDocument(count));
      const url = new URL(CARD_PATH, worker.url).href;
      const body = await (await fetch(url)).text();
      const builds: number[] = [];
      for (let i = 0; i < 15; i++) {
        const prefix = { "x-forwarded-prefix": `/p${i}` };
        const first = await timedGet(url, prefix);
        const again = await timedGet(url, prefix);
        builds.push(first - again);
      }
      await load(url, {}, { duration: 1 });
      const full = await load(url);
      const etag = (await fetch(url)).headers.get("etag")!;
      const revalidated = await load(url, { "if-none-match": etag });
      steady[count] = { rps: full.requestsPerSecond, revalidated: revalidated.requestsPerSecond, build: median(builds) };
      console.log(
        String(count).padStart(7),
        (body.length / 1024).toFixed(1).padStart(9),
        ms(median(builds)).padStart(12),
        full.requestsPerSecond.toFixed(0).padStart(9),
        revalidated.requestsPerSecond.toFixed(0).padStart(10),
      );
    } finally {
      await worker.stop();
    }
  }
  verdict("1,000-skill first build (median of 15)", ms(steady[1000]!.build), "<= 50 ms", steady[1000]!.build <= 50);
  const revalidatedRatio = steady[1000]!.revalidated / steady[10]!.revalidated;
  verdict(
    "steady card req/s, 1,000 vs 10 skills, revalidations (304: the per-request work, without the body)",
    revalidatedRatio.toFixed(3),
    ">= 0.9",
    revalidatedRatio >= 0.9,
  );
  const fullRatio = steady[1000]!.rps / steady[10]!.rps;
  verdict(
    "steady card req/s, 1,000 vs 10 skills, full bodies (bytes on the wire grow ~100x)",
    fullRatio.toFixed(3),
    ">= 0.9",
    fullRatio >= 0.9,
  );
}

/** wrk Lua: each request names one of `hosts` hosts in turn. */
const rotatingHosts = (hosts: number) => `counter = 0
request = function()
  counter = counter + 1
  return wrk.format("GET", "${CARD_PATH}", { ["Host"] = "h" .. (counter % ${hosts}) .. ".example.com" })
end
`;

async function cardByHosts(bundle: { path: string }): Promise<void> {
  if (knobs.tool !== "wrk") {
    console.log("\ncard by host count: skipped, it needs wrk to vary the Host header (apt-get install wrk)");
    return;
  }
  console.log("\ncard by distinct hosts (bundled document, empty KV)");
  console.log("hosts".padStart(7), "req/s".padStart(9), "p50 ms".padStart(8), "p99 ms".padStart(8));
  for (const hosts of [1, 100, 10_000]) {
    const worker = await serveBundle(bundle);
    try {
      const url = new URL(CARD_PATH, worker.url).href;
      await load(url, {}, { duration: 1, lua: rotatingHosts(hosts) });
      const r = await load(url, {}, { lua: rotatingHosts(hosts) });
      console.log(
        String(hosts).padStart(7),
        r.requestsPerSecond.toFixed(0).padStart(9),
        r.p50.toFixed(2).padStart(8),
        r.p99.toFixed(2).padStart(8),
      );
    } finally {
      await worker.stop();
    }
  }
}

async function proxyByBodySize(bundle: { path: string }): Promise<void> {
  console.log("\nproxy p50 by body size (fixed-JSON origin, 4 connections)");
  console.log("body".padStart(8), "bare p50".padStart(9), "worker p50".padStart(11), "added".padStart(9));
  const origin = await fixedJsonOrigin();
  const closeOrigin = stopOnExit(origin.close);
  const bare = await serve({ modules: true, script: BARE_PASSTHROUGH, bindings: { ORIGIN_URL: origin.url } });
  const edge = await serveBundle(bundle, { ORIGIN_URL: origin.url, MAX_BODY_BYTES: String(2 * 1024 * 1024), EDGE_AUTH: "off" });
  const headers = { "content-type": "application/json", "a2a-version": "1.0" };
  let added1MiB = Number.NaN;
  try {
    for (const [label, bytes] of [
      ["1 KiB", 1024],
      ["100 KiB", 100 * 1024],
      ["1 MiB", 1024 * 1024],
    ] as const) {
      const request = { method: "POST" as const, body: sendBody("SendMessage", bytes) };
      const reply = (await (await fetch(edge.url, { method: "POST", headers, body: request.body })).json()) as { result?: unknown };
      if (!reply.result) throw new Error(`no result for ${label}`);
      const rounds: Array<[number, number]> = [];
      for (let i = 0; i < 2; i++) {
        const b = await load(bare.url.href, headers, { request, connections: 4 });
        const w = await load(edge.url.href, headers, { request, connections: 4 });
        rounds.push([b.p50, w.p50]);
      }
      const b = rounds.reduce((s, r) => s + r[0], 0) / rounds.length;
      const w = rounds.reduce((s, r) => s + r[1], 0) / rounds.length;
      if (label === "1 MiB") added1MiB = w - b;
      console.log(label.padStart(8), ms(b).padStart(9), ms(w).padStart(11), ms(w - b).padStart(9));
    }
  } finally {
    await edge.stop();
    await bare.stop();
    await closeOrigin();
  }
  verdict("1 MiB body: p50 added over bare passthrough", ms(added1MiB), "<= 5 ms", added1MiB <= 5);
}

async function coldStart(bundle: { path: string }): Promise<void> {
  console.log("\ncold start: process start to the first response of a fresh isolate (10 samples each, alternating)");
  const body = await (async () => {
    const w = await serveBundle(bundle);
    const text = await (await fetch(new URL(CARD_PATH, w.url))).text();
    await w.stop();
    return text;
  })();
  const staticScript = `const body = new TextEncoder().encode(${JSON.stringify(body)});
export default { fetch() { return new Response(body, { headers: { "content-type": "application/json" } }); } };`;
  const samples = { worker: [] as number[], workerFirst: [] as number[], static: [] as number[], staticFirst: [] as number[] };
  for (let i = 0; i < 10; i++) {
    for (const kind of ["worker", "static"] as const) {
      const started = performance.now();
      // The same bindings for both (the SKILLS namespace): Miniflare's KV service is not the worker's cold start.
      const served =
        kind === "worker" ? await serveBundle(bundle) : await serve({ modules: true, script: staticScript, kvNamespaces: ["SKILLS"] });
      const ready = performance.now();
      await timedGet(new URL(CARD_PATH, served.url).href);
      const answered = performance.now();
      samples[kind].push(answered - started);
      samples[kind === "worker" ? "workerFirst" : "staticFirst"].push(answered - ready);
      await served.stop();
    }
  }
  console.log(
    `this worker: ${ms(median(samples.worker))} (first request ${ms(median(samples.workerFirst))}); static worker: ${ms(median(samples.static))} (first request ${ms(median(samples.staticFirst))})`,
  );
  const ratio = median(samples.worker) / median(samples.static);
  verdict("cold start, this worker / static-bytes worker (medians)", ratio.toFixed(3), "<= 1.5", ratio <= 1.5);
}

await runBench(async () => {
  const bundle = buildBundle();
  console.log(
    `bench:scale — ${knobs.duration}s per load, ${knobs.tool}, 127.0.0.1, workerd via Miniflare (direct socket); bundle gzip ${(bundle.gzipBytes / 1024).toFixed(1)} KiB`,
  );
  await cardBySkills(bundle);
  await cardByHosts(bundle);
  await proxyByBodySize(bundle);
  await coldStart(bundle);
  return 0;
});
