import { createServer, type ServerResponse } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { buildBundle, serve, wranglerVars } from "../../bench/lib";
import { type Captured, captureConsole, logEvents } from "../support/console";
import {
  apiKeys,
  type CallContext,
  callerOf,
  cases,
  DOCUMENT,
  deploymentVars,
  expectLogs,
  expectOutcome,
  keyOf,
  normalAnswer,
  type OriginReply,
  type OriginSeen,
  type Outcome,
  type Row,
  SETUPS,
  type Setup,
} from "../support/parity";
import { startWranglerDev, wranglerDevDir } from "../support/processes";
import { exchange } from "../support/raw-bounded";

/** The RATE_LIMITER rule of both runtimes: refused calls of one setup (by address) stay under it. */
const RATE_LIMIT = { limit: 10, period: 60 } as const;

// ---- the origin: one process for every setup, answering JSON-RPC at /rpc and REST under /a2a/rest ----

const origin = {
  base: "",
  host: "",
  received: [] as OriginSeen[],
  sent: [] as string[],
  plan: normalAnswer as (seen: OriginSeen) => OriginReply,
  record: true,
  held: new Set<ServerResponse>(),
};
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", () => {
    const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(", ") : (v ?? "")]));
    const seen: OriginSeen = { method: req.method ?? "", path: req.url ?? "", headers, body: Buffer.concat(chunks).toString() };
    let reply: OriginReply;
    try {
      reply = origin.plan(seen);
    } catch (error) {
      reply = { status: 599, headers: { "content-type": "text/plain" }, chunks: [String(error)] };
    }
    if (origin.record) {
      origin.received.push(seen);
      origin.sent.push(reply.chunks.join(""));
    }
    res.writeHead(reply.status, reply.headers);
    for (const chunk of reply.chunks) res.write(chunk);
    if (reply.hold) {
      origin.held.add(res);
      res.on("close", () => origin.held.delete(res));
    } else res.end();
  });
});

// ---- the runtimes ----

interface Target {
  port: number;
  /** The worker's log events since `mark`. */
  events: (mark: number) => string[];
  /** A position in the log, for `events`. */
  mark: () => number;
  stop: () => Promise<void>;
}

let bundle: { path: string };
let keys: string;
let logs: Captured | undefined;

async function workerd(vars: Record<string, string>): Promise<Target> {
  const served = await serve({
    modules: true,
    scriptPath: bundle.path,
    modulesRoot: join(bundle.path, ".."),
    kvNamespaces: ["SKILLS"],
    // The push relay's Durable Object, as wrangler.toml declares it.
    durableObjects: { PUSH_RELAYS: { className: "PushRelay", useSQLite: true } },
    bindings: { ...wranglerVars(), ...vars },
    ratelimits: { RATE_LIMITER: { namespace_id: "1001", simple: RATE_LIMIT } },
  });
  const kv = await served.mf.getKVNamespace("SKILLS");
  await kv.put("default", JSON.stringify(DOCUMENT));
  // Miniflare prints the worker's console through this process's console, taken per test (beforeEach below).
  return {
    port: Number(served.url.port),
    mark: () => logs?.lines.length ?? 0,
    events: (mark) => (logs?.lines.slice(mark) ?? []).flatMap((line) => logEvents(line).map((e) => e.event)),
    stop: served.stop,
  };
}

/** wrangler dev with the `[[ratelimits]]` binding, in a directory of its own. */
async function wranglerDev(vars: Record<string, string>): Promise<Target> {
  const ratelimits = `\n[[ratelimits]]\nname = "RATE_LIMITER"\nnamespace_id = "1001"\nsimple = { limit = ${RATE_LIMIT.limit}, period = ${RATE_LIMIT.period} }\n`;
  const { args, cleanUp } = await wranglerDevDir("parity-dev-", { default: DOCUMENT }, vars, ratelimits);
  const { dev, base } = await startWranglerDev(args);
  return {
    port: Number(new URL(base).port),
    mark: () => dev.output().length,
    events: (mark) => logEvents(dev.output().slice(mark)).map((e) => e.event),
    stop: async () => {
      await dev.stop();
      cleanUp();
    },
  };
}

