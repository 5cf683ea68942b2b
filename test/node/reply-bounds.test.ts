// The three reply holes at their real sizes, over raw sockets to the built bundle in workerd and to
// `wrangler dev`, default ORIGIN_REPLY_MAX_BYTES (4 MiB), REST binding on: a reply the edge must read
// (another binding, the bridge) is read only up to the bound and refused past it (502
// ORIGIN_INVALID_RESPONSE; a stream ends with one `event: error`), so the worker's memory never grows
// with what an origin sends; an untranslated stream still passes through as it comes; an origin's 5xx,
// redirect or HTML never reaches the client, only the edge's fixed body (README "Faults").
// The same rules at small sizes for every binding and origin kind: test/node/parity.test.ts.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { serve, wranglerVars } from "../../bench/lib";
import { rssMiB, workerdPids } from "../../bench/process-tree";
import { builtBundle } from "../support/built-bundle";
import { type Captured, captureConsole, logEvents } from "../support/console";
import { outlastClients } from "../support/keep-alive";
import { startWranglerDev, wranglerDevDir } from "../support/processes";
import { type BoundedCall, type BoundedReply, exchange } from "../support/raw-bounded";

const MiB = 1024 * 1024;
/** What the worker may grow by while an origin sends tens of MiB it must not hold. */
const RSS_BOUND_MIB = 64;
const KEY = "reply-bounds-key-0123456789";
const DOCUMENT = {
  name: "Reply bounds",
  capabilities: { streaming: true },
  securitySchemes: { k: { type: "apiKey", in: "header", name: "X-API-Key" } },
  security: [{ k: [] }],
};
const API_KEYS = JSON.stringify({ client: `sha256:${createHash("sha256").update(KEY).digest("hex")}` });
const DETAILS = ["10.9.8.7", "ECONNREFUSED", "10.0.0.5", "DebugInfo", "moved to", "<html", "/internal"];

// ---- the origin: its answer is chosen per test ----

type Plan = (req: IncomingMessage, body: string, res: ServerResponse) => void;
const origin = { base: "", plan: undefined as Plan | undefined, requests: [] as string[], open: new Set<ServerResponse>() };
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    origin.requests.push(`${req.method} ${req.url}`);
    origin.open.add(res);
    res.on("close", () => origin.open.delete(res));
    if (!origin.plan) return void res.writeHead(599).end();
    origin.plan(req, Buffer.concat(chunks).toString(), res);
  });
});

const FILL = Buffer.alloc(64 * 1024, "a");
/** Writes `prefix`, then `total` bytes of `a` in 64 KiB chunks, minding backpressure; stops when the edge goes away. */
async function stream(res: ServerResponse, prefix: string, total: number, suffix?: string): Promise<void> {
  res.write(prefix);
  for (let sent = 0; sent < total && !res.destroyed; sent += FILL.length) {
    if (!res.write(FILL.subarray(0, Math.min(FILL.length, total - sent))))
      await new Promise<void>((resolve) => {
        const done = () => {
          res.off("drain", done).off("close", done);
          resolve();
        };
        res.once("drain", done).once("close", done);
      });
  }
  if (suffix !== undefined && !res.destroyed) res.end(suffix);
  // No suffix: the event never ends (no blank line); the response stays open until the edge closes it.
}

/** A JSON body of about `size` bytes, valid JSON-RPC (`rpcId`) or REST. */
const bigJson =
  (size: number): Plan =>
  (req, body, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    const rpc = req.url?.includes("/rpc") ? JSON.parse(body) : undefined;
    const start = rpc
      ? `{"jsonrpc":"2.0","id":${JSON.stringify(rpc.id)},"result":{"task":{"id":"t1","metadata":{"pad":"`
      : '{"task":{"id":"t1","metadata":{"pad":"';
    void stream(res, start, size, '"}}}}');
  };

/** One SSE event of `size` bytes that never ends (no blank line). */
const endlessEvent =
  (size: number): Plan =>
  (req, body, res) => {
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    const rpc = req.url?.includes("/rpc") ? JSON.parse(body) : undefined;
    const start = rpc
      ? `data: {"jsonrpc":"2.0","id":${JSON.stringify(rpc.id)},"result":{"task":{"id":"t1","contextId":"c1","status":{"state":"TASK_STATE_WORKING"},"metadata":{"pad":"`
      : 'data: {"task":{"id":"t1","contextId":"c1","status":{"state":"TASK_STATE_WORKING"},"metadata":{"pad":"';
    void stream(res, start, size);
  };

