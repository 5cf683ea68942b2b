// Streams that resume (STREAM_RESUME=on) end to end, real processes: the built bundle in workerd and the source under
// `wrangler dev`, each in front of @a2a-js/sdk 1.3 origin agents ("count N": N numbered events). An authenticated
// caller's stream goes through a TaskStream Durable Object that numbers and keeps each event (`id: <object>.<n>`);
// a client that drops its connection re-attaches with Last-Event-ID and gets every event after it once, in order, in
// its own generation and binding, with its own JSON-RPC id, then the end:
//   - a raw SSE reader over a real socket, 1.0 JSON-RPC, 0.3 JSON-RPC across the bridge (a 1.0-only origin), REST
//     (HTTP+JSON) in front of the JSON-RPC origin, and REST with the cursor as `?lastEventId=` on a GET subscribe:
//     events 18..50 after event 17, each valid against the official schema of its generation;
//   - the @a2a-js/sdk 1.3 client and the 0.3.14 client (directly, and across the bridge), through a fetch that reads
//     the `id:` lines the SDKs drop and sends Last-Event-ID on resubscribe;
//   - a cursor its caller may not read (another caller's key, another task, another agent, a made-up id) is an
//     unknown task (-32001, REST 404) and the origin is never asked;
//   - a 10,000-event stream (origin delay 0) is cut at the default bound of 1000: 1000 events, a STREAM_CUT error
//     event, one `stream_cut` warning, and the workerd process's RSS grows by less than a generous bound;
//   - workerd only: the Durable Object restarted under an open origin stream (Miniflare stopped, a new one on the same
//     persisted storage): a re-attach replays the logged events, then a STREAM_CUT error event (`stream_cut`, "lost").
//     wrangler dev has no such restart to provoke from a test without killing the whole dev server.
// One edge per runtime and configuration (main, bridge, and workerd's persisted one), started side by side.
// What this file adds to the node suite's time: about 36 s run alone (19 tests; its edges start side by side).
import { createHash, randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SendMessageRequest, type StreamResponse } from "@a2a-js/sdk";
import { ClientFactory, ClientFactoryOptions, JsonRpcTransportFactory } from "@a2a-js/sdk/client";
import {
  ClientFactory as ClientFactory03,
  ClientFactoryOptions as ClientFactoryOptions03,
  JsonRpcTransportFactory as JsonRpcTransportFactory03,
} from "a2a-sdk-03/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pidOf } from "../../bench/cpu";
import { v1ResponseErrors, v03ResponseErrors } from "../support/bridge-schemas";
import { captureConsole } from "../support/console";
import { type Edge, RUNTIMES, type Runtime, startEdge } from "../support/edge-runtimes";
import { type OriginAgent, startOriginAgent } from "../support/origin-agent";
import { schemaErrors } from "../support/schemas";
import { until, within } from "../support/wait";

const KEYS = { partner: "partner-stream-key-0123456789", other: "other-stream-key-01234567890" };
const sha256 = (text: string) => `sha256:${createHash("sha256").update(text).digest("hex")}`;
const DOCUMENT = {
  name: "Kept Streams Agent",
  capabilities: { streaming: true },
  securitySchemes: { partnerKey: { type: "apiKey", in: "header", name: "X-API-Key" } },
  security: [{ partnerKey: [] }],
};
/** A second agent on the same edge, by hostname, in front of the origin without delay (the bound's 10,000 events). */
const FAST_HOST = "fast.example.com";
/** Events of a counted stream, and the last one a client reads before it drops its connection. */
const TOTAL = 50;
const DROP_AT = 17;
/** The case: a 10,000-event stream against the default STREAM_RESUME_MAX_EVENTS. */
const LONG = 10_000;
const BOUND = 1000;
/** Growth of the workerd process's RSS over the long stream that never flakes, yet fails if its 10,000 events were kept. */
const RSS_GROWTH_MIB = 64;
const EVENT_ID = /^([0-9a-f]{64})\.([1-9][0-9]*)$/;

