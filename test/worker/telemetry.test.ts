// Telemetry inside workerd: W3C Trace Context at the edge (validated, the edge a span of the trace, a
// fresh trace when none came), the trace id in log lines, error bodies and the caller assertion, the
// access record's fields per call, and Analytics Engine data points through a recording CALL_METRICS.
import { exportJWK, generateKeyPair, importJWK, jwtVerify } from "jose";
import { describe, expect, it } from "vitest";
import { EdgeError } from "../../src/errors/failures";
import { admitRequest, type EdgeRequest } from "../../src/http/edge-request";
import { requestTarget } from "../../src/http/request-target";
import { observeCall } from "../../src/observe/call-scope";
import { runtimeFor } from "../../src/runtime";
import { captureConsole, type LogEvent } from "../support/console";
import { apiKeyCaller, callVia, fakeOrigin, makeEnv } from "../support/worker";

const PUBLIC = "https://agents.example.com";
const PRIVATE = "http://10.1.2.3:8080";
const CLIENT_TRACE = "0af7651916cd43dd8448eb211c80319c";
const CLIENT_PARENT = "b7ad6b7169203331";
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-0[01]$/;
const env = (overrides: Record<string, unknown> = {}) => makeEnv({ ORIGIN_URL: `${PRIVATE}/rpc`, EDGE_AUTH: "off", ...overrides });

const TASK = { id: "task-1", contextId: "ctx-1", status: { state: "TASK_STATE_COMPLETED" } };
const rpcBody = (method: string, id: string | number = 1, params: unknown = { message: { text: "secret words" } }) =>
  JSON.stringify({ jsonrpc: "2.0", id, method, params });
const post = (body: string, headers: Record<string, string> = {}): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/json", "A2A-Version": "1.0", ...headers },
  body,
});
const taskOrigin = () =>
  fakeOrigin(async (req) => {
    const { id } = (await req.clone().json()) as { id: unknown };
    return Response.json({ jsonrpc: "2.0", id, result: { task: TASK } });
  });

/** A CALL_METRICS binding that keeps what the worker writes (Miniflare's own discards it). */
function recordingMetrics() {
  const points: AnalyticsEngineDataPoint[] = [];
  return { points, binding: { writeDataPoint: (point?: AnalyticsEngineDataPoint) => point && points.push(point) } };
}

const access = (logs: { events: (event?: string) => LogEvent[] }) => logs.events("access");

