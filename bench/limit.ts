// bench:proxy sections 1, 10 and 11: the edge at the runtime's limit, in its measured configuration
// (every feature on: proxy-targets.ts measuredEdge), with BENCH_BASELINE's build beside this one.
//  1. a ~1 KiB SendMessage to a fixed-JSON origin: this worker beside a bare passthrough (`fetch` of the
//     request's own stream: the physical limit of a proxy here) and a buffering, parsing passthrough (reads
//     the body, JSON.parses it, forwards the bytes: the floor of any proxy that validates at the edge), at
//     BENCH_CONNECTIONS and at 1 connection (pure latency);
// 10. the card GET beside a worker that returns the same bytes;
// 11. cold start: the first request of a new isolate of the built bundle, beside one of a static-bytes worker
//     with the same bindings, inside one running workerd (a Worker Loader host loads a fresh worker per
//     sample, so neither process start nor Miniflare is counted); the host's own hop, measured alike, is
//     taken off both.
import { readFileSync } from "node:fs";
import { serve, stopOnExit, wranglerCompatibilityDate, wranglerVars } from "./lib";
import { type BenchKnobs, type Load, load, printTable, sideBySide, verdict } from "./measure";
import { BARE_PASSTHROUGH, BUFFERING_PASSTHROUGH, measuredEdge, sendBody } from "./proxy-targets";

const headers = { "content-type": "application/json", "a2a-version": "1.0" };
const kib = { method: "POST" as const, body: sendBody("SendMessage", 1024) };
const CARD_PATH = "/.well-known/agent-card.json";
const COLD_SAMPLES = 30;

interface Build {
  label: string;
  edge: string;
}

export async function limitTargets(bundle: { path: string }, origin: string, baseline: { path: string } | undefined) {
  const bare = await serve({ modules: true, script: BARE_PASSTHROUGH, bindings: { ORIGIN_URL: origin } });
  const buffering = await serve({ modules: true, script: BUFFERING_PASSTHROUGH, bindings: { ORIGIN_URL: origin } });
  const builds: Build[] = [{ label: "this worker", edge: (await measuredEdge(bundle, origin)).url.href }];
  if (baseline) builds.push({ label: "baseline", edge: (await measuredEdge(baseline, origin)).url.href });
  const card = await (await fetch(new URL(CARD_PATH, builds[0]!.edge))).text();
  const staticCard = await serve({ modules: true, script: staticBytesWorker(card) });
  const loader = await coldStartHost([bundle, ...(baseline ? [baseline] : [])], card);
  return { bare: bare.url.href, buffering: buffering.url.href, builds, staticCard: staticCard.url.href, loader, card };
}

type Targets = { limit: Awaited<ReturnType<typeof limitTargets>> };

/** A worker that answers every request with `body` (and `headers`, by default only its content type). */
export const staticBytesWorker = (body: string, headers: Record<string, string> = { "content-type": "application/json" }) =>
  `const body = new TextEncoder().encode(${JSON.stringify(body)});
const headers = ${JSON.stringify(headers)};
export default { fetch() { return new Response(body, { headers }); } };`;

function checked(rows: Record<string, Load>): Record<string, Load> {
  for (const [name, row] of Object.entries(rows)) {
    if (row.non2xx > 0 || row.errors > 0) throw new Error(`${name}: ${row.non2xx} non-2xx and ${row.errors} errors`);
  }
  return rows;
}

/** 1. The proxy at the runtime's limit: the three-way comparison, per build. */
export async function atTheLimit({ limit: t }: Targets, { connections }: BenchKnobs): Promise<void> {
  for (const conns of [connections, 1]) {
    const targets: Record<string, () => Promise<Load>> = {
      "bare passthrough": () => load(t.bare, headers, { request: kib, connections: conns }),
      "buffering, parsing passthrough": () => load(t.buffering, headers, { request: kib, connections: conns }),
    };
    for (const build of t.builds) targets[build.label] = () => load(build.edge, headers, { request: kib, connections: conns });
    console.log(`\n~1 KiB SendMessage, fixed-JSON origin, ${conns} connection${conns === 1 ? "" : "s"}`);
    const rows = checked(await sideBySide(targets));
    printTable(rows);
    const bare = rows["bare passthrough"]!;
    const floor = rows["buffering, parsing passthrough"]!;
    console.log(`(the buffering, parsing passthrough: ${(floor.requestsPerSecond / bare.requestsPerSecond).toFixed(3)}x bare)`);
    for (const { label } of t.builds) {
      const w = rows[label]!;
      const toBare = w.requestsPerSecond / bare.requestsPerSecond;
      const toFloor = w.requestsPerSecond / floor.requestsPerSecond;
      const overBare = w.p50 - bare.p50;
      const overFloor = w.p50 - floor.p50;
      if (conns !== 1) {
        verdict(`${label}: req/s / buffering passthrough (${conns} connections)`, toFloor.toFixed(3), ">= 0.9", toFloor >= 0.9);
        verdict(`${label}: req/s / bare passthrough (${conns} connections)`, toBare.toFixed(3), ">= 0.8", toBare >= 0.8);
        console.log(`${label}: p50 over bare ${overBare.toFixed(3)} ms, over buffering ${overFloor.toFixed(3)} ms`);
      } else {
        console.log(
          `${label}: req/s / bare ${toBare.toFixed(3)}, / buffering ${toFloor.toFixed(3)}; p50 over buffering ${overFloor.toFixed(3)} ms`,
        );
        verdict(`${label}: p50 over bare passthrough (1 connection)`, `${overBare.toFixed(3)} ms`, "<= 0.15 ms", overBare <= 0.15);
      }
    }
  }
}