let origin: OriginAgent; // 1.0 and 0.3, 25 ms between events
let onlyV1: OriginAgent; // 1.0 only: the bridge's
let fast: OriginAgent; // no delay: the bound's
const persistDir = mkdtempSync(join(tmpdir(), "e2e-streams-"));

beforeAll(async () => {
  [origin, onlyV1, fast] = await Promise.all([
    startOriginAgent({ streamDelayMs: 25 }),
    startOriginAgent({ streamDelayMs: 25, onlyV1: true }),
    startOriginAgent({ streamDelayMs: 0 }),
  ]);
});
afterAll(async () => {
  await Promise.all([origin?.stop(), onlyV1?.stop(), fast?.stop()]);
  rmSync(persistDir, { recursive: true, force: true });
});

function vars(to: OriginAgent, extra: Record<string, string> = {}): Record<string, string> {
  return {
    ORIGIN_URL: to.url,
    STREAM_RESUME: "on",
    AUTH_API_KEYS: JSON.stringify({ partner: sha256(KEYS.partner), other: sha256(KEYS.other) }),
    REST_PATH: "/rest",
    KV_CACHE_TTL: "0",
    DOCUMENT_ORIGINS: new URL(fast.url).origin,
    ...extra,
  };
}
const documents = () => ({ default: DOCUMENT, [FAST_HOST]: { ...DOCUMENT, originUrl: fast.url } });

// ---- A raw SSE reader over a real socket ----

interface SseEvent {
  id?: string;
  event?: string;
  data: Record<string, unknown> & { id?: unknown; result?: unknown; error?: Record<string, unknown> };
}

interface Exchange {
  method: "GET" | "POST";
  path: string;
  headers: Record<string, string>;
  body?: unknown;
}

interface Reader {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  events: SseEvent[];
  /** The body as text, once ended (an answer that is not a stream). */
  text: () => string;
  /** Resolves once `count` events came (or fails if the stream ends first). */
  atLeast(count: number): Promise<void>;
  /** Resolves once the body ended or the connection closed; `complete` tells which. */
  ended: Promise<void>;
  /** Whether the whole body came (the last chunk of a chunked body), not a connection cut short. */
  complete: () => boolean;
  /** Drops the connection: the socket destroyed. */
  destroy(): void;
}

function parseBlock(block: string): SseEvent | undefined {
  const event: Partial<SseEvent> = {};
  const data: string[] = [];
  for (const line of block.split(/\r?\n/)) {
    if (line.startsWith("id:")) event.id = line.slice(3).trimStart();
    else if (line.startsWith("event:")) event.event = line.slice(6).trimStart();
    else if (line.startsWith("data:")) data.push(line.slice(5).trimStart());
  }
  if (data.length === 0) return undefined;
  return { ...event, data: JSON.parse(data.join("\n")) } as SseEvent;
}

/** One call over a socket of its own (no agent, no pooling), its SSE events parsed as they arrive. */
function exchange(edge: Edge, call: Exchange, host = edge.host): Promise<Reader> {
  return new Promise((resolve, reject) => {
    const payload = call.body === undefined ? undefined : JSON.stringify(call.body);
    const request = httpRequest({
      host: "127.0.0.1",
      port: edge.port,
      method: call.method,
      path: call.path,
      agent: false,
      headers: {
        host,
        ...(payload === undefined ? {} : { "content-type": "application/json", "content-length": Buffer.byteLength(payload) }),
        ...call.headers,
      },
    });
    request.on("error", reject);
    request.on("response", (response) => {
      const events: SseEvent[] = [];
      let raw = "";
      let buffer = "";
      let done = false;
      let complete = false;
      const ended = new Promise<void>((settle) => {
        response.on("end", () => {
          done = true;
          complete = true;
          settle();
        });
        response.on("close", () => {
          done = true;
          settle();
        });
      });
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        raw += chunk;
        buffer += chunk;
        for (let end = buffer.search(/\r?\n\r?\n/); end >= 0; end = buffer.search(/\r?\n\r?\n/)) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end).replace(/^\r?\n\r?\n/, "");
          const event = parseBlock(block);
          if (event) events.push(event);
        }
      });
      response.on("error", () => undefined); // a destroyed socket
      resolve({
        status: response.statusCode ?? 0,
        headers: response.headers,
        events,
        text: () => raw,
        ended,
        complete: () => complete,
        atLeast: async (count) => {
          await until(() => events.length >= count || done, `${count} events`);
          if (events.length < count) throw new Error(`the stream ended after ${events.length} of ${count} events: ${raw.slice(-500)}`);
        },
        destroy: () => {
          done = true;
          request.destroy();
        },
      });
    });
    request.end(payload);
  });
}

