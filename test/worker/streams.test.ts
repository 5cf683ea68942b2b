// Kept streams (STREAM_RESUME=on) inside workerd, with the real TaskStream Durable Object (TASK_STREAMS,
// SQLite): the origin's stream is held by the object, each event numbered (`id:`) and kept; a re-attach with
// Last-Event-ID gets the rest once, in order, then the live tail, in its own generation and binding, with its
// own JSON-RPC id; only the caller who started it, for the same agent, tenant and task, may read it; the
// bounds cut it; a restart's open log ends as lost; the alarm drops an expired log. The origin is a stream
// the test writes to (the object's fetch, spied: the object runs in this isolate). End to end with SDK
// origins and clients, both runtimes: test/node/e2e-streams.test.ts.
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { parseConfig } from "../../src/config";
import { cursorOf, withoutCursor } from "../../src/streams/event-id";
import { taskIdOf } from "../../src/streams/task-of";
import { captureConsole } from "../support/console";
import { until } from "../support/wait";
import { call, documentsKv, makeEnv, sha256Hex } from "../support/worker";

const HOST = "https://agents.example.com";
const ORIGIN = "https://agent-origin.example.net/rpc";
const KEYS = { partner: "partner-key-0123456789", other: "other-key-01234567890" };
const DOCUMENT = {
  name: "Kept Agent",
  capabilities: { streaming: true },
  securitySchemes: { partnerKey: { type: "apiKey", in: "header", name: "X-API-Key" } },
  security: [{ partnerKey: [] }],
};
const encoder = new TextEncoder();
const streams = (env as unknown as { TASK_STREAMS: DurableObjectNamespace }).TASK_STREAMS;

/**
 * An origin whose streams follow a script: each stream sends `events` (its results, in order), one every
 * `gapMs`, then ends (or stays open with `open`). The stream is made where the object fetches it (inside the
 * TaskStream): the test never touches it, as I/O objects of one Durable Object are not the test's to use.
 */
function scriptedOrigin(script: { events: unknown[]; gapMs?: number; open?: boolean }) {
  const requests: { method: string; headers: Headers; url: string }[] = [];
  let reply: ((body: Record<string, unknown>) => Response | undefined) | undefined;
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const request = new Request(input as string, init as RequestInit);
    const body = (await request.json()) as Record<string, unknown>;
    requests.push({ method: String(body.method), headers: request.headers, url: request.url });
    const own = reply?.(body);
    if (own) return own;
    let next = 0;
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (next >= script.events.length) {
          if (!script.open) controller.close();
          else await new Promise(() => undefined);
          return;
        }
        if (next > 0 && script.gapMs) await scheduler.wait(script.gapMs);
        const result = script.events[next++];
        controller.enqueue(encoder.encode(`data: ${JSON.stringify({ jsonrpc: "2.0", id: body.id, result })}\n\n`));
      },
    });
    return new Response(stream, { headers: { "content-type": "text/event-stream" } });
  });
  return {
    requests,
    /** The origin's own answer to a call, instead of a stream. */
    answer: (with_: (body: Record<string, unknown>) => Response | undefined) => {
      reply = with_;
    },
  };
}

const task = (id: string) => ({ task: { id, contextId: "c1", status: { state: "TASK_STATE_SUBMITTED" } } });
const chunk = (taskId: string, n: number) => ({
  artifactUpdate: { taskId, contextId: "c1", artifact: { artifactId: "a1", parts: [{ text: `event ${n}` }] }, append: n > 2 },
});
const done = (taskId: string) => ({ statusUpdate: { taskId, contextId: "c1", status: { state: "TASK_STATE_COMPLETED" } } });

async function keptEnv(vars: Record<string, unknown> = {}) {
  const keys = Object.fromEntries(
    await Promise.all(Object.entries(KEYS).map(async ([name, key]) => [name, `sha256:${await sha256Hex(key)}`])),
  );
  return makeEnv({
    ORIGIN_URL: ORIGIN,
    ORIGIN_HEADERS: JSON.stringify({ authorization: "Bearer origin-secret" }),
    SKILLS: documentsKv({ default: DOCUMENT }),
    AUTH_API_KEYS: JSON.stringify(keys),
    STREAM_RESUME: "on",
    REST_PATH: "/rest",
    ...vars,
  });
}

