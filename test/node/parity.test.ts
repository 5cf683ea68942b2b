import { createServer, type ServerResponse } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serve, wranglerVars } from "../../bench/lib";
import { builtBundle } from "../support/built-bundle";
import { logEvents } from "../support/console";
import { outlastClients } from "../support/keep-alive";
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
import { inOneRateWindow } from "../support/rate-window";
import { exchange } from "../support/raw-bounded";

/** The RATE_LIMITER rule of both runtimes: refused calls of one setup (by address) stay under it. */
const RATE_LIMIT = { limit: 10, period: 60 } as const;

// ---- the origin: one server per runtime and setup, answering JSON-RPC at /rpc and REST under /a2a/rest ----

interface Origin {
  base: string;
  host: string;
  received: OriginSeen[];
  sent: string[];
  plan: (seen: OriginSeen) => OriginReply;
  record: boolean;
  held: Set<ServerResponse>;
  close: () => Promise<void>;
}

async function startOrigin(): Promise<Origin> {
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
  await new Promise<void>((resolve) => outlastClients(server).listen(0, "127.0.0.1", resolve));
  const host = `127.0.0.1:${(server.address() as { port: number }).port}`;
  const origin: Origin = {
    base: `http://${host}`,
    host,
    received: [],
    sent: [],
    plan: normalAnswer,
    record: true,
    held: new Set(),
    close: async () => {
      for (const res of origin.held) res.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  return origin;
}

/** Resolves once every response in `held` has closed, or after `ms`. */
function closed(held: Set<ServerResponse>, ms: number): Promise<void> {
  if (held.size === 0) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    void Promise.all([...held].map((res) => new Promise((done) => res.once("close", done)))).then(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

// ---- the runtimes ----

interface Target {
  port: number;
  /** The worker's log events since `mark`. */
  events: (mark: number) => string[];
  /** A position in the log, for `events`. */
  mark: () => number;
  /** Resolves when the log grows, or after `ms`. */
  grown: (ms: number) => Promise<void>;
  stop: () => Promise<void>;
}

/** Waits for a log's next line: `notify` is called as it grows. */
function logWaits(): { notify: () => void; grown: (ms: number) => Promise<void> } {
  const waiting = new Set<() => void>();
  return {
    notify: () => {
      for (const wake of waiting) wake();
    },
    grown: (ms) =>
      new Promise((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          waiting.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, ms);
        waiting.add(wake);
      }),
  };
}

let bundle: { path: string };
let keys: string;

async function workerd(vars: Record<string, string>): Promise<Target> {
  // The worker's log lines, this target's alone (Miniflare would print them through this process's console).
  const lines: string[] = [];
  const { notify, grown } = logWaits();
  const served = await serve({
    modules: true,
    scriptPath: bundle.path,
    modulesRoot: join(bundle.path, ".."),
    kvNamespaces: ["SKILLS"],
    // The push relay's Durable Object, as wrangler.toml declares it.
    durableObjects: {
      PUSH_RELAYS: { className: "PushRelay", useSQLite: true },
      TASK_STREAMS: { className: "TaskStream", useSQLite: true },
    },
    bindings: { ...wranglerVars(), ...vars },
    ratelimits: { RATE_LIMITER: { namespace_id: "1001", simple: RATE_LIMIT } },
    handleStructuredLogs: ({ message }) => {
      lines.push(message);
      notify();
    },
  });
  const kv = await served.mf.getKVNamespace("SKILLS");
  await kv.put("default", JSON.stringify(DOCUMENT));
  return {
    port: Number(served.url.port),
    mark: () => lines.length,
    events: (mark) => lines.slice(mark).flatMap((line) => logEvents(line).map((e) => e.event)),
    grown,
    stop: served.stop,
  };
}

/** wrangler dev with the `[[ratelimits]]` binding, in a directory of its own. */
async function wranglerDev(vars: Record<string, string>): Promise<Target> {
  const ratelimits = `\n[[ratelimits]]\nname = "RATE_LIMITER"\nnamespace_id = "1001"\nsimple = { limit = ${RATE_LIMIT.limit}, period = ${RATE_LIMIT.period} }\n`;
  const { args, cleanUp } = await wranglerDevDir("parity-dev-", { default: DOCUMENT }, vars, ratelimits);
  // A dev that never started stops itself (startWranglerDev); its directory goes with it.
  const { dev, base } = await startWranglerDev(args).catch((error: unknown) => {
    cleanUp();
    throw error;
  });
  const { notify, grown } = logWaits();
  dev.child.stdout?.on("data", notify);
  dev.child.stderr?.on("data", notify);
  return {
    port: Number(new URL(base).port),
    mark: () => dev.output().length,
    events: (mark) => logEvents(dev.output().slice(mark)).map((e) => e.event),
    grown,
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
  bundle = builtBundle();
  keys = await apiKeys();
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

async function runRow(target: Target, origin: Origin, row: Row, rowIndex: number, comboIndex: number): Promise<void> {
  const { combo } = cases(undefined, true).find((one) => one.rowIndex === rowIndex && one.comboIndex === comboIndex)!;
  const ctx = contextOf(rowIndex, comboIndex);
  origin.plan = normalAnswer;
  origin.record = false;
  if (row.before) await inOneRateWindow(RATE_LIMIT.period);
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
    // A reply the edge ended: it has stopped reading the origin, and cancels the origin's response (README
    // "The proxy"); wait for that before ending a held one ourselves, which the edge would rightly log as a
    // broken origin stream. A reply the client cut instead (a native stream) is still being relayed, and
    // workerd learns that a client left only when it next writes to it: an origin stream that holds still
    // is never cancelled, so nothing is waited for.
    if (reply.ended) await closed(origin.held, 1000);
    // The origin then ends it cleanly (an origin that died is a row of its own).
    for (const res of origin.held) res.end();
    await closed(origin.held, 1000);
    // Log lines may trail the reply (a process's output): wait for those the row must produce.
    const wanted = [...(row.logs?.(combo) ?? []), ...(row.unrouted?.(combo) ? [] : ["access"])];
    const deadline = Date.now() + 3000;
    while (!wanted.every((event) => target.events(mark).includes(event)) && Date.now() < deadline)
      await target.grown(deadline - Date.now());
    expectLogs(row, combo, target.events(mark), 0, false);
  } finally {
    for (const res of origin.held) res.destroy();
  }
}

// The runtimes, and each one's setups, run side by side: each setup has a worker process, an origin and a
// log of its own. A setup's rows run one after another (they share its origin's plan and its log).
describe.concurrent.each(RUNTIMES)("parity over raw sockets, %s", (_runtime, start) => {
  const setups = new Map<Setup, { origin: Origin; target: Target }>();
  // Started together in one hook: hooks and tests share vitest's concurrency limit, and a hook per setup would
  // hold the slots of the other runtime's rows for as long as wrangler dev takes to start.
  beforeAll(async () => {
    const starts = SETUPS.map(async (setup) => {
      const origin = await startOrigin();
      try {
        // Streams kept (STREAM_RESUME=on): every row's stream goes through a TaskStream here, while the workers
        // runner (test/worker/parity.test.ts) runs every row with it off; the rows are the same for both.
        const vars = { ...deploymentVars(setup, origin.base, keys), STREAM_RESUME: "on" };
        setups.set(setup, { origin, target: await start(vars) });
      } catch (error) {
        await origin.close();
        throw error;
      }
    });
    // All settled before a failure is reported: whatever started is in `setups`, to be stopped.
    await Promise.allSettled(starts);
    await Promise.all(starts);
  });
  afterAll(async () => {
    await Promise.all(
      [...setups.values()].map(async ({ origin, target }) => {
        await target.stop();
        await origin.close();
      }),
    );
  });
  describe.concurrent.each(SETUPS)("origin setup %s", (setup: Setup) => {
    for (const { name, row, rowIndex, comboIndex } of cases((c) => c.setup === setup, true))
      it(name, { concurrent: false, timeout: 30_000 }, () => {
        const { target, origin } = setups.get(setup)!;
        return runRow(target, origin, row, rowIndex, comboIndex);
      });
  });
});