// ---- What each binding and generation sends and gets ----

type Json = Record<string, unknown>;

/** The A2A result an SSE event carries: a JSON-RPC envelope's result, a REST event's whole data. */
type ResultOf = (event: SseEvent) => unknown;

interface Binding {
  name: string;
  /** Which edge: the main one (1.0 and 0.3 origin), or the bridge's (a 1.0-only origin, ORIGIN_PROTOCOL_VERSIONS=1.0). */
  edge: "main" | "bridge";
  stream(text: string): Exchange;
  resume(task: string, cursor: string): Exchange;
  result: ResultOf;
  taskOf(result: unknown): string;
  /** Schema errors of one event of the start (`resumed` false) or of the re-attach. */
  schema(event: SseEvent, resumed: boolean): string[];
  /** The JSON-RPC id each event of the start and of the re-attach carries (undefined: REST has none). */
  ids?: [unknown, unknown];
}

const v1Message = (text: string) => ({ messageId: randomUUID(), role: "ROLE_USER", parts: [{ text }] });
const v03Message = (text: string) => ({ kind: "message", messageId: randomUUID(), role: "user", parts: [{ kind: "text", text }] });
const auth = (key = KEYS.partner) => ({ "x-api-key": key });
const rpc = (id: unknown, method: string, params: unknown) => ({ jsonrpc: "2.0", id, method, params });

const JSONRPC_10: Binding = {
  name: "1.0 JSON-RPC (SendStreamingMessage, SubscribeToTask)",
  edge: "main",
  stream: (text) => ({
    method: "POST",
    path: "/",
    headers: { ...auth(), "a2a-version": "1.0" },
    body: rpc("start-1", "SendStreamingMessage", { message: v1Message(text) }),
  }),
  resume: (task, cursor) => ({
    method: "POST",
    path: "/",
    headers: { ...auth(), "a2a-version": "1.0", "last-event-id": cursor },
    body: rpc(2, "SubscribeToTask", { id: task }),
  }),
  result: (event) => event.data.result,
  taskOf: (result) => String(((result as Json).task as Json).id),
  schema: (event, resumed) => v1ResponseErrors(resumed ? "SubscribeToTask" : "SendStreamingMessage", event.data),
  ids: ["start-1", 2],
};

const BRIDGED_03: Binding = {
  name: "0.3 JSON-RPC (message/stream, tasks/resubscribe) across the bridge to a 1.0-only origin",
  edge: "bridge",
  stream: (text) => ({
    method: "POST",
    path: "/",
    headers: { ...auth(), "a2a-version": "0.3" },
    body: rpc(7, "message/stream", { message: v03Message(text) }),
  }),
  resume: (task, cursor) => ({
    method: "POST",
    path: "/",
    headers: { ...auth(), "a2a-version": "0.3", "last-event-id": cursor },
    body: rpc("again-8", "tasks/resubscribe", { id: task }),
  }),
  result: (event) => event.data.result,
  taskOf: (result) => String((result as Json).id),
  schema: (event, resumed) => v03ResponseErrors(resumed ? "tasks/resubscribe" : "message/stream", event.data),
  ids: [7, "again-8"],
};

