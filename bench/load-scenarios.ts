// The traffic of `npm run load`: each kind of request as a scenario that sends
// one request and says whether the outcome is the expected one.
import { Agent, request as httpRequest } from "node:http";

/** The kinds, as LOAD_ONLY names them. */
export const LOAD_KINDS = ["card", "SendMessage", "stream", "bad request", "page/jwks/404"] as const;
type LoadKind = (typeof LOAD_KINDS)[number];

export const HOSTS = ["agents-a.example.com", "agents-b.example.com", "127.0.0.1"];

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}
type Send = (method: string, path: string, headers: Record<string, string>, body?: string, ownConnection?: boolean) => Promise<Reply>;
type Outcome = { status: number; expected: boolean };
export interface Scenario {
  kind: LoadKind;
  weight: number;
  run: () => Promise<Outcome>;
}

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;
const rpcBody = (method: string) =>
  JSON.stringify({
    jsonrpc: "2.0",
    id: 7,
    method,
    params: { message: { messageId: crypto.randomUUID(), role: "ROLE_USER", parts: [{ text: "load" }] } },
  });

/** Card GETs across variants and hostnames, half of the repeats with If-None-Match. */
function card(send: Send): () => Promise<Outcome> {
  const etags = new Map<string, string>();
  return async () => {
    const host = pick(HOSTS);
    const version = pick(["1.0", "0.3", ""]);
    const path = pick(["/.well-known/agent-card.json", "/.well-known/agent-card.json", "/.well-known/agent.json"]);
    const key = `${host}|${version}|${path}`;
    const headers: Record<string, string> = { host };
    if (version) headers["a2a-version"] = version;
    const known = etags.get(key);
    if (known && Math.random() < 0.5) headers["if-none-match"] = known;
    const r = await send("GET", path, headers);
    if (r.status === 200) {
      etags.set(key, String(r.headers.etag));
      const body = JSON.parse(r.body);
      return {
        status: r.status,
        expected: Array.isArray(body.signatures) && (host !== "agents-b.example.com" || body.name === "Agent B"),
      };
    }
    return { status: r.status, expected: r.status === 304 && r.body === "" && headers["if-none-match"] !== undefined };
  };
}

const BAD_REQUESTS = [
  { headers: { "content-type": "application/json" }, body: "{ nope", status: 200, code: -32700 },
  { headers: { "content-type": "text/plain" }, body: "{}", status: 415, code: -32600 },
  {
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "m", params: { pad: "x".repeat(70_000) } }),
    status: 413,
    code: -32600,
  },
  { headers: { "content-type": "application/json" }, body: '[{"jsonrpc":"2.0","id":1,"method":"m"}]', status: 200, code: -32600 },
  { headers: { "content-type": "application/json" }, body: '{"jsonrpc":"2.0","id":{},"method":1}', status: 200, code: -32600 },
];

/** Broken JSON, wrong content type, oversized, bad envelopes: each refused with its own status and code. */
function badRequest(send: Send): () => Promise<Outcome> {
  return async () => {
    const bad = pick(BAD_REQUESTS);
    // The edge refuses an oversized body without reading it, so the server may close that
    // connection (RFC 9110 §15.5.14): it gets a connection of its own, and a reset after
    // the 413 counts as the expected refusal.
    const oversized = bad.status === 413;
    try {
      const r = await send("POST", "/", { host: pick(HOSTS), ...bad.headers }, bad.body, oversized);
      return { status: r.status, expected: r.status === bad.status && JSON.parse(r.body).error?.code === bad.code };
    } catch (error) {
      if (oversized && /ECONNRESET|EPIPE/.test((error as Error).message)) return { status: 413, expected: true };
      throw error;
    }
  };
}

/** The page, the JWKS and unknown paths. */
function pages(send: Send): () => Promise<Outcome> {
  return async () => {
    const which = pick(["page", "jwks", "404"]);
    if (which === "page") {
      const r = await send("GET", "/", { host: pick(HOSTS), accept: "text/html" });
      return { status: r.status, expected: r.status === 200 && r.body.startsWith("<!doctype html>") };
    }
    if (which === "jwks") {
      const r = await send("GET", "/.well-known/jwks.json", { host: pick(HOSTS) });
      return { status: r.status, expected: r.status === 200 && JSON.parse(r.body).keys.length === 1 };
    }
    const r = await send("GET", "/nope", { host: pick(HOSTS) });
    return { status: r.status, expected: r.status === 404 };
  };
}

/** The scenarios against the worker on 127.0.0.1:`port`, with their weights; close() ends the kept-alive connections. */
export function loadScenarios(port: number, concurrency: number): { scenarios: Scenario[]; close: () => void } {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency * 2 });
  const send: Send = (method, path, headers, body, ownConnection = false) =>
    new Promise((resolve, reject) => {
      const req = httpRequest(
        { host: "127.0.0.1", port, method, path, headers, agent: ownConnection ? false : agent, timeout: 30_000 },
        (res) => {
          let data = "";
          res.setEncoding("utf8");
          res.on("data", (c) => (data += c));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: data }));
          res.on("error", reject);
        },
      );
      req.on("error", reject);
      req.on("timeout", () => req.destroy(new Error("timeout")));
      req.end(body);
    });
  const rpc = { "content-type": "application/json", "a2a-version": "1.0" };
  const scenarios: Scenario[] = [
    { kind: "card", weight: 40, run: card(send) },
    {
      kind: "SendMessage",
      weight: 25,
      run: async () => {
        const r = await send("POST", "/", { host: pick(HOSTS), ...rpc }, rpcBody("SendMessage"));
        return { status: r.status, expected: r.status === 200 && JSON.parse(r.body).result !== undefined };
      },
    },
    {
      kind: "stream",
      weight: 10,
      run: async () => {
        const r = await send("POST", "/", { host: pick(HOSTS), ...rpc, accept: "text/event-stream" }, rpcBody("SendStreamingMessage"));
        const events = r.body.split("\n\n").filter((e) => e.startsWith("data:"));
        return { status: r.status, expected: r.status === 200 && events.length >= 2 && !r.body.includes("event: error") };
      },
    },
    { kind: "bad request", weight: 15, run: badRequest(send) },
    { kind: "page/jwks/404", weight: 10, run: pages(send) },
  ];
  return { scenarios, close: () => agent.destroy() };
}
