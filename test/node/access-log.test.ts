// The access record as an operator reads it: the worker's own output under `wrangler dev` (what
// `wrangler tail` shows of a deployment), for a send, a stream, a bridged call, a refused call and a
// failover, with the SDK origin agent behind it; and W3C Trace Context as that origin receives it.
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureConsole, type LogEvent, logEvents } from "../support/console";
import { type OriginAgent, startOriginAgent } from "../support/origin-agent";
import { type Started, startWranglerDev, wranglerDevDir } from "../support/processes";
import { until } from "../support/wait";

const KEY = "access-log-key-0123456789";
const CLIENT_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const CLIENT_PARENT = "00f067aa0ba902b7";
const DOCUMENT = {
  name: "Logged Agent",
  capabilities: { streaming: true },
  securitySchemes: { partnerKey: { type: "apiKey", in: "header", name: "X-API-Key" } },
  security: [{ partnerKey: [] }],
};
const MESSAGE = {
  "1.0": { messageId: "m1", role: "ROLE_USER", parts: [{ text: "private words" }] },
  "0.3": { kind: "message", messageId: "m1", role: "user", parts: [{ kind: "text", text: "private words" }] },
};

let first: OriginAgent;
let second: OriginAgent;
let dev: Started;
let base: string;
let cleanUp: () => void;

beforeAll(async () => {
  // The region's origin first (Miniflare's request.cf is colo DFW, continent NA), ORIGIN_URL after it.
  first = await startOriginAgent({ streamDelayMs: 5 });
  second = await startOriginAgent({ streamDelayMs: 5 });
  const vars = {
    ORIGIN_REGIONS: JSON.stringify({ DFW: first.url, NA: first.url }),
    ORIGIN_URL: second.url,
    ORIGIN_PROTOCOL_VERSIONS: "1.0",
    AUTH_API_KEYS: JSON.stringify({ partner: `sha256:${createHash("sha256").update(KEY).digest("hex")}` }),
    ACCESS_LOG: "all",
    KV_CACHE_TTL: "0",
  };
  const dir = await wranglerDevDir("access-log-", { default: DOCUMENT }, vars);
  cleanUp = dir.cleanUp;
  ({ dev, base } = await startWranglerDev(dir.args));
});

afterAll(async () => {
  await dev?.stop();
  cleanUp?.();
  await first?.stop();
  await second?.stop();
});