const REST_10: Binding = {
  name: "REST (POST /rest/message:stream, POST /rest/tasks/{id}:subscribe) to the JSON-RPC origin",
  edge: "main",
  stream: (text) => ({
    method: "POST",
    path: "/rest/message:stream",
    headers: { ...auth(), "a2a-version": "1.0" },
    body: { message: v1Message(text) },
  }),
  resume: (task, cursor) => ({
    method: "POST",
    path: `/rest/tasks/${encodeURIComponent(task)}:subscribe`,
    headers: { ...auth(), "a2a-version": "1.0", "last-event-id": cursor },
  }),
  result: (event) => event.data,
  taskOf: (result) => String(((result as Json).task as Json).id),
  schema: (event) => schemaErrors.v1("StreamResponse")(event.data),
};

const REST_QUERY: Binding = {
  ...REST_10,
  name: "REST, the cursor as ?lastEventId= on GET /rest/tasks/{id}:subscribe (as a new EventSource sends it)",
  resume: (task, cursor) => ({
    method: "GET",
    path: `/rest/tasks/${encodeURIComponent(task)}:subscribe?lastEventId=${encodeURIComponent(cursor)}`,
    headers: { ...auth(), "a2a-version": "1.0" },
  }),
};

const BINDINGS = [JSONRPC_10, BRIDGED_03, REST_10, REST_QUERY];

/** The number of a counted stream's event, in any generation: the Task is 1, every other names its own (`event N`). */
function numberOf(result: unknown): number {
  const named = /"event (\d+)"/.exec(JSON.stringify(result));
  if (named) return Number(named[1]);
  const value = result as { task?: unknown; kind?: unknown; payload?: { $case?: unknown } };
  return value.task !== undefined || value.kind === "task" || value.payload?.$case === "task" ? 1 : Number.NaN;
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

function cursorParts(id: string | undefined): { stream: string; seq: number } {
  const found = EVENT_ID.exec(id ?? "");
  if (!found) throw new Error(`not an event id of the edge: ${id}`);
  return { stream: found[1] as string, seq: Number(found[2]) };
}

/** The SSE error event a kept stream's cut reaches a JSON-RPC 1.0 client as. */
function expectStreamCut(event: SseEvent | undefined, id: unknown): void {
  expect(event?.event).toBe("error");
  expect(event?.data).toMatchObject({ jsonrpc: "2.0", id, error: { message: expect.stringMatching(/^Stream cut\b/) } });
  expect(event?.data.error?.data).toContainEqual(expect.objectContaining({ reason: "STREAM_CUT" }));
  expect(v1ResponseErrors("SendStreamingMessage", event?.data)).toEqual([]);
}

const rssMiB = (pid: number) => Number(/^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]) / 1024;
const commOf = (pid: number) => readFileSync(`/proc/${pid}/comm`, "utf8").trim();

/** Ends a running task at the origin itself (CancelTask): its executor stops publishing to a stream nobody reads. */
async function cancelAtOrigin(at: OriginAgent, task: string): Promise<void> {
  const response = await fetch(at.url, {
    method: "POST",
    headers: { "content-type": "application/json", "a2a-version": "1.0" },
    body: JSON.stringify(rpc(1, "CancelTask", { id: task })),
  });
  await response.text();
}

// ---- SDK clients through a fetch that keeps the event ids ----

/**
 * A fetch for an SDK client: adds the API key, tees every SSE body to read its `id:` lines (the SDKs drop them), and
 * once `resumeFrom` is called sends that id as Last-Event-ID, as a browser's EventSource does when it reconnects.
 */