interface Sse {
  id?: string;
  event?: string;
  data: Record<string, unknown>;
}

/** Reads a response's SSE events as they come; `next(n)` waits for n more. */
function sseReader(response: Response) {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  const events: Sse[] = [];
  let ended = false;
  const pump = async () => {
    const { value, done } = await reader.read();
    if (done) {
      ended = true;
      return;
    }
    buffer += decoder.decode(value, { stream: true });
    let end = buffer.indexOf("\n\n");
    while (end >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event: Partial<Sse> = {};
      for (const line of block.split("\n")) {
        if (line.startsWith("id: ")) event.id = line.slice(4);
        else if (line.startsWith("event: ")) event.event = line.slice(7);
        else if (line.startsWith("data: ")) event.data = JSON.parse(line.slice(6));
      }
      if (event.data) events.push(event as Sse);
      end = buffer.indexOf("\n\n");
    }
  };
  return {
    events,
    async next(count: number): Promise<Sse[]> {
      const want = events.length + count;
      while (events.length < want && !ended) await pump();
      return events.slice(want - count, want);
    },
    async rest(): Promise<Sse[]> {
      const from = events.length;
      while (!ended) await pump();
      return events.slice(from);
    },
    cancel: () => reader.cancel(),
  };
}

const rpc = (method: string, params: unknown, id: number | string, headers: Record<string, string> = {}) => ({
  method: "POST",
  headers: { "content-type": "application/json", "A2A-Version": method.includes("/") ? "0.3" : "1.0", ...headers },
  body: JSON.stringify({ jsonrpc: "2.0", id, method, params }),
});
const message = { message: { messageId: "m1", role: "ROLE_USER", parts: [{ text: "count" }] } };
const asPartner = { "X-API-Key": KEYS.partner };
const textOf = (event: Sse) => JSON.stringify(event.data).match(/event \d+/)?.[0];

/** The results of task `t1`'s stream of `total` events: the Task, chunks `event 2` .., its completion. */
const counted = (total: number) => [task("t1"), ...Array.from({ length: total - 2 }, (_, i) => chunk("t1", i + 2)), done("t1")];

/** A kept stream of `t1` started by the partner: its first `upTo` events read, then the client gone. */
async function startedAndLeft(workerEnv: Env, upTo: number) {
  const first = sseReader(await call(`${HOST}/`, rpc("SendStreamingMessage", message, 7, asPartner), workerEnv));
  const seen = await first.next(upTo);
  await first.cancel();
  return seen;
}