describe("W3C Trace Context", () => {
  it("continues a client's trace: the origin receives its trace id with the edge as the parent, and its tracestate", async () => {
    captureConsole();
    const origin = taskOrigin();
    const headers = { traceparent: `00-${CLIENT_TRACE}-${CLIENT_PARENT}-01`, tracestate: "vendor=opaque,other@sys=1" };
    await callVia(origin, `${PUBLIC}/`, post(rpcBody("SendMessage"), headers), env());
    const seen = origin.requests[0]!.headers;
    const [, traceId, parent] = TRACEPARENT.exec(seen.get("traceparent") ?? "") ?? [];
    expect(traceId).toBe(CLIENT_TRACE);
    expect(parent).toMatch(/^[0-9a-f]{16}$/);
    expect(parent).not.toBe(CLIENT_PARENT);
    expect(seen.get("traceparent")?.endsWith("-01")).toBe(true);
    expect(seen.get("tracestate")).toBe("vendor=opaque,other@sys=1");
  });

  it("starts a fresh trace for a call without one, and a new one for every call", async () => {
    captureConsole();
    const origin = taskOrigin();
    await callVia(origin, `${PUBLIC}/`, post(rpcBody("SendMessage")), env());
    await callVia(origin, `${PUBLIC}/`, post(rpcBody("SendMessage")), env());
    const ids = origin.requests.map((r) => TRACEPARENT.exec(r.headers.get("traceparent") ?? "")?.[1]);
    expect(ids[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(ids[1]).toMatch(/^[0-9a-f]{32}$/);
    expect(ids[0]).not.toBe(ids[1]);
    expect(origin.requests[0]!.headers.get("tracestate")).toBeNull();
  });

  it.each([
    ["upper-case hex", `00-${CLIENT_TRACE.toUpperCase()}-${CLIENT_PARENT}-01`],
    ["an all-zero trace id", `00-${"0".repeat(32)}-${CLIENT_PARENT}-01`],
    ["an all-zero parent id", `00-${CLIENT_TRACE}-${"0".repeat(16)}-01`],
    ["version ff", `ff-${CLIENT_TRACE}-${CLIENT_PARENT}-01`],
    ["version 00 with a fifth field", `00-${CLIENT_TRACE}-${CLIENT_PARENT}-01-extra`],
    ["a short trace id", `00-${CLIENT_TRACE.slice(2)}-${CLIENT_PARENT}-01`],
    ["no dashes", `00${CLIENT_TRACE}${CLIENT_PARENT}01`],
  ])("replaces a malformed traceparent (%s), never forwarding it or its tracestate", async (_name, value) => {
    captureConsole();
    const origin = taskOrigin();
    await callVia(origin, `${PUBLIC}/`, post(rpcBody("SendMessage"), { traceparent: value, tracestate: "vendor=x" }), env());
    const seen = origin.requests[0]!.headers;
    expect(seen.get("traceparent")).toMatch(TRACEPARENT);
    expect(seen.get("traceparent")?.toLowerCase()).not.toContain(CLIENT_TRACE);
    expect(seen.get("tracestate")).toBeNull();
  });

  it("drops a malformed tracestate and keeps the valid traceparent", async () => {
    captureConsole();
    const origin = taskOrigin();
    const headers = { traceparent: `00-${CLIENT_TRACE}-${CLIENT_PARENT}-00`, tracestate: "Upper=1,ok=2" };
    await callVia(origin, `${PUBLIC}/`, post(rpcBody("SendMessage"), headers), env());
    expect(origin.requests[0]!.headers.get("traceparent")).toContain(CLIENT_TRACE);
    expect(origin.requests[0]!.headers.get("tracestate")).toBeNull();
  });

  it("reads a later version as version 00 and passes it on as 00 (§3.2.4)", async () => {
    captureConsole();
    const origin = taskOrigin();
    await callVia(
      origin,
      `${PUBLIC}/`,
      post(rpcBody("SendMessage"), { traceparent: `01-${CLIENT_TRACE}-${CLIENT_PARENT}-01-later` }),
      env(),
    );
    expect(origin.requests[0]!.headers.get("traceparent")).toMatch(new RegExp(`^00-${CLIENT_TRACE}-[0-9a-f]{16}-01$`));
  });

  it("puts the trace id in every log line of the call and in the error body (google.rpc.RequestInfo)", async () => {
    const logs = captureConsole();
    const origin = fakeOrigin(() => Promise.reject(new TypeError("refused")));
    const response = await callVia(
      origin,
      `${PUBLIC}/`,
      post(rpcBody("GetTask", 3, { id: "t1" }), { traceparent: `00-${CLIENT_TRACE}-${CLIENT_PARENT}-01` }),
      env(),
    );
    expect(response.status).toBe(502);
    const body = (await response.json()) as { error: { data: Record<string, unknown>[] } };
    expect(body.error.data).toContainEqual({ "@type": "type.googleapis.com/google.rpc.RequestInfo", requestId: CLIENT_TRACE });
    const events = logs.events();
    expect(events.map((e) => e.event).sort()).toEqual(["access", "origin_failed"]);
    for (const event of events) expect(event.traceId, JSON.stringify(event)).toBe(CLIENT_TRACE);
  });

  it("names the trace in the caller assertion (`trace_id`), verifiable with the worker's key", async () => {
    captureConsole();
    const { env: keyed, headers } = await apiKeyCaller();
    const pair = await generateKeyPair("ES256", { extractable: true });
    const assertionKey = { ...(await exportJWK(pair.privateKey)), kid: "edge-assertion" };
    const origin = taskOrigin();
    const workerEnv = env({ ...keyed, EDGE_AUTH: "enforce", AUTH_ASSERTION_KEY: JSON.stringify(assertionKey) });
    await callVia(
      origin,
      `${PUBLIC}/`,
      post(rpcBody("SendMessage"), { ...headers, traceparent: `00-${CLIENT_TRACE}-${CLIENT_PARENT}-01` }),
      workerEnv,
    );
    const assertion = origin.requests[0]!.headers.get("a2a-caller-assertion")!;
    const { kty, crv, x, y } = assertionKey;
    const { payload } = await jwtVerify(assertion, await importJWK({ kty, crv, x, y }, "ES256"), { audience: `${PRIVATE}/rpc` });
    expect(payload.trace_id).toBe(CLIENT_TRACE);
  });
});

describe("the access record", () => {
  it("records a send: operation, binding, versions, caller, agent, origin, status, task state, bytes and timings", async () => {
    const logs = captureConsole();
    const { env: keyed, headers } = await apiKeyCaller();
    const body = rpcBody("SendMessage", "s1");
    const response = await callVia(
      taskOrigin(),
      `${PUBLIC}/`,
      post(body, headers),
      env({ ...keyed, EDGE_AUTH: "enforce", ACCESS_LOG: "all" }),
    );
    const text = await response.text();
    const [record] = access(logs);
    expect(access(logs)).toHaveLength(1);
    expect(record).toMatchObject({
      level: "info",
      binding: "jsonrpc",
      operation: "SendMessage",
      version: "1.0",
      originBinding: "jsonrpc",
      originVersion: "1.0",
      bridged: false,
      caller: "partnerKey:partner",
      agent: "agents.example.com",
      path: "/",
      origin: "10.1.2.3:8080",
      attempts: 1,
      failovers: 0,
      status: 200,
      taskState: "TASK_STATE_COMPLETED",
      contextId: "ctx-1",
      bytesIn: body.length,
      bytesOut: text.length,
      events: 0,
      end: "done",
      traceId: expect.stringMatching(/^[0-9a-f]{32}$/),
      firstByteMs: expect.any(Number),
      durationMs: expect.any(Number),
    });
    const line = JSON.stringify(record);
    for (const secret of ["secret words", "partner-key-0123456789", 'task-1"']) expect(line).not.toContain(secret);
  });

  it("records a stream when it ends: its events, its last task state", async () => {
    const logs = captureConsole();
    const events = [
      { task: { ...TASK, status: { state: "TASK_STATE_WORKING" } } },
      { statusUpdate: { taskId: "task-1", contextId: "ctx-1", status: { state: "TASK_STATE_COMPLETED" } } },
    ].map((result) => `data: ${JSON.stringify({ jsonrpc: "2.0", id: 9, result })}\n\n`);
    const origin = fakeOrigin(() => new Response(events.join(""), { headers: { "content-type": "text/event-stream" } }));
    const response = await callVia(origin, `${PUBLIC}/`, post(rpcBody("SendStreamingMessage", 9)), env({ ACCESS_LOG: "all" }));
    expect(access(logs), "no record before the stream ends").toEqual([]);
    const text = await response.text();
    expect(access(logs)).toEqual([
      expect.objectContaining({
        operation: "SendStreamingMessage",
        status: 200,
        events: 2,
        end: "done",
        taskState: "TASK_STATE_COMPLETED",
        contextId: "ctx-1",
        bytesOut: text.length,
      }),
    ]);
  });

  it("records a stream that broke off by default (ACCESS_LOG=errors), from the error event that ends it", async () => {
    const logs = captureConsole();
    let fail!: (e: Error) => void;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(`data: ${JSON.stringify({ jsonrpc: "2.0", id: 8, result: { task: TASK } })}\n\n`));
        fail = (e) => controller.error(e);
      },
    });
    const origin = fakeOrigin(() => new Response(body, { headers: { "content-type": "text/event-stream" } }));
    const response = await callVia(origin, `${PUBLIC}/`, post(rpcBody("SendStreamingMessage", 8)), env());
    const reader = response.body!.getReader();
    await reader.read();
    expect(access(logs), "a stream still running has no record").toEqual([]);
    fail(new Error("connection reset"));
    while (!(await reader.read()).done);
    expect(access(logs)).toEqual([
      expect.objectContaining({
        level: "warn",
        operation: "SendStreamingMessage",
        status: 200,
        events: 2,
        reason: "ORIGIN_STREAM_BROKEN",
        errorCode: -32603,
      }),
    ]);
    expect(logs.events("origin_failed")).toEqual([expect.objectContaining({ kind: "stream_broken" })]);
  });

  it("records a bridged call (a 1.0 client, a 0.3 origin) with both versions", async () => {
    const logs = captureConsole();
    const origin = fakeOrigin(async (req) => {
      const { id } = (await req.clone().json()) as { id: unknown };
      return Response.json({
        jsonrpc: "2.0",
        id,
        result: { kind: "task", id: "task-1", contextId: "ctx-3", status: { state: "completed" } },
      });
    });
    const message = { messageId: "m1", role: "ROLE_USER", parts: [{ text: "hi" }] };
    await (
      await callVia(
        origin,
        `${PUBLIC}/`,
        post(rpcBody("SendMessage", 4, { message })),
        env({ ACCESS_LOG: "all", ORIGIN_PROTOCOL_VERSIONS: "0.3" }),
      )
    ).text();
    expect(access(logs)).toEqual([
      expect.objectContaining({
        operation: "SendMessage",
        version: "1.0",
        originVersion: "0.3",
        bridged: true,
        status: 200,
        contextId: "ctx-3",
        taskState: "TASK_STATE_COMPLETED",
      }),
    ]);
  });

  it("records a refused call by default (ACCESS_LOG=errors) with its reason and code, and no successful one", async () => {
    const logs = captureConsole();
    const origin = taskOrigin();
    await callVia(origin, `${PUBLIC}/`, post(rpcBody("SendMessage")), env());
    expect(access(logs), "a successful call at the default level").toEqual([]);
    const response = await callVia(
      origin,
      `${PUBLIC}/`,
      post(rpcBody("CancelTask", 5, { id: "t1" })),
      env({ METHOD_ALLOWLIST: "SendMessage" }),
    );
    expect(response.status).toBe(200);
    // A failure's body is counted on its way, the record written when it has gone.
    const text = await response.text();
    expect(access(logs)).toEqual([
      expect.objectContaining({
        operation: "CancelTask",
        status: 200,
        reason: "METHOD_NOT_FOUND",
        errorCode: -32601,
        attempts: 0,
        caller: "anonymous",
        bytesOut: text.length,
      }),
    ]);
    expect(access(logs)[0]).not.toHaveProperty("origin");
  });

  it("records the failovers and the origin that answered", async () => {
    const logs = captureConsole();
    const origin = fakeOrigin((req) =>
      new URL(req.url).host === "eu-2.internal"
        ? Response.json({ jsonrpc: "2.0", id: 1, result: { task: TASK } })
        : Promise.reject(new TypeError("refused")),
    );
    const regions = JSON.stringify({ EU: ["http://eu-1.internal/rpc", "http://eu-2.internal/rpc"] });
    const init = { ...post(rpcBody("GetTask", 1, { id: "t1" })), cf: { continent: "EU" } };
    await (await callVia(origin, `${PUBLIC}/`, init, env({ ACCESS_LOG: "all", ORIGIN_REGIONS: regions }))).text();
    expect(access(logs)).toEqual([expect.objectContaining({ origin: "eu-2.internal", attempts: 2, failovers: 1, status: 200 })]);
  });

  it("records a REST call in its binding, and hashes the subject with ACCESS_LOG_HASH_SUBJECT", async () => {
    const logs = captureConsole();
    const { env: keyed, headers } = await apiKeyCaller();
    const workerEnv = env({ ...keyed, EDGE_AUTH: "enforce", ACCESS_LOG: "all", ACCESS_LOG_HASH_SUBJECT: "true", REST_PATH: "/rest" });
    const init = { method: "GET", headers: { ...headers, "A2A-Version": "1.0" } };
    await (await callVia(taskOrigin(), `${PUBLIC}/rest/tasks/task-1`, init, workerEnv)).text();
    const [record] = access(logs);
    expect(record).toMatchObject({
      binding: "http+json",
      operation: "GetTask",
      path: "/rest",
      caller: expect.stringMatching(/^partnerKey:sha256:[0-9a-f]{16}$/),
    });
    expect(JSON.stringify(record)).not.toContain('partner"');
  });

  it("records nothing for a successful call left out by ACCESS_LOG_SAMPLE, and nothing at ACCESS_LOG=off", async () => {
    const logs = captureConsole();
    await (
      await callVia(taskOrigin(), `${PUBLIC}/`, post(rpcBody("SendMessage")), env({ ACCESS_LOG: "all", ACCESS_LOG_SAMPLE: "0" }))
    ).text();
    const refusedOff = env({ ACCESS_LOG: "off", METHOD_ALLOWLIST: "SendMessage" });
    await (await callVia(taskOrigin(), `${PUBLIC}/`, post(rpcBody("CancelTask", 5, { id: "t1" })), refusedOff)).text();
    expect(logs.events()).toEqual([]);
  });
});

