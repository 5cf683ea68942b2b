// What the proxy benches send and compare against: request bodies of a given
// size (1.0, or 0.3 for the bridge), the bare passthrough worker (the physical
// limit of a proxy in workerd) and fixed-JSON origins of either version (no
// origin cost to speak of).
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

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
 * The floor of any proxy that validates at the edge: it must read the whole
 * body before forwarding it, which the bare passthrough (a stream) never does.
 */
export const BUFFERING_PASSTHROUGH = `export default { async fetch(request, env) { const body = await request.arrayBuffer(); return fetch(env.ORIGIN_URL, { method: request.method, headers: request.headers, body }); } };`;

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
