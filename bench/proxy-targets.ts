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