const fixed =
  (status: number, headers: Record<string, string>, body: string): Plan =>
  (_req, _body, res) =>
    void res.writeHead(status, headers).end(body);

// ---- the runtimes ----

interface Target {
  port: number;
  pids: number[];
  events: (mark: number) => string[];
  mark: () => number;
  stop: () => Promise<void>;
}
let bundle: { path: string };
let logs: Captured | undefined;
const started: Target[] = [];

/** The parent of `pid` (the field after the command in /proc/<pid>/stat); -1 for a process gone. */
function parentOf(pid: number): number {
  try {
    return Number(readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ")[1]);
  } catch {
    return -1;
  }
}

/**
 * The workerd processes this process started while `start` ran (Miniflare's): the target's own. Another
 * runtime's never count, nor a wrangler dev's starting meanwhile (its workerd is its own child, not ours).
 */
async function withNewPids<T>(start: () => Promise<T>): Promise<[T, number[]]> {
  const before = new Set(workerdPids());
  const value = await start();
  return [value, workerdPids().filter((pid) => !before.has(pid) && parentOf(pid) === process.pid)];
}

async function workerd(vars: Record<string, string>): Promise<Target> {
  const [served, pids] = await withNewPids(() =>
    serve({
      modules: true,
      scriptPath: bundle.path,
      modulesRoot: join(bundle.path, ".."),
      kvNamespaces: ["SKILLS"],
      bindings: { ...wranglerVars(), ...vars },
    }),
  );
  await (await served.mf.getKVNamespace("SKILLS")).put("default", JSON.stringify(DOCUMENT));
  const target: Target = {
    port: Number(served.url.port),
    pids,
    mark: () => logs?.lines.length ?? 0,
    events: (mark) => (logs?.lines.slice(mark) ?? []).flatMap((line) => logEvents(line).map((e) => e.event)),
    stop: served.stop,
  };
  started.push(target);
  return target;
}

async function wranglerDev(vars: Record<string, string>): Promise<Target> {
  const { args, cleanUp } = await wranglerDevDir("reply-bounds-dev-", { default: DOCUMENT }, vars);
  // A dev that never started stops itself (startWranglerDev); its directory goes with it.
  const { dev, base } = await startWranglerDev(args).catch((error: unknown) => {
    cleanUp();
    throw error;
  });
  const target: Target = {
    port: Number(new URL(base).port),
    // The workerd below it: wrangler dev's start side by side, so not every one that appeared meanwhile.
    pids: workerdPids(dev.child.pid!),
    mark: () => dev.output().length,
    events: (mark) => logEvents(dev.output().slice(mark)).map((e) => e.event),
    stop: async () => {
      await dev.stop();
      cleanUp();
    },
  };
  started.push(target);
  return target;
}

/** A runtime's three deployments: a JSON-RPC 1.0 origin, a REST-only origin speaking 1.0, one speaking 0.3. */
interface Deployments {
  rpcOrigin: Target;
  restOrigin: Target;
  rest03Origin: Target;
}

/** The three, started one after another or side by side. */
async function deploy(start: (vars: Record<string, string>) => Promise<Target>, together: boolean): Promise<Deployments> {
  const common = { REST_PATH: "/rest", AUTH_API_KEYS: API_KEYS, KV_CACHE_TTL: "0" };
  const rest = { ...common, ORIGIN_BINDING: "http+json", ORIGIN_REST_URL: `${origin.base}/rest` };
  const rpcVars = { ...common, ORIGIN_URL: `${origin.base}/rpc`, ORIGIN_PROTOCOL_VERSIONS: "1.0" };
  const restVars = { ...rest, ORIGIN_PROTOCOL_VERSIONS: "1.0" };
  const rest03Vars = { ...rest, ORIGIN_PROTOCOL_VERSIONS: "0.3" };
  if (!together) return { rpcOrigin: await start(rpcVars), restOrigin: await start(restVars), rest03Origin: await start(rest03Vars) };
  const [rpc, restOnly, rest03] = [start(rpcVars), start(restVars), start(rest03Vars)];
  // All settled before a failure is reported: whatever started is in `started`, to be stopped.
  await Promise.allSettled([rpc, restOnly, rest03]);
  return { rpcOrigin: await rpc, restOrigin: await restOnly, rest03Origin: await rest03 };
}

/** Each runtime's deployments, by runtime name, started once for the file. */
const deployed = new Map<string, Promise<Deployments>>();

beforeAll(async () => {
  bundle = builtBundle();
  await new Promise<void>((resolve) => outlastClients(server).listen(0, "127.0.0.1", resolve));
  origin.base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  // wrangler dev's take seconds each: started side by side, first, and waited for by their suite (after
  // workerd's tests). workerd's one at a time: a target's processes are those that appeared while it started.
  const devs = deploy(wranglerDev, true);
  devs.catch(() => undefined); // reported by the suite that waits for it
  deployed.set(WRANGLER_DEV, devs);
  deployed.set(WORKERD, Promise.resolve(await deploy(workerd, false)));
});
afterAll(async () => {
  for (const res of origin.open) res.destroy();
  await Promise.allSettled(deployed.values());
  for (const target of started.reverse()) await target.stop();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  logs = captureConsole();
  origin.requests = [];
});

// ---- the calls ----

const message = { messageId: "m1", role: "ROLE_USER", parts: [{ text: "hi" }] };
const headers = (version: string) => ({ "Content-Type": "application/json", "A2A-Version": version, "X-API-Key": KEY });
const rpcCall = (method: string, params: unknown, version = "1.0"): BoundedCall => ({
  method: "POST",
  path: "/",
  headers: headers(version),
  body: JSON.stringify({ jsonrpc: "2.0", id: "rb-1", method, params }),
});
const restCall = (path: string): BoundedCall => ({ method: "POST", path, headers: headers("1.0"), body: JSON.stringify({ message }) });
const STREAM_03 = {
  message: { kind: "message", messageId: "m1", role: "user", parts: [{ kind: "text", text: "hi" }] },
};

/** Runs `call`, sampling the target's RSS every 100 ms; the growth over the start, MiB. */
async function measured(
  target: Target,
  call: BoundedCall,
  ms: number,
  maxBytes: number,
): Promise<{ reply: BoundedReply; growthMiB: number; elapsedMs: number }> {
  const before = rssMiB(target.pids);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMiB(target.pids))), 100);
  const begun = Date.now();
  try {
    const reply = await exchange(target.port, call, ms, maxBytes, { keepBytes: 256 * 1024 });
    peak = Math.max(peak, rssMiB(target.pids));
    return { reply, growthMiB: Math.round(peak - before), elapsedMs: Date.now() - begun };
  } finally {
    clearInterval(sampler);
    for (const res of origin.open) res.destroy();
  }
}