function cursorFetch(key = KEYS.partner) {
  /** The ids of each SSE response, in the order the events came. */
  const streams: string[][] = [];
  let lastEventId: string | undefined;
  const readIds = async (body: ReadableStream<Uint8Array>, ids: string[]) => {
    const decoder = new TextDecoder();
    let buffer = "";
    const reader = body.getReader();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += decoder.decode(value, { stream: true });
        const lines = buffer.split(/\r?\n/);
        buffer = lines.pop() ?? "";
        for (const line of lines) if (line.startsWith("id:")) ids.push(line.slice(3).trim());
      }
    } catch {
      // Aborted with the client's own branch.
    }
  };
  const fetchImpl: typeof fetch = async (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set("x-api-key", key);
    if (lastEventId !== undefined) headers.set("last-event-id", lastEventId);
    const response = await fetch(input, { ...init, headers });
    if (!response.body || !response.headers.get("content-type")?.startsWith("text/event-stream")) return response;
    const [mine, theirs] = response.body.tee();
    const ids: string[] = [];
    streams.push(ids);
    void readIds(mine, ids);
    return new Response(theirs, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
  return {
    fetch: fetchImpl,
    streams,
    resumeFrom: (id: string) => {
      lastEventId = id;
    },
  };
}

interface SdkRow {
  name: string;
  edge: "main" | "bridge";
  /** Streams `count N` and resubscribes, each through `through`; the events as the SDK yields them. */
  client(
    base: string,
    through: typeof fetch,
  ): Promise<{
    stream(text: string, signal: AbortSignal): AsyncGenerator<unknown>;
    resubscribe(task: string): AsyncGenerator<unknown>;
    taskOf(event: unknown): string;
  }>;
}

const SDK_ROWS: SdkRow[] = [
  {
    name: "@a2a-js/sdk 1.3 client (sendMessageStream, resubscribeTask)",
    edge: "main",
    client: async (base, through) => {
      const options = ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
        transports: [new JsonRpcTransportFactory({ fetchImpl: through })],
      });
      const client = await new ClientFactory(options).createFromUrl(base);
      return {
        stream: (text, signal) =>
          client.sendMessageStream(SendMessageRequest.fromJSON({ message: v1Message(text) }), { signal }) as AsyncGenerator<unknown>,
        resubscribe: (task) => client.resubscribeTask({ id: task, tenant: "" }) as AsyncGenerator<unknown>,
        taskOf: (event) => {
          const payload = (event as StreamResponse).payload;
          if (payload?.$case !== "task") throw new Error(`not a task: ${payload?.$case}`);
          return payload.value.id;
        },
      };
    },
  },
  ...(["main", "bridge"] as const).map(
    (edge): SdkRow => ({
      name: `@a2a-js/sdk 0.3.14 client (sendMessageStream, resubscribeTask)${edge === "bridge" ? " across the bridge to a 1.0-only origin" : ""}`,
      edge,
      client: async (base, through) => {
        const options = ClientFactoryOptions03.createFrom(ClientFactoryOptions03.default, {
          transports: [new JsonRpcTransportFactory03({ fetchImpl: through })],
        });
        const client = await new ClientFactory03(options).createFromUrl(base);
        return {
          stream: (text, signal) => client.sendMessageStream({ message: v03Message(text) as never }, { signal }) as AsyncGenerator<unknown>,
          resubscribe: (task) => client.resubscribeTask({ id: task }) as AsyncGenerator<unknown>,
          taskOf: (event) => String((event as { id: unknown }).id),
        };
      },
    }),
  ),
];

// ---- The suites ----