/** One call and its access record, as the worker printed it (the record of a stream comes at its end). */
async function callAndRecord(
  body: unknown,
  headers: Record<string, string>,
): Promise<{ response: Response; text: string; record: LogEvent }> {
  captureConsole(); // the origin agents' own lines
  const mark = dev.output().length;
  const response = await fetch(base, {
    method: "POST",
    headers: { "content-type": "application/json", "A2A-Version": "1.0", "X-API-Key": KEY, ...headers },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  const records = await until(() => {
    const found = logEvents(dev.output().slice(mark), "access");
    return found.length > 0 ? found : undefined;
  }, "the call's access record in wrangler dev's output");
  expect(records).toHaveLength(1);
  return { response, text, record: (records ?? [])[0]! };
}

const rpc = (method: string, params: unknown, id: number | string = 1) => ({ jsonrpc: "2.0", id, method, params });
const traceparentOf = (origin: OriginAgent) => origin.requests.at(-1)?.headers.traceparent ?? "";

describe("the access record under wrangler dev", () => {
  it("records a send with a client's trace, which the origin continues with the edge as its parent", async () => {
    const headers = { traceparent: `00-${CLIENT_TRACE}-${CLIENT_PARENT}-01`, tracestate: "vendor=opaque" };
    const { response, text, record } = await callAndRecord(rpc("SendMessage", { message: MESSAGE["1.0"] }), headers);
    expect(response.status).toBe(200);
    expect(record).toMatchObject({
      level: "info",
      traceId: CLIENT_TRACE,
      operation: "SendMessage",
      binding: "jsonrpc",
      version: "1.0",
      originBinding: "jsonrpc",
      originVersion: "1.0",
      bridged: false,
      caller: "partnerKey:partner",
      agent: "127.0.0.1",
      path: "/",
      origin: new URL(first.url).host,
      attempts: 1,
      failovers: 0,
      status: 200,
      taskState: "TASK_STATE_COMPLETED",
      contextId: expect.any(String),
      bytesOut: Buffer.byteLength(text),
      events: 0,
      end: "done",
    });
    expect(record.bytesIn).toBeGreaterThan(0);
    expect(JSON.stringify(record)).not.toContain("private words");
    expect(JSON.stringify(record)).not.toContain(KEY);
    expect(traceparentOf(first)).toMatch(new RegExp(`^00-${CLIENT_TRACE}-(?!${CLIENT_PARENT})[0-9a-f]{16}-01$`));
    expect(first.requests.at(-1)?.headers.tracestate).toBe("vendor=opaque");
  });

  it("records a stream at its end, with its events and the task's last state", async () => {
    const { text, record } = await callAndRecord(rpc("SendStreamingMessage", { message: MESSAGE["1.0"] }), {});
    const events = text.split("\n\n").filter((block) => block.includes("data:")).length;
    expect(events).toBeGreaterThan(1);
    expect(record).toMatchObject({
      operation: "SendStreamingMessage",
      status: 200,
      events,
      end: "done",
      taskState: "TASK_STATE_COMPLETED",
    });
    // An edge-made trace: the origin receives the record's trace id.
    expect(traceparentOf(first)).toMatch(new RegExp(`^00-${record.traceId}-[0-9a-f]{16}-01$`));
  });

  it("records a bridged call (a 0.3 client, a 1.0 origin), and replaces a malformed traceparent", async () => {
    const malformed = `00-${CLIENT_TRACE.toUpperCase()}-${CLIENT_PARENT}-01`;
    const { record } = await callAndRecord(rpc("message/send", { message: MESSAGE["0.3"] }), {
      "A2A-Version": "0.3",
      traceparent: malformed,
    });
    expect(record).toMatchObject({
      operation: "SendMessage",
      version: "0.3",
      originVersion: "1.0",
      bridged: true,
      status: 200,
      taskState: "completed",
    });
    expect(record.traceId).not.toBe(CLIENT_TRACE);
    expect(traceparentOf(first)).toMatch(new RegExp(`^00-${record.traceId}-[0-9a-f]{16}-01$`));
    expect(first.requests.map((r) => r.headers.traceparent)).not.toContain(malformed);
  });

  it("records a refused call with its reason, and the error body names the same trace", async () => {
    const received = first.requests.length;
    const { response, text, record } = await callAndRecord(rpc("GetTask", { id: "t1" }), { "X-API-Key": "wrong-key-0123456789" });
    expect(response.status).toBe(401);
    expect(record).toMatchObject({ level: "warn", status: 401, reason: "UNAUTHENTICATED", caller: "anonymous", attempts: 0 });
    expect(JSON.parse(text).error.data).toContainEqual({
      "@type": "type.googleapis.com/google.rpc.RequestInfo",
      requestId: record.traceId,
    });
    expect(first.requests.length).toBe(received);
  });

  it("records a failover: the region's origin down, ORIGIN_URL answers", async () => {
    await first.stop();
    const { record } = await callAndRecord(rpc("SendMessage", { message: MESSAGE["1.0"] }), {});
    expect(record).toMatchObject({ status: 200, origin: new URL(second.url).host, attempts: 2, failovers: 1 });
    const lines = logEvents(dev.output()).filter((e) => e.traceId === record.traceId);
    expect(lines.map((e) => e.event).sort(), "every line of the call carries its trace id").toEqual(["access", "origin_failed"]);
  });
});
