// npm run load — mixed traffic against the built worker (workerd via Miniflare,
// direct socket) fronting the @a2a-js/sdk origin agent (a separate process),
// bounded in time (LOAD_DURATION s, default 30) and concurrency
// (LOAD_CONCURRENCY, default 16), all on 127.0.0.1:
//   card GETs across variants and hostnames, half with If-None-Match;
//   proxied SendMessage; SendStreamingMessage read to the end; a share of bad
//   requests (broken JSON, wrong content type, oversized, bad envelope);
//   the page, the JWKS and unknown paths (load-scenarios.ts).
// LOAD_ONLY=card,stream narrows the mix (to look at one kind of traffic alone).
// Prints requests, outcomes by class, p50/p99 per kind and the memory of the
// workerd processes this run started (RSS sampled every second). Exits 1 on
// any unexpected outcome or 5xx, 2 on bad usage; stops the origin and workerd
// on every way out, Ctrl-C included.
import { type Cli, cli } from "../scripts/usage";
import { startTs, waitForHttp, waitForOutput } from "../test/support/processes";
import { buildBundle, runBench, serveBundle, stopOnExit } from "./lib";
import { HOSTS, LOAD_KINDS, loadScenarios, type Scenario } from "./load-scenarios";
import { rssMiB, workerdPids } from "./process-tree";

const cmd: Cli = cli(
  "load",
  `usage: [LOAD_DURATION=30] [LOAD_CONCURRENCY=16] [LOAD_ONLY=KIND,...] npm run load
       KIND: ${LOAD_KINDS.map((kind) => (kind.includes(" ") ? JSON.stringify(kind) : kind)).join(", ")}`,
);
cmd.parseArgs({ options: {} });
const DURATION_S = cmd.intEnv("LOAD_DURATION", 30, 1);
const CONCURRENCY = cmd.intEnv("LOAD_CONCURRENCY", 16, 1);
const ONLY = cmd.listEnv("LOAD_ONLY", LOAD_KINDS);

/** The origin agent process and the built worker in front of it; returns the worker's port. */
async function startSystem(): Promise<number> {
  const origin = startTs("test/support/origin-agent.ts", ["--port", "0", "--delay", "5"]);
  stopOnExit(origin.stop);
  const originUrl = await waitForOutput(origin, /^origin-agent listening (\S+)$/m, "the origin-agent listening line");
  await waitForHttp(originUrl, origin);
  const bundle = buildBundle();
  const pair = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])) as CryptoKeyPair;
  const signingKey = JSON.stringify({ ...((await crypto.subtle.exportKey("jwk", pair.privateKey)) as JsonWebKey), kid: "load" });
  const worker = await serveBundle(bundle, {
    ORIGIN_URL: originUrl,
    EDGE_AUTH: "off", // the bundled card requires a bearer token; bench:proxy measures what checking it costs
    CARD_SIGNING_KEY: signingKey,
    HOST_ALLOWLIST: HOSTS.join(","),
    MAX_BODY_BYTES: "65536",
  });
  await (await worker.mf.getKVNamespace("SKILLS")).put(
    "agents-b.example.com",
    JSON.stringify({ name: "Agent B", skills: [{ name: "Echo", tags: ["echo"] }] }),
  );
  return Number(worker.url.port);
}

/** RSS of the workerd processes this run started (never another wrangler dev's), every second. */
function sampleMemory(): { pids: number[]; samples: number[]; stop: () => void } {
  const pids = workerdPids();
  const samples = [rssMiB(pids)];
  const timer = setInterval(() => samples.push(rssMiB(pids)), 1000);
  return {
    pids,
    samples,
    stop: () => {
      clearInterval(timer);
      samples.push(rssMiB(pids));
    },
  };
}

interface Tally {
  latencies: Map<string, number[]>;
  outcomes: Map<string, number>;
}

