// npm run bench:proxy — SendMessage straight to the origin agent (@a2a-js/sdk
// on express, 127.0.0.1) vs through the worker (built bundle in workerd via
// Miniflare, as bench:card), same load tool, alternating rounds; then time to
// the first SSE event of SendStreamingMessage, direct vs proxied.
// Goals: p50 overhead <= 1 ms, first-event overhead <= 5 ms.
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { startOriginAgent } from "../test/support/origin-agent";
import { buildBundle, DURATION_S, load, LOAD_TOOL, printTable, ROUNDS, serveBundle, sideBySide } from "./lib";

const FIRST_EVENT_SAMPLES = Number(process.env.BENCH_SSE_SAMPLES ?? 200);
// Latency is compared below the origin's saturation point (it is one Node process).
const PROXY_CONNECTIONS = Number(process.env.BENCH_PROXY_CONNECTIONS ?? 4);

// No pause between the agent's events: SendMessage answers as fast as the origin can.
const origin = await startOriginAgent({ streamDelayMs: 0 });
const bundle = buildBundle();
const worker = await serveBundle(bundle, { ORIGIN_URL: origin.url });
const proxied = worker.url.href;
const direct = origin.url;

// A minimal origin (fixed JSON-RPC reply) isolates the worker's own cost from the SDK's.
const minimal = createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end('{"jsonrpc":"2.0","id":1,"result":{"message":{"messageId":"m","role":"ROLE_AGENT","parts":[{"text":"ok"}]}}}');
  });
});
await new Promise<void>((resolve) => minimal.listen(0, "127.0.0.1", resolve));
const minimalUrl = `http://127.0.0.1:${(minimal.address() as AddressInfo).port}/`;
const minimalWorker = await serveBundle(bundle, { ORIGIN_URL: minimalUrl });

const headers = { "content-type": "application/json", "a2a-version": "1.0" };
const sendBody = (method: string) =>
  JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method,
    params: { message: { messageId: randomUUID(), role: "ROLE_USER", parts: [{ text: "bench" }] }, configuration: { returnImmediately: false } },
  });

/** ms until the first SSE `data:` line arrives, for one SendStreamingMessage. */
async function firstEventMs(url: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(url, { method: "POST", headers: { ...headers, accept: "text/event-stream" }, body: sendBody("SendStreamingMessage") });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) throw new Error(`stream ended before an event (HTTP ${response.status}): ${text.slice(0, 200)}`);
    text += decoder.decode(value, { stream: true });
    if (text.includes("data:")) break;
  }
  const elapsed = performance.now() - started;
  await reader.cancel();
  return elapsed;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

try {
  // Sanity: both answer the same request the same way.
  for (const url of [direct, proxied]) {
    const reply = (await (await fetch(url, { method: "POST", headers, body: sendBody("SendMessage") })).json()) as { result?: unknown };
    if (!reply.result) throw new Error(`no result from ${url === direct ? "origin" : "worker"}: ${JSON.stringify(reply).slice(0, 300)}`);
  }
  console.log(`bench:proxy — ${ROUNDS} rounds x ${DURATION_S}s, ${PROXY_CONNECTIONS} connections, ${LOAD_TOOL}, 127.0.0.1; worker in workerd via Miniflare (direct socket)`);
  const request = { method: "POST" as const, body: sendBody("SendMessage") };
  const opts = { request, connections: PROXY_CONNECTIONS };
  await load(direct, headers, { ...opts, duration: 1 });
  await load(proxied, headers, { ...opts, duration: 1 });
  const rows = await sideBySide({
    "SendMessage direct": () => load(direct, headers, opts),
    "SendMessage via worker": () => load(proxied, headers, opts),
    "minimal origin direct": () => load(minimalUrl, headers, opts),
    "minimal origin via worker": () => load(minimalWorker.url.href, headers, opts),
  });
  printTable(rows);
  for (const [d, p] of [
    [rows["SendMessage direct"]!, rows["SendMessage via worker"]!],
    [rows["minimal origin direct"]!, rows["minimal origin via worker"]!],
  ] as const) {
    const label = d === rows["SendMessage direct"] ? "a2a-js origin" : "minimal origin";
    console.log(`${label}: p50 overhead ${(p.p50 - d.p50).toFixed(2)} ms (goal <= 1 ms); p99 overhead ${(p.p99 - d.p99).toFixed(2)} ms; req/s via/direct ${(p.requestsPerSecond / d.requestsPerSecond).toFixed(3)}`);
  }

  // Time to first SSE event, sequential samples, alternating direct / proxied.
  const samples: Record<"direct" | "proxied", number[]> = { direct: [], proxied: [] };
  for (let i = 0; i < 20; i++) await Promise.all([firstEventMs(direct), firstEventMs(proxied)]);
  for (let i = 0; i < FIRST_EVENT_SAMPLES; i++) {
    samples.direct.push(await firstEventMs(direct));
    samples.proxied.push(await firstEventMs(proxied));
  }
  const sd = samples.direct.sort((a, b) => a - b);
  const sp = samples.proxied.sort((a, b) => a - b);
  console.log(`first SSE event (${FIRST_EVENT_SAMPLES} streams each): direct p50 ${percentile(sd, 50).toFixed(2)} ms p99 ${percentile(sd, 99).toFixed(2)} ms; via worker p50 ${percentile(sp, 50).toFixed(2)} ms p99 ${percentile(sp, 99).toFixed(2)} ms`);
  console.log(`first-event overhead p50: ${(percentile(sp, 50) - percentile(sd, 50)).toFixed(2)} ms (goal <= 5 ms)`);
} finally {
  await worker.stop();
  await minimalWorker.stop();
  await origin.stop();
  minimal.close();
}
