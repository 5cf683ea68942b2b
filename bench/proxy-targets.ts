// What the proxy benches send and compare against: request bodies of a given
// size (1.0, or 0.3 for the bridge), the bare passthrough worker (the physical
// limit of a proxy in workerd) and fixed-JSON origins of either version (no
// origin cost to speak of), and the edge in its measured configuration.
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { ROOT, serveBundle } from "./lib";

/** A JSON-RPC request of about `bytes` bytes (its text part padded). */
export function sendBody(method: string, bytes = 0): string {
  const base = {
    jsonrpc: "2.0",
    id: 1,
    method,
    params: {
      message: { messageId: randomUUID(), role: "ROLE_USER", parts: [{ text: "bench" }] },
      configuration: { returnImmediately: false },
    },
  };
  const pad = Math.max(0, bytes - JSON.stringify(base).length);
  base.params.message.parts[0]!.text = `bench${"x".repeat(pad)}`;
  return JSON.stringify(base);
}

/** The same call as a 0.3 client sends it (`message/send` or `message/stream`, `kind`s; no A2A-Version needed), of about `bytes` bytes. */
export function sendBody03(method: "message/send" | "message/stream", bytes = 0): string {
  const base = {
    jsonrpc: "2.0",
    id: 1,
    method,
    params: {
      message: { kind: "message", messageId: randomUUID(), role: "user", parts: [{ kind: "text", text: "bench" }] },
      configuration: { blocking: true },
    },
  };
  const pad = Math.max(0, bytes - JSON.stringify(base).length);
  base.params.message.parts[0]!.text = `bench${"x".repeat(pad)}`;
  return JSON.stringify(base);
}

/** The physical limit: a worker that forwards method, headers and body to ORIGIN_URL and returns the answer. */
export const BARE_PASSTHROUGH = `export default { fetch(request, env) { return fetch(env.ORIGIN_URL, { method: request.method, headers: request.headers, body: request.body }); } };`;

/**
 * The floor of any proxy that validates at the edge: it must read the whole body and parse it before
 * forwarding it, which the bare passthrough (a stream) never does. It forwards the bytes it read.
 */
export const BUFFERING_PASSTHROUGH = `export default { async fetch(request, env) { const body = await request.text(); JSON.parse(body); return fetch(env.ORIGIN_URL, { method: request.method, headers: request.headers, body }); } };`;

/** What a fixed-JSON origin answers every call with: a SendMessage result (a Message) in its own version. */
const FIXED_REPLIES = {
  "1.0": '{"jsonrpc":"2.0","id":1,"result":{"message":{"messageId":"m","role":"ROLE_AGENT","parts":[{"text":"ok"}]}}}',
  "0.3": '{"jsonrpc":"2.0","id":1,"result":{"kind":"message","messageId":"m","role":"agent","parts":[{"kind":"text","text":"ok"}]}}',
  /** A REST origin's answer to POST /message:send (A2A 1.0 §11: the SendMessageResponse itself). */
  rest: '{"message":{"messageId":"m","role":"ROLE_AGENT","parts":[{"text":"ok"}]}}',
} as const;

/** A fixed JSON-RPC reply (a 1.0 one unless told): isolates the worker's cost from any origin's. */
export async function fixedJsonOrigin(version: keyof typeof FIXED_REPLIES = "1.0"): Promise<{ url: string; close: () => void }> {
  const reply = FIXED_REPLIES[version];
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(reply);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, close: () => server.close() };
}

/**
 * The edge as measured by bench:proxy section 1 and bench:profile: every feature on but edge
 * authentication (section 4 adds it). The host's card is a framework's card from KV, repaired on intake
 * (Google ADK's, test/fixtures/cards), beside one agent by path in the host's index; the push guard
 * checks every send (PUSH_URL_ALLOWLIST); the access record at its default level and a CALL_METRICS
 * data point per call (Miniflare's Analytics Engine binding; its log lines taken and dropped).
 */
export async function measuredEdge(bundle: { path: string }, origin: string, options: Record<string, unknown> = {}) {
  const edge = await serveBundle(
    bundle,
    { ORIGIN_URL: origin, EDGE_AUTH: "off", PUSH_URL_ALLOWLIST: "hooks.example.com" },
    {
      analyticsEngineDatasets: { CALL_METRICS: { dataset: "bench_calls" } },
      handleStructuredLogs: () => undefined,
      ...options,
    },
  );
  const kv = await edge.mf.getKVNamespace("SKILLS");
  const card = readFileSync(`${ROOT}test/fixtures/cards/adk-card.json`, "utf8");
  await kv.put("127.0.0.1", card);
  await kv.put("127.0.0.1/travel", JSON.stringify({ name: "Travel Agent" }));
  await kv.put("agents:127.0.0.1", JSON.stringify({ version: 1, agents: [{ path: "/travel", name: "Travel Agent" }] }));
  const served = (await (await fetch(new URL("/.well-known/agent-card.json", edge.url))).json()) as { name?: string };
  if (served.name !== JSON.parse(card).name) throw new Error(`the measured edge serves ${JSON.stringify(served.name)}, not the KV card`);
  const reply = await (await fetch(edge.url, { method: "POST", headers: measuredHeaders, body: sendBody("SendMessage") })).text();
  if (!reply.includes('"result":{"message"')) throw new Error(`the measured edge: no result in ${reply.slice(0, 300)}`);
  return edge;
}

const measuredHeaders = { "content-type": "application/json", "a2a-version": "1.0" };

/**
 * A fixed SSE origin: every call is answered at once with a stream of 1.0 StreamResponse events (a task, artifact
 * chunks of ~100 bytes, the completed status), each its own write, with the call's JSON-RPC id; then the stream
 * ends. As many events as the request's text names (`events=<n>`, see streamBody), else `events`. No origin cost
 * to speak of, in a process of its own (bench:cpu's streamed rows).
 */
export async function fixedSseOrigin(events: number): Promise<{ url: string; close: () => void }> {
  const taskId = "bench-task";
  const resultsOf = (count: number) =>
    [
      { task: { id: taskId, contextId: "c1", status: { state: "TASK_STATE_WORKING" } } },
      ...Array.from({ length: Math.max(0, count - 2) }, (_, n) => ({
        artifactUpdate: {
          taskId,
          contextId: "c1",
          artifact: { artifactId: "a1", parts: [{ text: `chunk ${n + 1} ${"x".repeat(80)}` }] },
          append: n > 0,
        },
      })),
      { statusUpdate: { taskId, contextId: "c1", status: { state: "TASK_STATE_COMPLETED" } } },
    ].slice(0, count);
  const server = createServer((req, res) => {
    let raw = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (raw += chunk));
    req.on("end", () => {
      let id: unknown = null;
      try {
        ({ id } = JSON.parse(raw) as { id?: unknown });
      } catch {
        /* not JSON: answered anyway */
      }
      const count = Math.min(1000, Number(/events=(\d+)/.exec(raw)?.[1] ?? events));
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      for (const result of resultsOf(count)) res.write(`data: ${JSON.stringify({ jsonrpc: "2.0", id, result })}\n\n`);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, close: () => server.close() };
}

/** A ~1 KiB SendStreamingMessage asking fixedSseOrigin for `events` events. */
export function streamBody(events: number): string {
  return sendBody("SendStreamingMessage", 1024).replace('"text":"bench', `"text":"events=${events} bench`);
}