/** The edge's fixed error in the client's binding: the status, the reason, nothing of the origin's. */
function expectEdgeError(reply: BoundedReply, binding: "jsonrpc" | "rest", reason: string): void {
  const summary = `HTTP ${reply.status}: ${reply.body.slice(0, 300)}`;
  expect(reply.status, summary).toBe(502);
  expect(reply.headers["content-type"], summary).toMatch(/^application\/json/);
  const body = JSON.parse(reply.body);
  if (binding === "jsonrpc") expect(body, summary).toMatchObject({ jsonrpc: "2.0", id: "rb-1", error: { code: -32603 } });
  else expect(body, summary).toMatchObject({ error: { code: 502, status: "UNAVAILABLE" } });
  expect(reply.body, summary).toContain(reason);
  for (const detail of DETAILS) expect(reply.body, `the client saw "${detail}"`).not.toContain(detail);
  expect(reply.headers.location).toBeUndefined();
}

/** A stream the edge reads ended by one `event: error` well before the event's size came through. */
function expectErrorEnd(reply: BoundedReply, elapsedMs: number, binding: "jsonrpc" | "rest"): void {
  const summary = `HTTP ${reply.status}, ${reply.bytes} bytes in ${elapsedMs} ms, ended ${reply.ended}: ${reply.body.slice(0, 200)}`;
  // Ended by the edge, within the exchange's own deadline (counts, not times: the bytes bound says "early").
  expect(reply.ended, summary).toBe(true);
  expect(reply.bytes, summary).toBeLessThan(4 * MiB + 64 * 1024);
  const events = reply.body.split(/\r?\n\r?\n/).filter((block) => block.trim() !== "");
  const errors = events.filter((block) => /^event: ?error$/m.test(block));
  expect(errors, summary).toHaveLength(1);
  expect(events.at(-1), summary).toBe(errors[0]);
  const data = JSON.parse(
    errors[0]!
      .split(/\r?\n/)
      .find((line) => line.startsWith("data:"))!
      .slice(5),
  );
  if (binding === "jsonrpc") expect(data).toMatchObject({ jsonrpc: "2.0", id: "rb-1", error: { code: expect.any(Number) } });
  else expect(data).toMatchObject({ error: { code: expect.any(Number), status: expect.any(String) } });
}