describe("a call that throws out of the pipeline", () => {
  const edgeFor = (workerEnv: Env) => {
    const request = new Request(`${PUBLIC}/`, post(rpcBody("SendMessage")));
    return admitRequest(request, requestTarget(request.url), runtimeFor(workerEnv), () => undefined) as EdgeRequest;
  };

  it.each([
    // The answer is in the HTTP error shape (as onError's): its code is the google.rpc.Code name.
    ["an unexpected error", new TypeError("boom"), 500, "INTERNAL", "INTERNAL"],
    ["an EdgeError", new EdgeError("RATE_LIMITED"), 429, "RATE_LIMITED", "RESOURCE_EXHAUSTED"],
  ])(
    "answers %s as the app's error handler does, and records it with its trace id and data point",
    async (_, error, status, reason, code) => {
      const logs = captureConsole();
      const metrics = recordingMetrics();
      const edge = edgeFor(env({ CALL_METRICS: metrics.binding }));
      const response = await observeCall(edge, "jsonrpc", "/", () => Promise.reject(error));
      expect(response.status).toBe(status);
      const body = await response.text();
      const [record] = access(logs);
      expect(record).toMatchObject({ binding: "jsonrpc", path: "/", status, reason, errorCode: code, bytesOut: body.length });
      expect(body).toContain(record?.traceId);
      expect(metrics.points.map((point) => point.blobs?.slice(4, 6))).toEqual([["error", reason]]);
      expect(metrics.points[0]?.doubles?.[3]).toBe(body.length);
    },
  );
});