describe.each(RUNTIMES)("kept streams, %s", (runtime: Runtime) => {
  const edges: Partial<Record<"main" | "bridge", Edge>> = {};
  const edgeOf = (name: "main" | "bridge") => edges[name] as Edge;
  const baseOf = (edge: Edge) => `http://${edge.host}`;

  beforeAll(async () => {
    const started = await Promise.allSettled([
      startEdge(runtime, vars(origin), { documents: documents() }),
      startEdge(runtime, vars(onlyV1, { ORIGIN_PROTOCOL_VERSIONS: "1.0" }), { documents: documents() }),
    ]);
    [edges.main, edges.bridge] = started.map((one) => (one.status === "fulfilled" ? one.value : undefined));
    const failed = started.find((one) => one.status === "rejected");
    if (failed) throw (failed as PromiseRejectedResult).reason;
  });
  afterAll(async () => {
    await Promise.all(Object.values(edges).map((edge) => edge?.stop()));
  });

  it.each(BINDINGS)("a raw SSE reader drops its socket after event 17 and re-attaches: $name", async (binding) => {
    captureConsole(); // the origin agent's own lines about the stream its client left
    const edge = edgeOf(binding.edge);
    const first = await exchange(edge, binding.stream(`count ${TOTAL}`));
    expect(first.status).toBe(200);
    await first.atLeast(DROP_AT);
    first.destroy();
    const seen = first.events.slice(0, DROP_AT);
    const cursor = seen[DROP_AT - 1]?.id as string;
    const { stream } = cursorParts(cursor);
    expect(seen.map((event) => cursorParts(event.id))).toEqual(range(1, DROP_AT).map((seq) => ({ stream, seq })));
    expect(seen.map((event) => numberOf(binding.result(event)))).toEqual(range(1, DROP_AT));
    for (const event of seen) expect(binding.schema(event, false), JSON.stringify(event.data)).toEqual([]);
    if (binding.ids) expect(new Set(seen.map((event) => event.data.id))).toEqual(new Set([binding.ids[0]]));
    const task = binding.taskOf(binding.result(seen[0] as SseEvent));

    const again = await exchange(edge, binding.resume(task, cursor));
    expect(again.status).toBe(200);
    expect(String(again.headers["content-type"])).toMatch(/^text\/event-stream/);
    await within(again.ended, "the re-attached stream's end");
    expect(again.complete(), "the body's last chunk").toBe(true);
    const rest = again.events;
    expect(rest.map((event) => event.event)).toEqual(rest.map(() => undefined)); // no error event: a clean end
    expect(rest.map((event) => numberOf(binding.result(event)))).toEqual(range(DROP_AT + 1, TOTAL));
    expect(rest.map((event) => cursorParts(event.id))).toEqual(range(DROP_AT + 1, TOTAL).map((seq) => ({ stream, seq })));
    for (const event of rest) expect(binding.schema(event, true), JSON.stringify(event.data)).toEqual([]);
    if (binding.ids) expect(new Set(rest.map((event) => event.data.id))).toEqual(new Set([binding.ids[1]]));
    expect(JSON.stringify(binding.result(rest.at(-1) as SseEvent))).toMatch(/COMPLETED|"completed"/);
  });

  it.each(SDK_ROWS)("$name: stops after event 17 (abort), resubscribes with Last-Event-ID, gets 18..50", async (row) => {
    captureConsole();
    const edge = edgeOf(row.edge);
    const through = cursorFetch();
    const client = await row.client(baseOf(edge), through.fetch);
    const abort = new AbortController();
    const got: unknown[] = [];
    try {
      for await (const event of client.stream(`count ${TOTAL}`, abort.signal)) {
        got.push(event);
        if (got.length === DROP_AT) break;
      }
    } finally {
      abort.abort();
    }
    expect(got.map(numberOf)).toEqual(range(1, DROP_AT));
    const ids = through.streams[0] as string[];
    await until(() => ids.length >= DROP_AT, "the ids of the events the client read");
    const cursor = ids[DROP_AT - 1] as string;
    const { stream } = cursorParts(cursor);
    expect(cursorParts(cursor).seq).toBe(DROP_AT);

    through.resumeFrom(cursor);
    const rest: unknown[] = [];
    for await (const event of client.resubscribe(client.taskOf(got[0]))) rest.push(event);
    expect(rest.map(numberOf)).toEqual(range(DROP_AT + 1, TOTAL));
    expect(through.streams).toHaveLength(2);
    expect((through.streams[1] as string[]).map(cursorParts)).toEqual(range(DROP_AT + 1, TOTAL).map((seq) => ({ stream, seq })));
  });

  it("a cursor its caller may not read is an unknown task, and the origin is never asked", async () => {
    captureConsole();
    const edge = edgeOf("main");
    // The partner's streams: one read to its end (its cursor), one more task of the partner's own.
    const [kept, another] = await Promise.all([
      exchange(edge, JSONRPC_10.stream(`count ${TOTAL}`)),
      exchange(edge, JSONRPC_10.stream("count 3")),
    ]);
    await Promise.all([within(kept.ended, "the partner's stream"), within(another.ended, "the partner's second stream")]);
    const cursor = kept.events[DROP_AT - 1]?.id as string;
    const task = JSONRPC_10.taskOf(JSONRPC_10.result(kept.events[0] as SseEvent));
    const otherTask = JSONRPC_10.taskOf(JSONRPC_10.result(another.events[0] as SseEvent));
    const madeUp = `${"0123456789abcdef".repeat(4)}.3`;
    const subscribes = (at: OriginAgent) => at.requests.filter((r) => /SubscribeToTask|resubscribe/.test(r.method)).length;
    const before = [subscribes(origin), subscribes(fast)];

    const v1 = (key: string, id: string, lastEventId: string): Exchange => ({
      ...JSONRPC_10.resume(id, lastEventId),
      headers: { ...auth(key), "a2a-version": "1.0", "last-event-id": lastEventId },
    });
    const denied: { name: string; call: Exchange; host?: string; generation: "1.0" | "0.3" | "rest" }[] = [
      { name: "another caller's key, the first caller's cursor", call: v1(KEYS.other, task, cursor), generation: "1.0" },
      { name: "the caller's own key and cursor, another task of its own", call: v1(KEYS.partner, otherTask, cursor), generation: "1.0" },
      { name: "a made-up well-formed cursor", call: v1(KEYS.partner, task, madeUp), generation: "1.0" },
      { name: "the caller's cursor at another agent (host)", call: v1(KEYS.partner, task, cursor), host: FAST_HOST, generation: "1.0" },
      {
        name: "0.3: another caller's key",
        call: { ...BRIDGED_03.resume(task, cursor), headers: { ...auth(KEYS.other), "a2a-version": "0.3", "last-event-id": cursor } },
        generation: "0.3",
      },
      {
        name: "REST: another caller's key",
        call: { ...REST_10.resume(task, cursor), headers: { ...auth(KEYS.other), "a2a-version": "1.0", "last-event-id": cursor } },
        generation: "rest",
      },
      { name: "REST: a made-up cursor", call: REST_QUERY.resume(task, madeUp), generation: "rest" },
    ];
    for (const { name, call, host, generation } of denied) {
      const answer = await exchange(edge, call, host === undefined ? undefined : `${host}:${edge.port}`);
      await within(answer.ended, name);
      expect(answer.complete(), name).toBe(true);
      const body = answer.events.length > 0 ? answer.events[0]?.data : JSON.parse(answer.text());
      if (generation === "rest") {
        expect(answer.status, name).toBe(404);
        expect(JSON.stringify(body), name).toMatch(/TASK_NOT_FOUND|Task not found/i);
      } else {
        expect(body, name).toMatchObject({
          jsonrpc: "2.0",
          id: call.body ? (call.body as Json).id : undefined,
          error: { code: -32001, message: "Task not found" },
        });
        const errors = generation === "1.0" ? v1ResponseErrors("SubscribeToTask", body) : v03ResponseErrors("tasks/resubscribe", body);
        expect(errors, name).toEqual([]);
      }
    }
    expect([subscribes(origin), subscribes(fast)], "SubscribeToTask calls the origins received").toEqual(before);

    // The same cursor, its own caller, task and agent: the rest of the log (the cursor was live all along).
    const owner = await exchange(edge, JSONRPC_10.resume(task, cursor));
    await within(owner.ended, "the owner's re-attach");
    expect(owner.complete()).toBe(true);
    expect(owner.events.map((event) => numberOf(event.data.result))).toEqual(range(DROP_AT + 1, TOTAL));
  });

  it(`a ${LONG.toLocaleString("en")}-event stream is cut at the default bound (${BOUND}): a STREAM_CUT error event, one stream_cut warning, flat memory`, async () => {
    captureConsole();
    const edge = edgeOf("main");
    const workerd = pidOf(`http://127.0.0.1:${edge.port}/`);
    expect(commOf(workerd)).toBe("workerd");
    const before = rssMiB(workerd);
    const mark = edge.mark();
    const long = await exchange(edge, JSONRPC_10.stream(`count ${LONG}`), `${FAST_HOST}:${edge.port}`);
    expect(long.status).toBe(200);
    await within(long.ended, "the long stream's end", 120_000);
    expect(long.complete(), "the body's last chunk").toBe(true);
    const task = JSONRPC_10.taskOf(JSONRPC_10.result(long.events[0] as SseEvent));
    await cancelAtOrigin(fast, task);
    const events = long.events.slice(0, -1);
    expect(events).toHaveLength(BOUND);
    expect(events.map((event) => cursorParts(event.id).seq)).toEqual(range(1, BOUND));
    expect(events.map((event) => numberOf(event.data.result))).toEqual(range(1, BOUND));
    expectStreamCut(long.events.at(-1), "start-1");
    const cuts = await until(() => {
      const found = edge.events(mark, "stream_cut");
      return found.length > 0 ? found : undefined;
    }, "the stream_cut line");
    expect(cuts).toEqual([expect.objectContaining({ level: "warn", reason: "bound", bound: "events", events: BOUND })]);
    const after = rssMiB(workerd);
    expect(after - before, `workerd RSS ${before.toFixed(1)} -> ${after.toFixed(1)} MiB`).toBeLessThan(RSS_GROWTH_MIB);
  });
});