/** The worker's log events since `mark`, waiting a little for `wanted` (a process's output trails its reply). */
async function eventsSince(target: Target, mark: number, wanted: string): Promise<string[]> {
  const deadline = Date.now() + 3000;
  while (!target.events(mark).includes(wanted) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  return target.events(mark);
}

const WORKERD = "workerd (built bundle)";
const WRANGLER_DEV = "wrangler dev";
const RUNTIMES = [
  [WORKERD, 100 * MiB],
  [WRANGLER_DEV, 60 * MiB],
] as const;

describe.each(RUNTIMES)("replies the edge reads are bounded, %s", (name, jsonSize) => {
  let rpcOrigin: Target; // JSON-RPC origin speaking 1.0
  let restOrigin: Target; // REST-only origin speaking 1.0
  let rest03Origin: Target; // REST-only origin speaking 0.3
  beforeAll(async () => {
    ({ rpcOrigin, restOrigin, rest03Origin } = await deployed.get(name)!);
  });

  it(`a REST-only origin's ${jsonSize / MiB} MiB JSON answer to message:send: 502 to the JSON-RPC client, RSS bounded`, async ({
    annotate,
  }) => {
    origin.plan = bigJson(jsonSize);
    const mark = rpcOrigin.mark();
    const { reply, growthMiB, elapsedMs } = await measured(restOrigin, rpcCall("SendMessage", { message }), 60_000, 8 * MiB);
    await annotate(`${jsonSize / MiB} MiB JSON reply: HTTP ${reply.status} in ${elapsedMs} ms; workerd RSS +${growthMiB} MiB`);
    expect(origin.requests).toEqual(["POST /rest/message:send"]);
    expectEdgeError(reply, "jsonrpc", "ORIGIN_INVALID_RESPONSE");
    expect(growthMiB, "workerd RSS growth, MiB").toBeLessThan(RSS_BOUND_MIB);
    expect(await eventsSince(restOrigin, mark, "origin_failed")).toContain("origin_failed");
  });

  // First: a stream the edge still holds (an earlier case, on a runtime that buffers) must not slow this one.
  const native = [
    ["JSON-RPC 1.0 SendStreamingMessage, JSON-RPC 1.0 origin", () => rpcOrigin, () => rpcCall("SendStreamingMessage", { message })],
    ["REST 1.0 message:stream, REST-only 1.0 origin", () => restOrigin, () => restCall("/rest/message:stream")],
  ] as const;
  for (const [what, target, call] of native)
    it(`the same event untranslated, ${what}: streams through as it comes`, async ({ annotate }) => {
      origin.plan = endlessEvent(60 * MiB);
      const { reply, elapsedMs, growthMiB } = await measured(target(), call(), 60_000, 8 * MiB);
      await annotate(
        `${what}: ${reply.bytes} bytes in ${elapsedMs} ms (first after ${reply.firstByteMs} ms); workerd RSS +${growthMiB} MiB`,
      );
      expect(reply.status).toBe(200);
      expect(reply.headers["content-type"]).toMatch(/^text\/event-stream/);
      // Cut by the reader at 8 MiB: the bytes came as the origin sent them, not after the event was whole.
      expect(reply.bytes, `bytes within ${elapsedMs} ms`).toBeGreaterThanOrEqual(8 * MiB);
      expect(reply.body.startsWith("data: {")).toBe(true);
      expect(reply.body).not.toContain("event: error");
    });

  const streams = [
    ["REST message:stream, JSON-RPC 1.0 origin", () => rpcOrigin, () => restCall("/rest/message:stream"), "rest", "POST /rpc"],
    [
      "REST message:stream, REST-only 0.3 origin (bridged)",
      () => rest03Origin,
      () => restCall("/rest/message:stream"),
      "rest",
      "POST /rest/v1/message:stream",
    ],
    [
      "JSON-RPC 0.3 message/stream, 1.0 origin (bridged)",
      () => rpcOrigin,
      () => rpcCall("message/stream", STREAM_03, "0.3"),
      "jsonrpc",
      "POST /rpc",
    ],
  ] as const;
  for (const [what, target, call, binding, reached] of streams)
    it(`one 60 MiB SSE event without a blank line, ${what}: the client's stream ends with event: error, RSS bounded`, async ({
      annotate,
    }) => {
      origin.plan = endlessEvent(60 * MiB);
      const mark = target().mark();
      const { reply, growthMiB, elapsedMs } = await measured(target(), call(), 60_000, 8 * MiB);
      await annotate(
        `${what}: HTTP ${reply.status}, ${reply.bytes} bytes, ended ${reply.ended} in ${elapsedMs} ms; workerd RSS +${growthMiB} MiB`,
      );
      expect(origin.requests).toEqual([reached]);
      expect(reply.status).toBe(200);
      expect(reply.headers["content-type"]).toMatch(/^text\/event-stream/);
      expectErrorEnd(reply, elapsedMs, binding);
      expect(growthMiB, "workerd RSS growth, MiB").toBeLessThan(RSS_BOUND_MIB);
      expect(await eventsSince(target(), mark, "origin_failed")).toContain("origin_failed");
    });

  it("application/json with an HTML body gives a REST client 502, not 500", async () => {
    origin.plan = fixed(200, { "content-type": "application/json" }, "<!doctype html><html><body>nginx at 10.0.0.5</body></html>");
    const mark = rpcOrigin.mark();
    const { reply } = await measured(rpcOrigin, restCall("/rest/message:send"), 60_000, MiB);
    expectEdgeError(reply, "rest", "ORIGIN_INVALID_RESPONSE");
    const events = await eventsSince(rpcOrigin, mark, "origin_failed");
    expect(events).toContain("origin_failed");
    expect(events).not.toContain("unhandled_error");
  });

  const faults = [
    [
      "500 naming its database",
      fixed(
        500,
        { "content-type": "application/json" },
        JSON.stringify({
          error: {
            code: 500,
            status: "INTERNAL",
            message: "pg: connect ECONNREFUSED 10.9.8.7:5432 at Pool.connect",
            details: [{ "@type": "type.googleapis.com/google.rpc.DebugInfo", detail: "stack" }],
          },
        }),
      ),
      "ORIGIN_ERROR",
    ],
    [
      "302 with a JSON body",
      fixed(
        302,
        { "content-type": "application/json", location: "http://10.0.0.5:8080/internal" },
        JSON.stringify({ message: "moved to http://10.0.0.5:8080/internal" }),
      ),
      "ORIGIN_INVALID_RESPONSE",
    ],
  ] as const;
  describe.each(faults)("a REST-only origin's %s", (_fault, plan, reason) => {
    it.each([
      ["rest", () => restCall("/rest/message:send")],
      ["jsonrpc", () => rpcCall("SendMessage", { message })],
    ] as const)(
      "gives the %s client 502 with the edge's fixed body",
      async (binding, call) => {
        origin.plan = plan;
        const mark = restOrigin.mark();
        const { reply } = await measured(restOrigin, call(), 60_000, MiB);
        expect(origin.requests).toEqual(["POST /rest/message:send"]);
        expectEdgeError(reply, binding, reason);
        expect(await eventsSince(restOrigin, mark, "origin_failed")).toContain("origin_failed");
      },
      90_000,
    );
  });
});
