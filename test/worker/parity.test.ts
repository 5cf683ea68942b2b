// The parity table (test/support/parity.ts) in workerd, through the worker with an injected origin:
// every policy x every client binding and version x every origin kind. The same table over raw
// sockets to the built bundle and under `wrangler dev` is test/node/parity.test.ts.
import { env as baseEnv } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { captureConsole } from "../support/console";
import {
  apiKeys,
  type CallContext,
  type ClientCall,
  callerOf,
  cases,
  DOCUMENT,
  deploymentVars,
  expectAccess,
  expectLogs,
  expectOutcome,
  keyOf,
  normalAnswer,
  type OriginReply,
  type OriginSeen,
  type Outcome,
  type Row,
  SETUPS,
} from "../support/parity";
import { inOneRateWindow } from "../support/rate-window";
import { callVia, documentsKv, makeEnv } from "../support/worker";

const HOST = "https://agents.example.com";
const ORIGIN_HOST = "origin.internal:8080";
const ORIGIN_BASE = `http://${ORIGIN_HOST}`;
/** TEST_RATE_LIMITER's limit and period, seconds (vitest.config.ts). */
const RATE_LIMIT = 3;
const RATE_PERIOD = 60;
/**
 * BODY_TIMEOUT_MS at its least (src/config/variables.ts), for the row about it only (its body stalls forever,
 * so any bound is met): every other row runs with the default, 10 s, since a whole body in memory once missed
 * 100 ms on a loaded machine (an oversized one answered 408, not 413). Over sockets (test/node/parity.test.ts),
 * the table's own.
 */
const BODY_TIMEOUT_MS = "100";

/** The origin of every setup: records what it receives, answers by the current row's plan. */
const origin = {
  received: [] as OriginSeen[],
  sent: [] as string[],
  plan: normalAnswer as (seen: OriginSeen) => OriginReply,
  record: true,
  async fetch(input: string, init?: RequestInit): Promise<Response> {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const seen: OriginSeen = {
      method: request.method,
      path: url.pathname + url.search,
      headers: Object.fromEntries(request.headers),
      body: request.method === "GET" ? "" : await request.text(),
    };
    const reply = origin.plan(seen);
    if (origin.record) {
      origin.received.push(seen);
      origin.sent.push(reply.chunks.join(""));
    }
    return new Response(streamOf(reply), { status: reply.status, headers: reply.headers });
  },
};

/** The edge's own fetch where the origin is reached through ORIGIN_VPC: nothing may go that way. */
const noFetch = {
  used: [] as string[],
  fetch(input: string): Promise<Response> {
    noFetch.used.push(String(input));
    return Promise.resolve(new Response("fetch was used where ORIGIN_VPC reaches the origin", { status: 599 }));
  },
};

/** The reply's chunks as a stream; a held one stays open until the reader cancels it. */
function streamOf(reply: OriginReply): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let at = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = reply.chunks[at++];
      if (chunk !== undefined) controller.enqueue(encoder.encode(chunk));
      else if (!reply.hold) controller.close();
      else return new Promise<void>(() => undefined); // nothing more, ever (until cancelled)
    },
  });
}

/**
 * How the edge reaches the origin: fetch to its URL, or the same URL through a Workers VPC Service binding
 * (ORIGIN_VPC, here the recording origin itself as the binding's Fetcher: proxy/origin-router.ts). Over sockets
 * (test/node/parity.test.ts) only the first: Miniflare forwards a VPC binding to Cloudflare.
 */
const REACHES = ["fetch", "ORIGIN_VPC"] as const;
type Reach = (typeof REACHES)[number];
const envs = new Map<string, Env>();
const stallEnvs = new Map<string, Env>();
beforeAll(async () => {
  const keys = await apiKeys();
  const limiter = (baseEnv as unknown as { TEST_RATE_LIMITER: RateLimit }).TEST_RATE_LIMITER;
  for (const setup of SETUPS) {
    for (const reach of REACHES) {
      const vars = {
        ...deploymentVars(setup, ORIGIN_BASE, keys),
        SKILLS: documentsKv({ default: DOCUMENT }),
        RATE_LIMITER: limiter,
        ...(reach === "ORIGIN_VPC" ? { ORIGIN_VPC: origin } : {}),
      };
      envs.set(`${setup} ${reach}`, makeEnv({ ...vars, BODY_TIMEOUT_MS: "10000" }));
      stallEnvs.set(`${setup} ${reach}`, makeEnv({ ...vars, BODY_TIMEOUT_MS }));
    }
  }
});