describe("a kept stream whose Durable Object restarts under an open origin stream, workerd (built bundle)", () => {
  let edge: Edge | undefined;
  beforeAll(async () => {
    edge = await startEdge("workerd (built bundle)", vars(origin), { documents: documents(), persist: persistDir });
  });
  afterAll(async () => {
    await edge?.stop();
  });

  it("a re-attach replays what was logged, then a STREAM_CUT error event; stream_cut reason lost", async () => {
    captureConsole();
    const first = edge as Edge;
    const open = await exchange(first, JSONRPC_10.stream("count 400"));
    await open.atLeast(5);
    const seen = open.events.slice(0, 5);
    const task = JSONRPC_10.taskOf(JSONRPC_10.result(seen[0] as SseEvent));
    // The whole runtime stops (as a deploy or an eviction ends an object), its storage stays on disk.
    await first.stop();
    edge = undefined;
    edge = await startEdge("workerd (built bundle)", vars(origin), { documents: documents(), persist: persistDir });
    const mark = edge.mark();
    const cursor = seen[2]?.id as string;
    const { stream } = cursorParts(cursor);
    const again = await exchange(edge, JSONRPC_10.resume(task, cursor), `127.0.0.1:${edge.port}`);
    await within(again.ended, "the re-attach's end");
    expect(again.complete(), "the body's last chunk").toBe(true);
    await cancelAtOrigin(origin, task);
    const replayed = again.events.slice(0, -1);
    expect(replayed.length).toBeGreaterThanOrEqual(2);
    expect(replayed.map((event) => cursorParts(event.id))).toEqual(range(4, 3 + replayed.length).map((seq) => ({ stream, seq })));
    expect(replayed.map((event) => numberOf(event.data.result))).toEqual(range(4, 3 + replayed.length));
    expect(replayed.slice(0, 2).map((event) => event.data.result)).toEqual(seen.slice(3, 5).map((event) => event.data.result));
    expectStreamCut(again.events.at(-1), 2);
    const cuts = await until(() => {
      const found = (edge as Edge).events(mark, "stream_cut");
      return found.length > 0 ? found : undefined;
    }, "the stream_cut line");
    expect(cuts).toEqual([expect.objectContaining({ level: "error", reason: "lost", stream })]);
  });
});
