// npm run load — mixed traffic against the built worker (workerd via Miniflare,
// direct socket) fronting the @a2a-js/sdk origin agent (a separate process),
// bounded in time (LOAD_DURATION s, default 30) and concurrency
// (LOAD_CONCURRENCY, default 16), all on 127.0.0.1:
//   card GETs across variants and hostnames, half with If-None-Match;
//   proxied SendMessage; SendStreamingMessage read to the end; a share of bad
//   requests (broken JSON, wrong content type, oversized, bad envelope);
//   the page, the JWKS and unknown paths.
// Prints requests, outcomes by class, p50/p99 per kind and workerd's memory
// (RSS sampled every second). Exits 1 on any unexpected outcome or 5xx.
import { readdirSync, readFileSync } from "node:fs";
import { Agent, request as httpRequest } from "node:http";
import { join } from "node:path";
import { freePort, start, waitForHttp } from "../test/support/processes";
import { buildBundle, ROOT, serveBundle } from "./lib";

const DURATION_S = Number(process.env.LOAD_DURATION ?? 30);
const CONCURRENCY = Number(process.env.LOAD_CONCURRENCY ?? 16);
const HOSTS = ["agents-a.example.com", "agents-b.example.com", "127.0.0.1"];

// ---- the system under load ----
const originPort = await freePort();
const origin = start(join(ROOT, "node_modules/.bin/tsx"), ["test/support/origin-agent.ts", "--port", String(originPort), "--delay", "5"]);
const originUrl = `http://127.0.0.1:${originPort}/`;
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
const port = Number(worker.url.port);

// ---- workerd memory ----
function workerdPids(): number[] {
  return readdirSync("/proc")
    .filter((d) => /^\d+$/.test(d))
    .filter((pid) => {
      try {
        return (
          readFileSync(`/proc/${pid}/comm`, "utf8").trim() === "workerd" && readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("serve")
        );
      } catch {
        return false;
      }
    })
    .map(Number);
}
const rssMiB = (pids: number[]) =>
  pids.reduce((sum, pid) => {
    try {
      return sum + Number(readFileSync(`/proc/${pid}/status`, "utf8").match(/VmRSS:\s+(\d+) kB/)?.[1] ?? 0) / 1024;
    } catch {
      return sum;
    }
  }, 0);
const pids = workerdPids();
const memory: number[] = [rssMiB(pids)];
const sampler = setInterval(() => memory.push(rssMiB(pids)), 1000);

// ---- traffic ----
const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY * 2 });
interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}
function send(method: string, path: string, headers: Record<string, string>, body?: string, ownConnection = false): Promise<Reply> {
  return new Promise((resolve, reject) => {
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
}

const etags = new Map<string, string>();
const rpcBody = (method: string) =>
  JSON.stringify({
    jsonrpc: "2.0",
    id: 7,
    method,
    params: { message: { messageId: crypto.randomUUID(), role: "ROLE_USER", parts: [{ text: "load" }] } },
  });
const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;

/** Each scenario sends one request and says whether the outcome is the expected one. */
const scenarios: { kind: string; weight: number; run: () => Promise<{ status: number; expected: boolean }> }[] = [
  {
    kind: "card",
    weight: 40,
    run: async () => {
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
        const card = JSON.parse(r.body);
        return {
          status: r.status,
          expected: Array.isArray(card.signatures) && (host !== "agents-b.example.com" || card.name === "Agent B"),
        };
      }
      return { status: r.status, expected: r.status === 304 && r.body === "" && headers["if-none-match"] !== undefined };
    },
  },
  {
    kind: "SendMessage",
    weight: 25,
    run: async () => {
      const r = await send(
        "POST",
        "/",
        { host: pick(HOSTS), "content-type": "application/json", "a2a-version": "1.0" },
        rpcBody("SendMessage"),
      );
      return { status: r.status, expected: r.status === 200 && JSON.parse(r.body).result !== undefined };
    },
  },
  {
    kind: "stream",
    weight: 10,
    run: async () => {
      const r = await send(
        "POST",
        "/",
        { host: pick(HOSTS), "content-type": "application/json", "a2a-version": "1.0", accept: "text/event-stream" },
        rpcBody("SendStreamingMessage"),
      );
      const events = r.body.split("\n\n").filter((e) => e.startsWith("data:"));
      return { status: r.status, expected: r.status === 200 && events.length >= 2 && !r.body.includes("event: error") };
    },
  },
  {
    kind: "bad request",
    weight: 15,
    run: async () => {
      const bad = pick([
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
      ]);
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
    },
  },
  {
    kind: "page/jwks/404",
    weight: 10,
    run: async () => {
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
    },
  },
];
// LOAD_ONLY=card,stream narrows the mix (to look at one kind of traffic alone).
const only = process.env.LOAD_ONLY?.split(",");
if (only) scenarios.splice(0, scenarios.length, ...scenarios.filter((s) => only.includes(s.kind)));
const totalWeight = scenarios.reduce((a, s) => a + s.weight, 0);
function chooseScenario() {
  let n = Math.random() * totalWeight;
  for (const s of scenarios) {
    n -= s.weight;
    if (n < 0) return s;
  }
  return scenarios[0]!;
}

const latencies = new Map<string, number[]>();
const outcomes = new Map<string, number>();
const count = (key: string) => outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
const deadline = Date.now() + DURATION_S * 1000;
console.log(
  `load — ${DURATION_S}s, ${CONCURRENCY} concurrent clients, 127.0.0.1; worker in workerd via Miniflare, origin = @a2a-js/sdk agent process`,
);
await Promise.all(
  Array.from({ length: CONCURRENCY }, async () => {
    while (Date.now() < deadline) {
      const scenario = chooseScenario();
      const started = performance.now();
      try {
        const { status, expected } = await scenario.run();
        const list = latencies.get(scenario.kind) ?? [];
        list.push(performance.now() - started);
        latencies.set(scenario.kind, list);
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
clearInterval(sampler);
memory.push(rssMiB(pids));

// ---- report ----
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
const third = Math.max(1, Math.floor(memory.length / 3));
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
console.log(`unexpected outcomes: ${unexpected}; 5xx: ${fiveXX}`);
console.log(
  `workerd RSS (${pids.length} process(es)): start ${memory[0]!.toFixed(1)} MiB, peak ${Math.max(...memory).toFixed(1)} MiB, end ${memory.at(-1)!.toFixed(1)} MiB; ` +
    `mean of first third ${mean(memory.slice(0, third)).toFixed(1)} MiB vs last third ${mean(memory.slice(-third)).toFixed(1)} MiB`,
);
// workerd's RSS climbs to a plateau under any load (a static worker too); flat = the tail stops rising.
console.log(
  `RSS every 5 s (MiB): ${memory
    .filter((_, i) => i % 5 === 0)
    .map((m) => m.toFixed(0))
    .join(" ")}`,
);

agent.destroy();
await worker.stop();
await origin.stop();
process.exit(unexpected > 0 || fiveXX > 0 ? 1 : 0);
