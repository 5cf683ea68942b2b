// The origin agent used by the end-to-end tests, checked directly with the official SDK
// client and raw fetch (no edge in between).
import { randomUUID } from "node:crypto";
import { type AgentCard, SendMessageRequest, type StreamResponse, type Task, TaskState } from "@a2a-js/sdk";
import { type Client, ClientFactory, ClientFactoryOptions, JsonRpcTransportFactory } from "@a2a-js/sdk/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXTENDED_SKILL_ID, messageText, type OriginAgent, startOriginAgent } from "../support/origin-agent";
import { schemaErrors } from "../support/schemas";
import { latch, until, within } from "../support/wait";

const DELAY = 100;

function request(text: string): SendMessageRequest {
  return SendMessageRequest.fromJSON({ message: { messageId: randomUUID(), role: "ROLE_USER", parts: [{ text }] } });
}

function rpc(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

/** The text of each artifact, then of the status message, of a task. */
function taskTexts(task: Task): string[] {
  return [...task.artifacts.map(messageText), messageText(task.status?.message)];
}

describe("origin agent", () => {
  let agent: OriginAgent;
  let client: Client;
  const held = latch();

  beforeAll(async () => {
    agent = await startOriginAgent({ streamDelayMs: DELAY, hold: (text) => (text === "held" ? held.promise : undefined) });
    client = await new ClientFactory().createFromUrl(agent.url);
  });
  afterAll(() => agent?.stop());

  it("listens on 127.0.0.1 and serves both card shapes naming its private URL", async () => {
    expect(agent.url).toBe(`http://127.0.0.1:${agent.port}/`);

    const v1 = (await (
      await fetch(new URL(".well-known/agent-card.json", agent.url), { headers: { "A2A-Version": "1.0" } })
    ).json()) as any;
    expect(v1.name).toBe("Origin Echo Agent");
    expect(v1.capabilities).toMatchObject({ streaming: true, extendedAgentCard: true });
    expect(v1.supportedInterfaces.map((i: any) => [i.url, i.protocolBinding, i.protocolVersion])).toEqual([
      [agent.url, "JSONRPC", "1.0"],
      [agent.url, "JSONRPC", "0.3"],
    ]);
    expect(v1.skills[0].tags.length).toBeGreaterThan(0);
    expect(schemaErrors.v1Card(v1)).toEqual([]);

    const v03 = (await (await fetch(new URL(".well-known/agent-card.json", agent.url))).json()) as any;
    expect(v03).toMatchObject({ name: "Origin Echo Agent", url: agent.url, protocolVersion: "0.3", preferredTransport: "JSONRPC" });
    expect(v03.capabilities.streaming).toBe(true);
    expect(v03.supportsAuthenticatedExtendedCard).toBe(true);
  });

  it("is found by the SDK client, which picks the v1.0 JSON-RPC interface", async () => {
    expect(client.protocolVersion).toBe("1.0");
    expect(client.transport.protocolName).toBe("JSONRPC");
  });

  it("answers SendMessage with the completed echo task, which GetTask returns afterwards", async () => {
    const result = await client.sendMessage(request("hello"));
    expect("messageId" in result).toBe(false);
    if ("messageId" in result) return;
    expect(result.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(taskTexts(result)).toEqual(["echo: hello", "echo: hello"]);

    const task = await client.getTask({ tenant: "", id: result.id });
    expect(task.id).toBe(result.id);
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(taskTexts(task)).toContain("echo: hello");
  });

  it("streams task → working → artifact → completed, the Task first while it holds the rest", async () => {
    const stream = client.sendMessageStream(request("held"))[Symbol.asyncIterator]();
    // The Task arrives while the agent still holds every later event: it streams, it does not batch.
    const first = await within(stream.next(), "the Task event while the agent holds the rest");
    held.open();
    const events: StreamResponse[] = [first.value as StreamResponse];
    for await (const event of { [Symbol.asyncIterator]: () => stream }) events.push(event);

    expect(events.map((e) => e.payload?.$case)).toEqual(["task", "statusUpdate", "artifactUpdate", "statusUpdate"]);
    const [task, , artifact, last] = events.map((e) => e.payload);
    expect(task?.$case === "task" && task.value.status?.state).toBe(TaskState.TASK_STATE_SUBMITTED);
    expect(artifact?.$case === "artifactUpdate" && messageText(artifact.value.artifact)).toBe("echo: held");
    expect(last?.$case === "statusUpdate" && last.value.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);

    const taskId = task?.$case === "task" ? task.value.id : "";
    expect((await client.getTask({ tenant: "", id: taskId })).status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it("answers a raw v0.3 message/send (no A2A-Version header)", async () => {
    const res = await rpc(agent.url, {
      jsonrpc: "2.0",
      id: "legacy-1",
      method: "message/send",
      params: { message: { kind: "message", messageId: randomUUID(), role: "user", parts: [{ kind: "text", text: "hi" }] } },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect(body.id).toBe("legacy-1");
    expect(body.error).toBeUndefined();
    expect(body.result.kind).toBe("task");
    expect(body.result.status.state).toBe("completed");
    expect(JSON.stringify(body.result)).toContain("echo: hi");
  });

  it("streams a v0.3 client too (SDK legacy transport), ending with final: true", async () => {
    const card = (await (
      await fetch(new URL(".well-known/agent-card.json", agent.url), { headers: { "A2A-Version": "1.0" } })
    ).json()) as AgentCard;
    const legacyOnly = { ...card, supportedInterfaces: card.supportedInterfaces.filter((i) => i.protocolVersion === "0.3") };
    const factory = new ClientFactory(
      ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
        transports: [new JsonRpcTransportFactory({ legacyCompat: { enabled: true } })],
      }),
    );
    const legacy = await factory.createFromAgentCard(legacyOnly);
    expect(legacy.protocolVersion).toBe("0.3");
    const cases: (string | undefined)[] = [];
    for await (const event of legacy.sendMessageStream(request("old"))) cases.push(event.payload?.$case);
    expect(cases).toEqual(["task", "statusUpdate", "artifactUpdate", "statusUpdate"]);

    const raw = await rpc(agent.url, {
      jsonrpc: "2.0",
      id: 9,
      method: "message/stream",
      params: { message: { kind: "message", messageId: randomUUID(), role: "user", parts: [{ kind: "text", text: "sse" }] } },
    });
    expect(raw.headers.get("content-type")).toBe("text/event-stream");
    const frames = (await raw.text()).split("\n\n").filter(Boolean);
    expect(frames.every((f) => f.startsWith("data: "))).toBe(true);
    const results = frames.map((f) => JSON.parse(f.slice("data: ".length)).result);
    expect(results.map((r) => r.kind)).toEqual(["task", "status-update", "artifact-update", "status-update"]);
    expect(results.at(-1)).toMatchObject({ final: true, status: { state: "completed" } });
  });

  it("serves the extended card over v1.0 GetExtendedAgentCard and v0.3 agent/getAuthenticatedExtendedCard", async () => {
    const viaClient = await client.getAgentCard();
    expect(viaClient.skills.map((s) => s.id)).toContain(EXTENDED_SKILL_ID);

    const v1 = (await (
      await rpc(agent.url, { jsonrpc: "2.0", id: 1, method: "GetExtendedAgentCard" }, { "A2A-Version": "1.0" })
    ).json()) as any;
    expect(v1.error).toBeUndefined();
    expect(v1.result.supportedInterfaces.map((i: any) => i.url)).toEqual([agent.url, agent.url]);
    expect(v1.result.skills.map((s: any) => s.id)).toContain(EXTENDED_SKILL_ID);

    const v03 = (await (await rpc(agent.url, { jsonrpc: "2.0", id: 2, method: "agent/getAuthenticatedExtendedCard" })).json()) as any;
    expect(v03.error).toBeUndefined();
    expect(v03.result.url).toBe(agent.url);
    expect(v03.result.skills.map((s: any) => s.id)).toContain(EXTENDED_SKILL_ID);
  });

  it("records every JSON-RPC POST before handling it: method, lower-cased headers, raw body", async () => {
    const raw = `{ "jsonrpc": "2.0",  "id": 77, "method": "GetTask", "params": {"id": "no-such-task"} }`;
    const res = await rpc(agent.url, raw, { "A2A-Version": "1.0", "X-Trace-Me": "yes" });
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).error.code).toBe(-32001);

    const recorded = agent.requests.at(-1)!;
    expect(recorded.method).toBe("GetTask");
    expect(recorded.rawBody).toBe(raw);
    expect(recorded.headers["x-trace-me"]).toBe("yes");
    expect(recorded.headers["a2a-version"]).toBe("1.0");
    expect(recorded.headers["content-type"]).toBe("application/json");
    expect(Object.keys(recorded.headers).every((k) => k === k.toLowerCase())).toBe(true);

    const methods = agent.requests.map((r) => r.method);
    for (const m of [
      "SendMessage",
      "SendStreamingMessage",
      "GetTask",
      "message/send",
      "message/stream",
      "GetExtendedAgentCard",
      "agent/getAuthenticatedExtendedCard",
    ]) {
      expect(methods).toContain(m);
    }
    // The SDK client announces its version on every call.
    expect(agent.requests.find((r) => r.method === "SendStreamingMessage")!.headers["a2a-version"]).toBe("1.0");
  });

  it("keeps the SDK's answer to malformed JSON (and still records it)", async () => {
    const res = await rpc(agent.url, "{not json");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Invalid JSON payload." } });
    expect(agent.requests.at(-1)).toMatchObject({ method: "", rawBody: "{not json" });
  });

  it("counts streams the client hangs up on, and only those", async () => {
    expect(agent.streamsClosedEarly()).toBe(0);
    const abort = new AbortController();
    const res = await fetch(agent.url, {
      method: "POST",
      headers: { "content-type": "application/json", "A2A-Version": "1.0" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "SendStreamingMessage",
        params: { message: { messageId: randomUUID(), role: "ROLE_USER", parts: [{ text: "bye" }] } },
      }),
      signal: abort.signal,
    });
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toContain('"task"');
    abort.abort();
    await until(() => agent.streamsClosedEarly() === 1, "the agent to count the stream closed early");
  });
});

describe("origin agent with requiredAuthorization", () => {
  let agent: OriginAgent;
  beforeAll(async () => {
    agent = await startOriginAgent({ streamDelayMs: 10, requiredAuthorization: "Bearer s3cret" });
  });
  afterAll(() => agent?.stop());

  const send = {
    jsonrpc: "2.0",
    id: 1,
    method: "message/send",
    params: { message: { kind: "message", messageId: "m-1", role: "user", parts: [{ kind: "text", text: "hi" }] } },
  };

  it("rejects JSON-RPC without exactly that Authorization with HTTP 401 JSON, but records it", async () => {
    const variants: Record<string, string>[] = [{}, { Authorization: "Bearer wrong" }, { Authorization: "bearer s3cret" }];
    for (const headers of variants) {
      const res = await rpc(agent.url, send, headers);
      expect(res.status).toBe(401);
      expect(res.headers.get("content-type")).toMatch(/^application\/json/);
      expect(((await res.json()) as any).error.message).toMatch(/Unauthorized/);
    }
    expect(agent.requests).toHaveLength(3);
    expect(agent.requests[1]!.headers.authorization).toBe("Bearer wrong");
  });

  it("accepts it with the header; the card stays public", async () => {
    const res = await rpc(agent.url, send, { Authorization: "Bearer s3cret" });
    expect(res.status).toBe(200);
    expect(JSON.stringify(await res.json())).toContain("echo: hi");
    expect((await fetch(new URL(".well-known/agent-card.json", agent.url))).status).toBe(200);
  });
});

describe("stop()", () => {
  it("closes open streams and the listener", async () => {
    // The stream is held open for good after its Task: only closing it can end it.
    const agent = await startOriginAgent({ streamDelayMs: 0, hold: () => new Promise<void>(() => {}) });
    const res = await rpc(agent.url, {
      jsonrpc: "2.0",
      id: 1,
      method: "message/stream",
      params: { message: { kind: "message", messageId: "m", role: "user", parts: [{ kind: "text", text: "x" }] } },
    });
    const reader = res.body!.getReader();
    await reader.read();
    // A stop() that waited for open streams to finish would never resolve.
    await within(agent.stop(), "stop() with a stream open");
    // The stream ends (or errors) without the remaining events.
    expect(
      await reader.read().then(
        (r) => r.done,
        () => true,
      ),
    ).toBe(true);
    await expect(fetch(agent.url)).rejects.toThrow();
  });
});