const RUNTIMES = [
  ["workerd (built bundle)", workerd],
  ["wrangler dev", wranglerDev],
] as const;

beforeAll(async () => {
  bundle = buildBundle();
  keys = await apiKeys();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin.host = `127.0.0.1:${(server.address() as { port: number }).port}`;
  origin.base = `http://${origin.host}`;
});
afterAll(async () => {
  for (const res of origin.held) res.destroy();
  await new Promise((resolve) => server.close(resolve));
});

// ---- the rows ----

let ip = 0;
function contextOf(rowIndex: number, comboIndex: number): CallContext {
  ip++;
  return {
    id: `call-${rowIndex}-${comboIndex}`,
    key: keyOf(rowIndex, comboIndex),
    caller: callerOf(rowIndex, comboIndex),
    rateLimit: RATE_LIMIT.limit,
    clientIp: `198.51.${Math.floor(ip / 250)}.${ip % 250}`,
  };
}

async function runRow(target: Target, row: Row, rowIndex: number, comboIndex: number): Promise<void> {
  const { combo } = cases().find((one) => one.rowIndex === rowIndex && one.comboIndex === comboIndex)!;
  const ctx = contextOf(rowIndex, comboIndex);
  origin.plan = normalAnswer;
  origin.record = false;
  for (const before of row.before?.(combo, ctx) ?? []) {
    const answer = await exchange(target.port, before, 10_000, 1024 * 1024);
    expect(answer.status, `a call before the row: ${answer.body}`).toBeLessThan(300);
  }
  origin.record = true;
  origin.received = [];
  origin.sent = [];
  origin.plan = (seen) => (row.origin ?? normalAnswer)(seen, combo);
  const mark = target.mark();
  const call = row.call(combo, ctx);
  const started = Date.now();
  try {
    const reply = await exchange(target.port, call, row.read?.ms ?? 5000, row.read?.maxBytes ?? 1024 * 1024);
    const outcome: Outcome = { ...reply, elapsedMs: Date.now() - started, received: origin.received, sent: origin.sent };
    await expectOutcome(row, combo, ctx, call, outcome, origin.host);
    // A client that went away cancels the origin's response (README "The proxy"): wait for that before
    // ending a held one ourselves, which the edge would rightly log as a broken origin stream.
    for (const deadline = Date.now() + 1000; origin.held.size > 0 && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 50));
    // workerd learns that a client left only when it next writes to it: an origin stream that holds still
    // is never cancelled. The origin then ends it cleanly (an origin that died is a row of its own).
    for (const res of origin.held) res.end();
    for (const deadline = Date.now() + 1000; origin.held.size > 0 && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 50));
    // Log lines may trail the reply (a process's output): wait for those the row must produce.
    const wanted = [...(row.logs?.(combo) ?? []), ...(row.unrouted?.(combo) ? [] : ["access"])];
    const deadline = Date.now() + 3000;
    while (!wanted.every((event) => target.events(mark).includes(event)) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    expectLogs(row, combo, target.events(mark), 0, false);
  } finally {
    for (const res of origin.held) res.destroy();
  }
}

describe.each(RUNTIMES)("parity over raw sockets, %s", (_runtime, start) => {
  describe.each(SETUPS)("origin setup %s", (setup: Setup) => {
    let target: Target;
    beforeAll(async () => {
      target = await start(deploymentVars(setup, origin.base, keys));
    }, 120_000);
    afterAll(async () => {
      await target?.stop();
    });
    // What the built bundle's workerd logs reaches this process's console: taken for each test.
    beforeEach(() => {
      logs = captureConsole();
    });
    for (const { name, row, rowIndex, comboIndex } of cases((c) => c.setup === setup))
      it(name, () => runRow(target, row, rowIndex, comboIndex), 30_000);
  });
});