let ip = 0;
function contextOf(rowIndex: number, comboIndex: number): CallContext {
  return {
    id: `call-${rowIndex}-${comboIndex}`,
    key: keyOf(rowIndex, comboIndex),
    caller: callerOf(rowIndex, comboIndex),
    rateLimit: RATE_LIMIT,
    clientIp: `198.51.${Math.floor(++ip / 250)}.${ip % 250}`,
  };
}

function requestOf(call: ClientCall): RequestInit {
  const init: RequestInit = { method: call.method, headers: call.headers };
  if (call.body !== undefined) init.body = call.body;
  if (call.stall !== undefined) {
    const bytes = new TextEncoder().encode(call.stall);
    init.body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes); // ... and nothing more, ever
      },
    });
  }
  return init;
}

/** Reads the response for at most `ms` and `maxBytes`, then cancels the rest. */
async function readBounded(response: Response, ms: number, maxBytes: number): Promise<{ body: string; ended: boolean }> {
  if (!response.body) return { body: "", ended: true };
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  const deadline = Date.now() + ms;
  let body = "";
  let bytes = 0;
  for (;;) {
    const left = deadline - Date.now();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), Math.max(0, left));
    });
    const next = await Promise.race([reader.read(), timeout]);
    clearTimeout(timer);
    if (next !== "timeout" && next.done) return { body: body + decoder.decode(), ended: true };
    if (next !== "timeout") {
      bytes += next.value.length;
      body += decoder.decode(next.value, { stream: true });
    }
    // Cut as soon as `maxBytes` came, not at the next chunk: a stream that holds still after them (an event
    // the origin never ends) would keep the read until `ms`.
    if (next === "timeout" || bytes >= maxBytes) {
      await reader.cancel().catch(() => undefined);
      return { body: body + decoder.decode(), ended: false };
    }
  }
}

async function runRow(row: Row, comboIndex: number, rowIndex: number, reach: Reach): Promise<void> {
  const item = cases().find((one) => one.rowIndex === rowIndex && one.comboIndex === comboIndex)!;
  const { combo } = item;
  const env = (row.policy === "BODY_TIMEOUT_MS" ? stallEnvs : envs).get(`${combo.setup} ${reach}`)!;
  const ctx = contextOf(rowIndex, comboIndex);
  const logs = captureConsole();
  origin.plan = normalAnswer;
  const befores = row.before?.(combo, ctx) ?? [];
  if (befores.length > 0) await inOneRateWindow(RATE_PERIOD);
  for (const before of befores) {
    origin.record = false;
    const answer = await callVia(reach === "fetch" ? origin : noFetch, `${HOST}${before.path}`, requestOf(before), env);
    expect(answer.status, `a call before the row: ${await answer.text()}`).toBeLessThan(300);
  }
  origin.record = true;
  origin.received = [];
  origin.sent = [];
  origin.plan = (seen) => (row.origin ?? normalAnswer)(seen, combo);
  const call = row.call(combo, ctx);
  const started = Date.now();
  noFetch.used = [];
  const response = await callVia(reach === "fetch" ? origin : noFetch, `${HOST}${call.path}`, requestOf(call), env);
  const read = await readBounded(response, row.read?.ms ?? 5000, row.read?.maxBytes ?? 1024 * 1024);
  const outcome: Outcome = {
    status: response.status,
    headers: Object.fromEntries(response.headers),
    ...read,
    elapsedMs: Date.now() - started,
    received: origin.received,
    sent: origin.sent,
  };
  await expectOutcome(row, combo, ctx, call, outcome, ORIGIN_HOST);
  expect(noFetch.used, "requests the edge fetched itself instead of through ORIGIN_VPC").toEqual([]);
  expect(
    logs.lines.filter((line) => !line.includes('{"level":')),
    "console output that is no log event",
  ).toEqual([]);
  expectLogs(
    row,
    combo,
    logs.events().map((e) => e.event),
    befores.length,
  );
  expectAccess(row, combo, ctx, outcome, logs.events("access").at(-1));
}

describe.each(SETUPS.flatMap((setup) => REACHES.map((reach) => [setup, reach] as const)))(
  "parity, origin setup %s, reached by %s",
  (setup, reach) => {
    // The rate limit's rows count calls per caller in the one RATE_LIMITER binding (vitest.config.ts): they run
    // once, reached by fetch; the limit is checked before any origin is reached, however it is reached.
    const rows = cases((c) => c.setup === setup).filter(({ row }) => reach === "fetch" || row.before === undefined);
    // One test per (row, combination), named in full (it.each would shorten the names).
    for (const { name, row, comboIndex, rowIndex } of rows) it(name, () => runRow(row, comboIndex, rowIndex, reach), 20_000);
  },
);