/** 10. The card beside a worker that returns its bytes. */
export async function cardLimit({ limit: t }: Targets): Promise<void> {
  const targets: Record<string, () => Promise<Load>> = { "static bytes": () => load(new URL(CARD_PATH, t.staticCard).href) };
  for (const build of t.builds) targets[`card, ${build.label}`] = () => load(new URL(CARD_PATH, build.edge).href);
  const rows = checked(await sideBySide(targets));
  printTable(rows);
  for (const { label } of t.builds) {
    const ratio = rows[`card, ${label}`]!.requestsPerSecond / rows["static bytes"]!.requestsPerSecond;
    verdict(`${label}: card req/s / static bytes`, ratio.toFixed(3), ">= 0.95", ratio >= 0.95);
  }
}

/**
 * The cold-start host: GET /?worker=<n>&id=<fresh id> loads bundle n (or the static worker, `static`) as a
 * new dynamic worker and asks it for the card (with `loaded=1`, a worker that imports bundle n and answers
 * without it: the bundle's load and evaluation alone); `worker=none` answers at once (the host's own hop). Every
 * loaded worker gets the same env: wrangler.toml's [vars] and ORIGIN_URL (a KV namespace cannot be handed
 * to a dynamic worker, so neither gets SKILLS: the edge serves its bundled skills.json).
 */
export async function coldStartHost(bundles: Array<{ path: string }>, card: string): Promise<string> {
  const codes = [...bundles.map((b) => readFileSync(b.path, "utf8")), staticBytesWorker(card)];
  const host = `export default { async fetch(request, env) {
  const url = new URL(request.url);
  const which = url.searchParams.get("worker");
  if (which === "none") return new Response("none");
  const code = which === "static" ? env.CODES[env.CODES.length - 1] : env.CODES[Number(which)];
  // loaded=1: a main module that only imports the bundle and answers at once (its load and evaluation alone).
  const loadedOnly = url.searchParams.get("loaded") === "1";
  const modules = loadedOnly
    ? { "main.js": 'import "./index.js"; export default { fetch() { return new Response("loaded"); } };', "index.js": code }
    : { "index.js": code };
  const worker = env.LOADER.get(url.searchParams.get("id"), () => ({
    compatibilityDate: env.DATE, mainModule: loadedOnly ? "main.js" : "index.js", modules, env: env.VARS,
  }));
  return worker.getEntrypoint().fetch(new Request("http://127.0.0.1${CARD_PATH}"));
} };`;
  const served = await serve({
    modules: true,
    script: host,
    workerLoaders: { LOADER: {} },
    bindings: { CODES: codes, DATE: wranglerCompatibilityDate(), VARS: { ...wranglerVars(), ORIGIN_URL: "http://127.0.0.1:9/" } },
  } as never);
  stopOnExit(served.stop);
  return served.url.href;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

async function timedGet(url: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(url);
  const text = await response.text();
  if (!response.ok || text.length === 0) throw new Error(`cold start: ${url} answered ${response.status}: ${text.slice(0, 200)}`);
  return performance.now() - started;
}

/** 11. Cold start inside one workerd, alternating static and each build, COLD_SAMPLES each. */
export async function coldStart({ limit: t }: Targets): Promise<void> {
  const kinds = ["static", ...t.builds.flatMap((_, index) => [String(index), `${index}&loaded=1`])];
  const samples = new Map<string, number[]>([["none", []], ...kinds.map((k) => [k, []] as [string, number[]])]);
  const ask = (worker: string, id: string) => timedGet(`${t.loader}?worker=${worker}&id=${id.replaceAll("&", "-").replaceAll("=", "-")}`);
  for (const kind of kinds) await ask(kind, `warm-${kind}`); // the host itself compiled and warm
  for (let i = 0; i < COLD_SAMPLES; i++) {
    samples.get("none")!.push(await ask("none", ""));
    for (const kind of kinds) samples.get(kind)!.push(await ask(kind, `${kind}-${i}-${Date.now()}`));
  }
  const hop = median(samples.get("none")!);
  const cold = (kind: string) => median(samples.get(kind)!) - hop;
  console.log(
    `cold start, first request of a fresh isolate (median of ${COLD_SAMPLES}, the host's hop of ${hop.toFixed(2)} ms taken off): static worker ${cold("static").toFixed(2)} ms`,
  );
  for (const [index, { label }] of t.builds.entries()) {
    const ratio = cold(String(index)) / cold("static");
    const loaded = cold(`${index}&loaded=1`);
    console.log(
      `${label}: ${cold(String(index)).toFixed(2)} ms: the bundle's load and evaluation ${loaded.toFixed(2)} ms, its first card ${(cold(String(index)) - loaded).toFixed(2)} ms more`,
    );
    verdict(`${label}: cold start / static-bytes worker`, ratio.toFixed(3), "<= 1.5", ratio <= 1.5);
  }
}