let console: ReturnType<typeof captureConsole>;
beforeEach(() => {
  console = captureConsole();
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe("the cursor and the task of an event", () => {
  const id = "a".repeat(64);
  it.each([
    ["Last-Event-ID", { "last-event-id": `${id}.17` }, "", { stream: id, after: 17 }],
    ["the query, for a client without headers", {}, `?lastEventId=${id}.3&x=1`, { stream: id, after: 3 }],
    ["the header before the query", { "last-event-id": `${id}.2` }, `?lastEventId=${id}.3`, { stream: id, after: 2 }],
    ["another edge's or an origin's id", { "last-event-id": "42" }, "", undefined],
    ["event 0", { "last-event-id": `${id}.0` }, "", undefined],
    ["an upper-case id", { "last-event-id": `${"A".repeat(64)}.1` }, "", undefined],
    ["a number past 9 digits", { "last-event-id": `${id}.1234567890` }, "", undefined],
  ])("reads %s", (_name, headers, search, expected) => {
    expect(cursorOf(new Headers(headers), search)).toEqual(expected);
  });

  it("takes the cursor out of the query the origin gets", () => {
    expect(withoutCursor(`?lastEventId=x&A2A-Version=1.0`)).toBe("?A2A-Version=1.0");
    expect(withoutCursor("?lastEventId=x")).toBe("");
    expect(withoutCursor("?a=1")).toBe("?a=1");
  });

  it.each([
    [task("t1"), "t1"],
    [chunk("t2", 2), "t2"],
    [done("t3"), "t3"],
    [{ message: { messageId: "m", taskId: "t4" } }, "t4"],
    [{ message: { messageId: "m" } }, undefined],
    [{ kind: "task", id: "t5", status: {} }, "t5"],
    [{ kind: "status-update", taskId: "t6" }, "t6"],
    [{ kind: "message", messageId: "m" }, undefined],
    ["t7", undefined],
  ])("finds the task of %j", (result, expected) => {
    expect(taskIdOf(result)).toBe(expected);
  });

  it("refuses bad bounds, naming the variable", () => {
    for (const [name, value] of [
      ["STREAM_RESUME", "yes"],
      ["STREAM_RESUME_MAX_EVENTS", "0"],
      ["STREAM_RESUME_MAX_BYTES", "10"],
      ["STREAM_RESUME_MAX_AGE", "1"],
    ]) {
      const parsed = parseConfig({ [name as string]: value });
      expect(parsed.ok, name).toBe(false);
      if (!parsed.ok) expect(parsed.issues.map((issue) => issue.path)).toEqual([name]);
    }
  });

  it("answers every call with a configuration error when on without its Durable Object", async () => {
    const response = await call(`${HOST}/`, rpc("SendStreamingMessage", message, 1, asPartner), await keptEnv({ TASK_STREAMS: undefined }));
    expect(response.status).toBe(500);
    expect(await response.text()).toContain("STREAM_RESUME: on needs the TASK_STREAMS Durable Object binding");
    expect(console.events("config_invalid")).toHaveLength(1);
  });
});

describe("a kept stream (STREAM_RESUME=on)", () => {
  it("numbers each event, and the origin gets the call once, with its own credentials and no cursor", async () => {
    const origin = scriptedOrigin({ events: counted(3) });
    const response = await call(
      `${HOST}/?lastEventId=${"b".repeat(64)}.1`,
      rpc("SendStreamingMessage", message, 7, asPartner),
      await keptEnv(),
    );
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const events = await sseReader(response).rest();
    expect(events.map((event) => event.id?.replace(/^[0-9a-f]{64}\./, ""))).toEqual(["1", "2", "3"]);
    expect(new Set(events.map((event) => event.id?.split(".")[0])).size).toBe(1);
    expect(events.map((event) => event.data.id)).toEqual([7, 7, 7]);
    expect(origin.requests).toHaveLength(1);
    expect(origin.requests[0]?.headers.get("authorization")).toBe("Bearer origin-secret");
    expect(origin.requests[0]?.headers.get("x-api-key")).toBeNull();
    expect(new URL(origin.requests[0]?.url ?? "").search).toBe("");
  });

  it("keeps what the origin sends while no client is attached; a re-attach gets each event after its id once, then the live tail", async () => {
    const origin = scriptedOrigin({ events: counted(30), gapMs: 2 });
    const workerEnv = await keptEnv();
    const seen = await startedAndLeft(workerEnv, 5);
    const again = await call(
      `${HOST}/`,
      rpc("SubscribeToTask", { id: "t1" }, "r1", { ...asPartner, "Last-Event-ID": seen[4]?.id as string }),
      workerEnv,
    );
    const rest = await sseReader(again).rest();
    // Whatever came from the log and whatever live, the seam shows nowhere: 6..30, once each, in order.
    expect(rest.map((event) => Number(event.id?.split(".")[1]))).toEqual(Array.from({ length: 25 }, (_, i) => i + 6));
    expect(rest.slice(0, -1).map(textOf)).toEqual(Array.from({ length: 24 }, (_, i) => `event ${i + 6}`));
    expect(new Set(rest.map((event) => event.data.id))).toEqual(new Set(["r1"]));
    expect(origin.requests.map((request) => request.method)).toEqual(["SendStreamingMessage"]);
    // After the end: the rest and the end from the log alone, the origin not asked.
    const after = await call(
      `${HOST}/`,
      rpc("SubscribeToTask", { id: "t1" }, 9, { ...asPartner, "Last-Event-ID": seen[27 - 25]?.id as string }),
      workerEnv,
    );
    expect((await sseReader(after).rest()).map((event) => Number(event.id?.split(".")[1]))).toEqual(
      Array.from({ length: 27 }, (_, i) => i + 4),
    );
    expect(origin.requests).toHaveLength(1);
  });

  it("records each call once; a re-attach's record counts the events it sent from the log", async () => {
    scriptedOrigin({ events: counted(12) });
    const workerEnv = await keptEnv({ ACCESS_LOG: "all" });
    const seen = await startedAndLeft(workerEnv, 2);
    const [stream] = String(seen[1]?.id).split(".");
    // The whole stream kept before the re-attach: all of its events come from the log.
    const kept = () =>
      runInDurableObject(
        streams.get(streams.idFromString(stream as string)),
        (_instance, state: DurableObjectState) => state.storage.sql.exec<{ state: string }>("SELECT state FROM stream").one().state,
      );
    await until(async () => ((await kept()) === "ended" ? true : undefined), "the stream's end kept");
    const again = await call(
      `${HOST}/`,
      rpc("SubscribeToTask", { id: "t1" }, 2, { ...asPartner, "Last-Event-ID": seen[1]?.id as string }),
      workerEnv,
    );
    expect(await sseReader(again).rest()).toHaveLength(10);
    const records = (await until(() => (console.events("access").length >= 2 ? console.events("access") : undefined), "two records")) ?? [];
    expect(records.map((record) => record.operation)).toEqual(["SendStreamingMessage", "SubscribeToTask"]);
    expect(records[1]).toMatchObject({ replayed: 10, events: 10, caller: "partnerKey:partner" });
  });

  it.each([
    ["another caller", { "X-API-Key": KEYS.other }, HOST, { id: "t1" }],
    ["another task", asPartner, HOST, { id: "t2" }],
    ["another host", asPartner, "https://other.example.com", { id: "t1" }],
    ["another tenant", asPartner, HOST, { id: "t1", tenant: "acme" }],
  ])("answers %s with the cursor as an unknown task, and asks the origin nothing", async (_name, headers, host, params) => {
    const origin = scriptedOrigin({ events: counted(3) });
    const workerEnv = await keptEnv();
    const seen = await startedAndLeft(workerEnv, 2);
    const cursor = seen[0]?.id as string;
    const response = await call(`${host}/`, rpc("SubscribeToTask", params, 3, { ...headers, "Last-Event-ID": cursor }), workerEnv);
    const madeUp = await call(
      `${HOST}/`,
      rpc("SubscribeToTask", { id: "t1" }, 3, { ...asPartner, "Last-Event-ID": `${"c".repeat(64)}.1` }),
      workerEnv,
    );
    const unknown = { jsonrpc: "2.0", id: 3, error: { code: -32001, message: "Task not found" } };
    for (const answer of [response, madeUp]) {
      expect(answer.status).toBe(200);
      expect(await answer.json()).toMatchObject(unknown);
    }
    expect(origin.requests).toHaveLength(1);
  });

  it("re-attaches a 0.3 client and a REST client to a 1.0 stream, each in its own form", async () => {
    scriptedOrigin({ events: counted(4) });
    const workerEnv = await keptEnv();
    const seen = await startedAndLeft(workerEnv, 2);
    const cursor = seen[1]?.id as string;
    const v03 = await call(`${HOST}/`, rpc("tasks/resubscribe", { id: "t1" }, "old", { ...asPartner, "Last-Event-ID": cursor }), workerEnv);
    const events03 = await sseReader(v03).rest();
    expect(events03.map((event) => (event.data.result as { kind?: string }).kind)).toEqual(["artifact-update", "status-update"]);
    expect(events03.map((event) => event.data.id)).toEqual(["old", "old"]);
    const restUrl = `${HOST}/rest/tasks/t1:subscribe`;
    const rest = await call(
      restUrl,
      { method: "GET", headers: { ...asPartner, "Last-Event-ID": cursor, "A2A-Version": "1.0" } },
      workerEnv,
    );
    expect(rest.headers.get("content-type")).toBe("text/event-stream");
    const eventsRest = await sseReader(rest).rest();
    expect(eventsRest.map((event) => Object.keys(event.data))).toEqual([["artifactUpdate"], ["statusUpdate"]]);
    expect(eventsRest.map((event) => event.id)).toEqual(events03.map((event) => event.id));
  });

  it("passes an origin's answer that is no stream as any reply", async () => {
    const origin = scriptedOrigin({ events: [] });
    origin.answer((body) => Response.json({ jsonrpc: "2.0", id: body.id, error: { code: -32001, message: "Task not found" } }));
    const response = await call(`${HOST}/`, rpc("SubscribeToTask", { id: "gone" }, 5, asPartner), await keptEnv());
    expect(await response.json()).toEqual({ jsonrpc: "2.0", id: 5, error: { code: -32001, message: "Task not found" } });
  });

  it("answers an unreachable origin as any call does", async () => {
    vi.spyOn(globalThis, "fetch").mockRejectedValue(new TypeError("connection refused"));
    const response = await call(`${HOST}/`, rpc("SendStreamingMessage", message, 5, asPartner), await keptEnv());
    expect(response.status).toBe(502);
    expect(((await response.json()) as { error: { code: number } }).error.code).toBe(-32603);
  });

  it("keeps nothing of an anonymous caller's stream: it passes as before, with no ids", async () => {
    scriptedOrigin({ events: counted(2) });
    const response = await call(`${HOST}/`, rpc("SendStreamingMessage", message, 1), await keptEnv({ EDGE_AUTH: "off" }));
    const events = await sseReader(response).rest();
    expect(events).toHaveLength(2);
    expect(events.map((event) => event.id)).toEqual([undefined, undefined]);
  });

  it("cuts a stream at STREAM_RESUME_MAX_EVENTS (1000 by default): its client is told, and it is logged", async () => {
    scriptedOrigin({ events: counted(1005), open: true });
    const response = await call(`${HOST}/`, rpc("SendStreamingMessage", message, 1, asPartner), await keptEnv());
    const events = await sseReader(response).rest();
    expect(events).toHaveLength(1001);
    expect(events.at(-2)?.id?.split(".")[1]).toBe("1000");
    expect(events.at(-1)).toMatchObject({ event: "error", data: { error: { message: expect.stringContaining("Stream cut") } } });
    const cut = await until(() => console.events("stream_cut")[0], "the cut's log line");
    expect(cut).toMatchObject({ level: "warn", reason: "bound", bound: "events", events: 1000 });
  });

  it("ends a log left open by a restart as lost: the kept events, then the client is told", async () => {
    const id = streams.newUniqueId();
    await runInDurableObject(streams.get(id), (_instance, state: DurableObjectState) => {
      const sql = state.storage.sql;
      sql.exec(
        "INSERT INTO stream (one, agent, tenant, caller, generation, method, task_id, state, started_at) VALUES (1, 'agents.example.com', '', 'partnerKey:partner', '1.0', 'SendStreamingMessage', 't1', 'open', ?)",
        Date.now(),
      );
      for (const n of [1, 2, 3])
        sql.exec("INSERT INTO events (seq, at, body) VALUES (?, ?, ?)", n, Date.now(), JSON.stringify({ result: chunk("t1", n) }));
    });
    const cursor = `${id.toString()}.1`;
    const response = await call(
      `${HOST}/`,
      rpc("SubscribeToTask", { id: "t1" }, 2, { ...asPartner, "Last-Event-ID": cursor }),
      await keptEnv(),
    );
    const events = await sseReader(response).rest();
    expect(events.map(textOf).slice(0, 2)).toEqual(["event 2", "event 3"]);
    expect(events.at(-1)).toMatchObject({ event: "error", data: { error: { message: expect.stringContaining("a restart") } } });
    expect(console.events("stream_cut")[0]).toMatchObject({ reason: "lost", events: 3 });
  });

  it("drops a log once it is STREAM_RESUME_MAX_AGE past its end, from its alarm", async () => {
    const id = streams.newUniqueId();
    const stub = streams.get(id);
    const hourAgo = Date.now() - 3601_000;
    await runInDurableObject(stub, async (_instance, state: DurableObjectState) => {
      state.storage.sql.exec(
        "INSERT INTO stream (one, agent, tenant, caller, generation, method, task_id, state, end_reason, started_at, ended_at) VALUES (1, 'a', '', 'c', '1.0', 'm', 't', 'ended', 'done', ?, ?)",
        hourAgo,
        hourAgo,
      );
      await state.storage.setAlarm(Date.now());
    });
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const rows = await runInDurableObject(stub, (_instance, state: DurableObjectState) =>
      state.storage.sql.exec("SELECT * FROM sqlite_master WHERE type = 'table' AND name = 'stream'").toArray(),
    );
    expect(rows).toEqual([]);
  });
});