/** CONCURRENCY clients, each sending one weighted-random scenario after another until the deadline. */
async function drive(scenarios: Scenario[]): Promise<Tally> {
  const totalWeight = scenarios.reduce((a, s) => a + s.weight, 0);
  const choose = () => {
    let n = Math.random() * totalWeight;
    for (const s of scenarios) {
      n -= s.weight;
      if (n < 0) return s;
    }
    return scenarios[0]!;
  };
  const tally: Tally = { latencies: new Map(), outcomes: new Map() };
  const count = (key: string) => tally.outcomes.set(key, (tally.outcomes.get(key) ?? 0) + 1);
  const deadline = Date.now() + DURATION_S * 1000;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (Date.now() < deadline) {
        const scenario = choose();
        const started = performance.now();
        try {
          const { status, expected } = await scenario.run();
          const list = tally.latencies.get(scenario.kind) ?? [];
          list.push(performance.now() - started);
          tally.latencies.set(scenario.kind, list);
          count(`${scenario.kind}: HTTP ${status}${expected ? "" : " UNEXPECTED"}`);
          if (status >= 500) count("5xx");
          if (!expected) count("unexpected");
        } catch (error) {
          count(`${scenario.kind}: network error (${(error as Error).message})`);
          count("unexpected");
        }
      }
    }),
  );
  return tally;
}

/** Prints the figures; returns the exit code (1 on any unexpected outcome or 5xx). */
function report({ latencies, outcomes }: Tally, memory: { pids: number[]; samples: number[] }): number {
  const pct = (xs: number[], p: number) => xs.sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? NaN;
  const all = [...latencies.values()].flat();
  console.log(
    `requests: ${all.length} (${(all.length / DURATION_S).toFixed(0)}/s), p50 ${pct(all, 50).toFixed(2)} ms, p99 ${pct(all, 99).toFixed(2)} ms`,
  );
  console.log("kind".padEnd(16), "requests".padStart(9), "p50 ms".padStart(8), "p99 ms".padStart(8));
  for (const [kind, xs] of latencies)
    console.log(kind.padEnd(16), String(xs.length).padStart(9), pct(xs, 50).toFixed(2).padStart(8), pct(xs, 99).toFixed(2).padStart(8));
  console.log("outcomes:");
  for (const [key, n] of [...outcomes].sort()) if (key !== "unexpected" && key !== "5xx") console.log(`  ${key}: ${n}`);
  const unexpected = outcomes.get("unexpected") ?? 0;
  const fiveXX = outcomes.get("5xx") ?? 0;
  console.log(`unexpected outcomes: ${unexpected}; 5xx: ${fiveXX}`);
  const { pids, samples } = memory;
  const third = Math.max(1, Math.floor(samples.length / 3));
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  console.log(
    `workerd RSS (${pids.length} process(es) this run started): start ${samples[0]!.toFixed(1)} MiB, peak ${Math.max(...samples).toFixed(1)} MiB, end ${samples.at(-1)!.toFixed(1)} MiB; ` +
      `mean of first third ${mean(samples.slice(0, third)).toFixed(1)} MiB vs last third ${mean(samples.slice(-third)).toFixed(1)} MiB`,
  );
  // workerd's RSS climbs to a plateau under any load (a static worker too); flat = the tail stops rising.
  console.log(
    `RSS every 5 s (MiB): ${samples
      .filter((_, i) => i % 5 === 0)
      .map((m) => m.toFixed(0))
      .join(" ")}`,
  );
  return unexpected > 0 || fiveXX > 0 ? 1 : 0;
}

await runBench(async () => {
  const port = await startSystem();
  const memory = sampleMemory();
  const { scenarios, close } = loadScenarios(port, CONCURRENCY);
  stopOnExit(close);
  console.log(
    `load — ${DURATION_S}s, ${CONCURRENCY} concurrent clients, 127.0.0.1; worker in workerd via Miniflare, origin = @a2a-js/sdk agent process`,
  );
  const tally = await drive(ONLY ? scenarios.filter((s) => ONLY.includes(s.kind)) : scenarios);
  memory.stop();
  return report(tally, memory);
});