describe("Analytics Engine data points (CALL_METRICS)", () => {
  it("writes one data point per call, recorded or not: agent, operation, caller, status, durations", async () => {
    captureConsole();
    const metrics = recordingMetrics();
    const workerEnv = env({ CALL_METRICS: metrics.binding, METHOD_ALLOWLIST: "SendMessage" });
    await (await callVia(taskOrigin(), `${PUBLIC}/`, post(rpcBody("SendMessage")), workerEnv)).text();
    await (await callVia(taskOrigin(), `${PUBLIC}/`, post(rpcBody("CancelTask", 2, { id: "t1" })), workerEnv)).text();
    expect(metrics.points).toHaveLength(2);
    const [sent, refused] = metrics.points;
    expect(sent).toEqual({
      indexes: ["agents.example.com"],
      blobs: ["agents.example.com", "SendMessage", "anonymous", "jsonrpc", "ok", "", "10.1.2.3:8080"],
      doubles: [200, expect.any(Number), expect.any(Number), 0, 0, 0],
    });
    expect(refused?.blobs?.slice(1, 6)).toEqual(["CancelTask", "anonymous", "jsonrpc", "error", "METHOD_NOT_FOUND"]);
  });

  it("takes an unrecorded answer's bytes out from its Content-Length, its body passed through unread", async () => {
    captureConsole();
    const metrics = recordingMetrics();
    const sized = fakeOrigin(async (req) => {
      const { id } = (await req.clone().json()) as { id: unknown };
      const body = JSON.stringify({ jsonrpc: "2.0", id, result: { task: TASK } });
      return new Response(body, { headers: { "content-type": "application/json", "content-length": String(body.length) } });
    });
    const text = await (await callVia(sized, `${PUBLIC}/`, post(rpcBody("SendMessage")), env({ CALL_METRICS: metrics.binding }))).text();
    expect(metrics.points.map((point) => point.doubles?.[3])).toEqual([text.length]);
  });

  it("indexes a long agent key by its first 96 bytes (Analytics Engine's limit), the whole key in its blob", async () => {
    captureConsole();
    const metrics = recordingMetrics();
    const host = `${"a".repeat(60)}.${"b".repeat(50)}.example`;
    await (await callVia(taskOrigin(), `https://${host}/`, post(rpcBody("SendMessage")), env({ CALL_METRICS: metrics.binding }))).text();
    const [point] = metrics.points;
    expect(point?.indexes).toEqual([host.slice(0, 96)]);
    expect(point?.blobs?.[0]).toBe(host);
  });

  it("writes none without the binding, and the call is answered as ever", async () => {
    captureConsole();
    const response = await callVia(taskOrigin(), `${PUBLIC}/`, post(rpcBody("SendMessage")), env({ CALL_METRICS: undefined }));
    expect(response.status).toBe(200);
  });
});
