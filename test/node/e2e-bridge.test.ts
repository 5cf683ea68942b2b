// The version bridge end to end, with real peers only: an origin
// agent that speaks one A2A generation, the worker (the built bundle in workerd) told so
// (ORIGIN_PROTOCOL_VERSIONS), and SDK clients of the other generation talking
// only to the worker.
//  - A 1.0-only origin (@a2a-js/sdk 1.3, legacyCompat off) used by the 0.3
//    clients of @a2a-js/sdk 0.3.14 (A2AClient from either card path, and its
//    ClientFactory) and 0.2.5 (A2AClient).
//  - A 0.3-only origin (@a2a-js/sdk 0.3.14 server) used by the @a2a-js/sdk 1.3
//    client with its default transports.
// Each origin records every call: all must be valid in the origin's own version
// (the official schema) and carry its A2A-Version.
import { randomUUID } from "node:crypto";
import { SendMessageRequest, type StreamResponse, TaskState } from "@a2a-js/sdk";
import { type Client, ClientFactory, ClientFactoryOptions, JsonRpcTransportFactory } from "@a2a-js/sdk/client";
import { A2AClient as A2AClient02 } from "a2a-sdk-02/client";
import type { MessageSendParams } from "a2a-sdk-03";
import {
  A2AClient as A2AClient03,
  ClientFactory as ClientFactory03,
  ClientFactoryOptions as ClientFactoryOptions03,
  JsonRpcTransportFactory as JsonRpcTransportFactory03,
} from "a2a-sdk-03/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { v1CallErrors, v03CallErrors, v03ResponseErrors } from "../support/bridge-schemas";
import { captureConsole } from "../support/console";
import { collect, holds, type Served, sseData, startWorker } from "../support/e2e";
import { type OidcIssuer, startOidcIssuer } from "../support/oidc-issuer";
import {
  EXTENDED_SKILL_ID,
  messageText,
  ORIGIN_AGENT_NAME,
  type OriginAgent,
  type RecordedRequest,
  startOriginAgent,
} from "../support/origin-agent";
import { ORIGIN_V03_AGENT_NAME, type OriginAgentV03, startOriginAgentV03 } from "../support/origin-agent-v03";
import { schemaErrors } from "../support/schemas";
import { within } from "../support/wait";

const DELAY = 20;
const AUDIENCE = "https://agent.example/";
/** Sent by the tests' own direct calls to an origin, which are no bridge's doing. */
const DIRECT = "x-test-direct";

function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
}

/** The calls the worker made to an origin (not the tests' direct ones), parsed. */
function bridged(requests: RecordedRequest[]): { method: string; version: string | undefined; body: Record<string, unknown> }[] {
  return requests
    .filter((request) => request.headers[DIRECT] === undefined)
    .map((request) => ({ method: request.method, version: request.headers["a2a-version"], body: JSON.parse(request.rawBody) }));
}

// ---- the 0.3 clients ----

/** What the 0.3.14 and 0.2.5 A2AClient have in common (both answer with JSON-RPC envelopes). */
interface LegacyClient {
  sendMessage(params: MessageSendParams): Promise<unknown>;
  sendMessageStream(params: MessageSendParams): AsyncGenerator<unknown, void, undefined>;
  getTask(params: { id: string }): Promise<unknown>;
  cancelTask(params: { id: string }): Promise<unknown>;
  resubscribeTask(params: { id: string }): AsyncGenerator<unknown, void, undefined>;
}

const send03 = (text: string): MessageSendParams => ({
  message: { kind: "message", messageId: randomUUID(), role: "user", parts: [{ kind: "text", text }] },
});

/** A 0.3 event's `kind` and, for a status-update, its state. */
function step03(event: any): string {
  return event.kind === "status-update" ? `status-update:${event.status.state}${event.final ? ":final" : ""}` : event.kind;
}

/** Every reply a 0.3 client received, as its fetch saw it (the body read from a clone). */
interface SeenReply {
  method: string;
  contentType: string;
  text: Promise<string>;
}

/** A fetch that records every JSON-RPC reply and adds `headers` to every request. */
function recordingFetch(seen: SeenReply[], headers: Record<string, string> = {}): typeof fetch {
  return async (input, init) => {
    const sent = new Headers(init?.headers);
    for (const [name, value] of Object.entries(headers)) sent.set(name, value);
    const response = await fetch(input, { ...init, headers: sent });
    const method = typeof init?.body === "string" ? JSON.parse(init.body).method : undefined;
    if (typeof method === "string") {
      seen.push({ method, contentType: response.headers.get("content-type") ?? "", text: response.clone().text() });
    }
    return response;
  };
}

/** The JSON-RPC envelopes of one reply: the body, or each SSE event's data. */
async function envelopes(reply: SeenReply): Promise<unknown[]> {
  const text = await reply.text;
  if (!reply.contentType.startsWith("text/event-stream")) return [JSON.parse(text)];
  return sseData(text);
}

describe("a 1.0-only origin (@a2a-js/sdk 1.3, legacyCompat off) through the worker, for 0.3 clients", () => {
  let idp: OidcIssuer;
  let origin: OriginAgent;
  let worker: { dev: Served; base: string };
  let token: string;
  const held = holds();
  const seen: SeenReply[] = [];

  beforeAll(async () => {
    idp = await startOidcIssuer({ resources: [AUDIENCE] });
    origin = await startOriginAgent({ streamDelayMs: DELAY, onlyV1: true, hold: held.hold, messageReply: held.messageReply });
    // EDGE_AUTH=off: calls pass unchecked; the extended card still needs a caller the edge authenticated (the bundled card's bearer scheme).
    worker = await startWorker({
      ORIGIN_URL: origin.url,
      ORIGIN_PROTOCOL_VERSIONS: "1.0",
      EDGE_AUTH: "off",
      AUTH_JWT_ISSUER: idp.issuer,
      AUTH_JWT_AUDIENCE: AUDIENCE,
    });
    token = await idp.token(idp.clients.agent);
  });
  afterAll(async () => {
    held.releaseAll();
    await worker?.dev.stop();
    await origin?.stop();
    await idp?.stop();
  });

  it("the origin itself refuses 0.3: -32009 for a call without A2A-Version (0.3 by default), -32601 for message/send as 1.0", async () => {
    const logs = captureConsole();
    const call = { jsonrpc: "2.0", id: "direct", method: "message/send", params: send03("hi") };
    expect(await (await post(origin.url, call, { [DIRECT]: "1" })).json()).toMatchObject({ id: "direct", error: { code: -32009 } });
    const asV1 = await post(origin.url, call, { "A2A-Version": "1.0", [DIRECT]: "1" });
    expect(await asV1.json()).toMatchObject({ id: "direct", error: { code: -32601 } });
    // The SDK's server logs the version it refused (with a stack trace, which this keeps off the test output).
    expect(logs.lines).toEqual([expect.stringMatching(/^Unhandled error in JSON-RPC POST handler: VersionNotSupportedError: .*'0\.3'/)]);
  });

  it("serves a 0.3 card on both card paths, whose JSON-RPC interface is the worker", async () => {
    for (const path of ["/.well-known/agent-card.json", "/.well-known/agent.json"]) {
      const card = (await (await fetch(`${worker.base}${path}`)).json()) as any;
      expect(schemaErrors.v03Card(card), path).toEqual([]);
      expect(card, path).toMatchObject({ protocolVersion: "0.3.0", url: `${worker.base}/`, preferredTransport: "JSONRPC" });
    }
  });

  const clients: [string, () => Promise<LegacyClient>][] = [
    [
      "@a2a-js/sdk 0.3.14 A2AClient (agent-card.json)",
      () => A2AClient03.fromCardUrl(`${worker.base}/.well-known/agent-card.json`, { fetchImpl: recordingFetch(seen) }),
    ],
    [
      "@a2a-js/sdk 0.3.14 A2AClient (agent.json)",
      () => A2AClient03.fromCardUrl(`${worker.base}/.well-known/agent.json`, { fetchImpl: recordingFetch(seen) }),
    ],
    ["@a2a-js/sdk 0.2.5 A2AClient", async () => new A2AClient02(worker.base)],
  ];

  describe.each(clients)("%s", (_name, create) => {
    let client: LegacyClient;
    beforeAll(async () => {
      client = await create();
    });

    it("sendMessage: a completed task, and a message", async () => {
      const task = (await client.sendMessage(send03("hello bridge"))) as any;
      expect(task.error).toBeUndefined();
      expect(task.result).toMatchObject({ kind: "task", status: { state: "completed" } });
      expect(task.result.artifacts[0].parts).toEqual([{ kind: "text", text: "echo: hello bridge" }]);
      expect(task.result.history[0]).toMatchObject({ kind: "message", role: "user", parts: [{ kind: "text", text: "hello bridge" }] });
      const message = (await client.sendMessage(send03("msg just a message"))) as any;
      expect(message.result).toMatchObject({ kind: "message", role: "agent", parts: [{ kind: "text", text: "echo: msg just a message" }] });
    });

    it("sendMessageStream: every event kind in order, the first while the origin holds the rest", async () => {
      const { text, release } = held.next("stream");
      const stream = client.sendMessageStream(send03(text))[Symbol.asyncIterator]();
      const first = await within(stream.next(), "the first translated event while the origin holds the rest");
      release();
      const events = [first.value, ...(await collect({ [Symbol.asyncIterator]: () => stream }))] as any[];
      expect(events.map(step03)).toEqual(["task", "status-update:working", "artifact-update", "status-update:completed:final"]);
      expect(events[0]).toMatchObject({ kind: "task", status: { state: "submitted" } });
      expect(new Set(events.map((event) => event.taskId ?? event.id))).toEqual(new Set([events[0].id]));
      expect(events[2].artifact.parts).toEqual([{ kind: "text", text: `echo: ${text}` }]);
      const message = (await collect(client.sendMessageStream(send03("msg streamed message")))) as any[];
      expect(message).toEqual([
        expect.objectContaining({ kind: "message", parts: [{ kind: "text", text: "echo: msg streamed message" }] }),
      ]);
    });

    it("getTask, and cancelTask of a completed task: the origin's -32002 comes back in 0.3 form", async () => {
      const sent = (await client.sendMessage(send03("remember me"))) as any;
      const got = (await client.getTask({ id: sent.result.id })) as any;
      expect(got.result).toMatchObject({ kind: "task", id: sent.result.id, status: { state: "completed" } });
      // What the 1.0 origin says itself: -32002 with a google.rpc.ErrorInfo in `data`.
      const direct = await post(
        origin.url,
        { jsonrpc: "2.0", id: "c", method: "CancelTask", params: { id: sent.result.id } },
        { "A2A-Version": "1.0", [DIRECT]: "1" },
      );
      expect(((await direct.json()) as any).error).toMatchObject({ code: -32002, data: [{ reason: "TASK_NOT_CANCELABLE" }] });
      const canceled = (await client.cancelTask({ id: sent.result.id })) as any;
      expect(canceled.result).toBeUndefined();
      expect(canceled.error.code).toBe(-32002);
      expect(canceled.error.message).toContain(sent.result.id);
      expect(canceled.error).not.toHaveProperty("data"); // the ErrorInfo says no more than the code: 0.3 has no place for it
    });

    it("cancelTask of a running task: canceled, and its stream ends canceled", async () => {
      const { text, release } = held.next("cancel");
      const stream = client.sendMessageStream(send03(text))[Symbol.asyncIterator]();
      const first = (await within(stream.next(), "the task of the held stream")).value as any;
      const canceled = (await client.cancelTask({ id: first.id })) as any;
      expect(canceled.result).toMatchObject({ kind: "task", id: first.id, status: { state: "canceled" } });
      const rest = (await collect({ [Symbol.asyncIterator]: () => stream })) as any[];
      expect(rest.map(step03)).toEqual(["status-update:canceled:final"]);
      release();
    });

    it("resubscribeTask to a finished task: the origin's JSON refusal reaches the client as its -32004", async () => {
      const logs = captureConsole();
      const sent = (await client.sendMessage(send03("already done"))) as any;
      // The 1.0 origin refuses with plain JSON; a 0.3 client reads a stream only, so the edge sends one SSE error event.
      const refusal = await collect(client.resubscribeTask({ id: sent.result.id })).catch((error: unknown) => error);
      expect(String(refusal)).toContain("-32004");
      // The origin's SDK logs its refusal; the 0.2.5 client also logs the error event it read.
      const refused = `Pre-stream error for request \\d+: UnsupportedOperationError: Task ${sent.result.id} is in a terminal state`;
      expect(logs.lines.filter((line) => new RegExp(`^${refused}`).test(line))).toHaveLength(1);
      for (const line of logs.lines) expect(line).toMatch(new RegExp(`^(${refused}|Error reading or parsing SSE stream: .*-32004)`));
    });

    it("resubscribeTask to a running task: the task, then the rest of its events", async () => {
      const { text, release } = held.next("resubscribe");
      const stream = client.sendMessageStream(send03(text))[Symbol.asyncIterator]();
      const first = (await within(stream.next(), "the task of the held stream")).value as any;
      const again = client.resubscribeTask({ id: first.id })[Symbol.asyncIterator]();
      const snapshot = (await within(again.next(), "the task snapshot of the resubscription")).value as any;
      expect(snapshot).toMatchObject({ kind: "task", id: first.id });
      release();
      const events = (await collect({ [Symbol.asyncIterator]: () => again })) as any[];
      expect(events.map(step03)).toEqual(["status-update:working", "artifact-update", "status-update:completed:final"]);
      expect(events[1].artifact.parts).toEqual([{ kind: "text", text: `echo: ${text}` }]);
      expect(((await collect({ [Symbol.asyncIterator]: () => stream })) as any[]).map(step03)).toEqual([
        "status-update:working",
        "artifact-update",
        "status-update:completed:final",
      ]);
    });
  });

  it("@a2a-js/sdk 0.3.14 ClientFactory: a JSON-RPC client at the worker, sendMessage and sendMessageStream", async () => {
    const client = await new ClientFactory03(
      ClientFactoryOptions03.createFrom(ClientFactoryOptions03.default, {
        transports: [new JsonRpcTransportFactory03({ fetchImpl: recordingFetch(seen) })],
      }),
    ).createFromUrl(worker.base);
    const task = (await client.sendMessage(send03("via factory"))) as any;
    expect(task).toMatchObject({ kind: "task", status: { state: "completed" } });
    const events = (await collect(client.sendMessageStream(send03("factory stream")))) as any[];
    expect(events.map(step03)).toEqual(["task", "status-update:working", "artifact-update", "status-update:completed:final"]);
    // Its default transports pick the same interface.
    const byDefault = await new ClientFactory03().createFromUrl(worker.base);
    expect(await byDefault.sendMessage(send03("default transports"))).toMatchObject({ kind: "task", status: { state: "completed" } });
  });

  it("the extended card: refused to an anonymous 0.3.14 client, rebuilt as a 0.3 card at the worker for an authenticated one", async () => {
    const factory = (headers: Record<string, string>) =>
      new ClientFactory03(
        ClientFactoryOptions03.createFrom(ClientFactoryOptions03.default, {
          transports: [new JsonRpcTransportFactory03({ fetchImpl: recordingFetch(seen, headers) })],
        }),
      ).createFromUrl(worker.base);
    const anonymous = await factory({});
    await expect(anonymous.transport.getExtendedAgentCard()).rejects.toThrow(/-32600/);
    const authenticated = await factory({ authorization: `Bearer ${token}` });
    const card = (await authenticated.transport.getExtendedAgentCard()) as any;
    expect(schemaErrors.v03Card(card)).toEqual([]);
    expect(card).toMatchObject({ name: ORIGIN_AGENT_NAME, protocolVersion: "0.3.0", url: `${worker.base}/` });
    expect(card.skills.map((skill: any) => skill.id)).toContain(EXTENDED_SKILL_ID);
    expect(JSON.stringify(card)).not.toContain(`127.0.0.1:${origin.port}`);
  });

  it("every reply the 0.3.14 clients received is valid A2A 0.3 (the official schema), each SSE event too", async () => {
    const methods = new Set(seen.map((reply) => reply.method));
    for (const method of [
      "message/send",
      "message/stream",
      "tasks/get",
      "tasks/cancel",
      "tasks/resubscribe",
      "agent/getAuthenticatedExtendedCard",
    ]) {
      expect(methods, method).toContain(method);
    }
    for (const reply of seen) {
      for (const envelope of await envelopes(reply))
        expect(v03ResponseErrors(reply.method, envelope), `${reply.method}: ${JSON.stringify(envelope)}`).toEqual([]);
    }
  });

  it("every call the origin received is a valid A2A 1.0 call (the official schema) with A2A-Version: 1.0", async () => {
    const calls = bridged(origin.requests);
    expect(new Set(calls.map((call) => call.method))).toEqual(
      new Set(["SendMessage", "SendStreamingMessage", "GetTask", "CancelTask", "SubscribeToTask", "GetExtendedAgentCard"]),
    );
    for (const call of calls) {
      const label = JSON.stringify(call.body);
      expect(call.version, label).toBe("1.0");
      expect(call.body, label).toMatchObject({ jsonrpc: "2.0", method: call.method });
      expect(["string", "number"], label).toContain(typeof call.body.id);
      expect(v1CallErrors({ method: call.method, params: call.body.params }), label).toEqual([]);
    }
  });
});

// ---- the 1.0 client ----

const send1 = (text: string) => SendMessageRequest.fromJSON({ message: { messageId: randomUUID(), role: "ROLE_USER", parts: [{ text }] } });

/** A 1.0 StreamResponse's member and, for a status update, its state. */
function step1(event: StreamResponse): string {
  const payload = event.payload;
  if (payload?.$case !== "statusUpdate") return payload?.$case ?? "none";
  return `statusUpdate:${TaskState[payload.value.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED]}`;
}

describe("a 0.3-only origin (@a2a-js/sdk 0.3.14 server) through the worker, for the @a2a-js/sdk 1.3 client", () => {
  let idp: OidcIssuer;
  let origin: OriginAgentV03;
  let worker: { dev: Served; base: string };
  let client: Client;
  const held = holds();

  beforeAll(async () => {
    idp = await startOidcIssuer({ resources: [AUDIENCE] });
    origin = await startOriginAgentV03({ streamDelayMs: DELAY, hold: held.hold, messageReply: held.messageReply });
    worker = await startWorker({
      ORIGIN_URL: origin.url,
      ORIGIN_PROTOCOL_VERSIONS: "0.3",
      EDGE_AUTH: "off",
      AUTH_JWT_ISSUER: idp.issuer,
      AUTH_JWT_AUDIENCE: AUDIENCE,
    });
    client = await new ClientFactory().createFromUrl(worker.base);
  });
  afterAll(async () => {
    held.releaseAll();
    await worker?.dev.stop();
    await origin?.stop();
    await idp?.stop();
  });

  it("the origin itself refuses 1.0: SendMessage gets -32601 from it; the client picks the worker's 1.0 JSON-RPC interface", async () => {
    const response = await post(
      origin.url,
      {
        jsonrpc: "2.0",
        id: "direct",
        method: "SendMessage",
        params: { message: { messageId: "m", role: "ROLE_USER", parts: [{ text: "hi" }] } },
      },
      { "A2A-Version": "1.0", [DIRECT]: "1" },
    );
    expect(await response.json()).toMatchObject({ id: "direct", error: { code: -32601 } });
    expect(client.protocolVersion).toBe("1.0");
  });

  it("sendMessage: a completed task, and a message", async () => {
    const task = await client.sendMessage(send1("hello bridge"));
    if (!("id" in task)) throw new Error(`expected a task: ${JSON.stringify(task)}`);
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(messageText(task.artifacts[0])).toBe("echo: hello bridge");
    expect(messageText(task.history[0])).toBe("hello bridge");
    const message = await client.sendMessage(send1("msg just a message"));
    expect("messageId" in message && messageText(message)).toBe("echo: msg just a message");
  });

  it("sendMessageStream: every event kind in order, the first while the origin holds the rest", async () => {
    const { text, release } = held.next("stream");
    const stream = client.sendMessageStream(send1(text))[Symbol.asyncIterator]();
    const first = await within(stream.next(), "the first translated event while the origin holds the rest");
    release();
    const events = [first.value as StreamResponse, ...(await collect({ [Symbol.asyncIterator]: () => stream }))];
    expect(events.map(step1)).toEqual(["task", "statusUpdate:TASK_STATE_WORKING", "artifactUpdate", "statusUpdate:TASK_STATE_COMPLETED"]);
    const artifact = events[2]!.payload;
    expect(artifact?.$case === "artifactUpdate" && messageText(artifact.value.artifact)).toBe(`echo: ${text}`);
    const message = await collect(client.sendMessageStream(send1("msg streamed message")));
    expect(message.map(step1)).toEqual(["message"]);
  });

  it("getTask, and cancelTask of a completed task: the origin's -32002 comes back with the ErrorInfo 1.0 requires", async () => {
    const sent = await client.sendMessage(send1("remember me"));
    if (!("id" in sent)) throw new Error("expected a task");
    const task = await client.getTask({ tenant: "", id: sent.id });
    expect(task).toMatchObject({ id: sent.id, status: { state: TaskState.TASK_STATE_COMPLETED } });
    // What the 0.3 origin says itself: -32002, no data.
    const direct = await post(origin.url, { jsonrpc: "2.0", id: "c", method: "tasks/cancel", params: { id: sent.id } }, { [DIRECT]: "1" });
    const error = ((await direct.json()) as any).error;
    expect(error.code).toBe(-32002);
    expect(error.data).toBeUndefined();
    const refused = await client.cancelTask({ tenant: "", id: sent.id, metadata: undefined }).catch((reason: unknown) => reason);
    expect(refused).toMatchObject({
      envelopeCode: -32002,
      reason: "TASK_NOT_CANCELABLE",
      data: [{ "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "TASK_NOT_CANCELABLE", domain: "a2a-protocol.org" }],
    });
  });

  it("cancelTask of a running task: canceled, and its stream ends canceled", async () => {
    const { text, release } = held.next("cancel");
    const stream = client.sendMessageStream(send1(text))[Symbol.asyncIterator]();
    const first = (await within(stream.next(), "the task of the held stream")).value as StreamResponse;
    if (first.payload?.$case !== "task") throw new Error(`expected a task first: ${step1(first)}`);
    const canceled = await client.cancelTask({ tenant: "", id: first.payload.value.id, metadata: undefined });
    expect(canceled).toMatchObject({ id: first.payload.value.id, status: { state: TaskState.TASK_STATE_CANCELED } });
    expect((await collect({ [Symbol.asyncIterator]: () => stream })).map(step1)).toEqual(["statusUpdate:TASK_STATE_CANCELED"]);
    release();
  });

  it("resubscribeTask to a running task: the task, then the rest of its events", async () => {
    const { text, release } = held.next("resubscribe");
    const stream = client.sendMessageStream(send1(text))[Symbol.asyncIterator]();
    const first = (await within(stream.next(), "the task of the held stream")).value as StreamResponse;
    if (first.payload?.$case !== "task") throw new Error(`expected a task first: ${step1(first)}`);
    const again = client.resubscribeTask({ tenant: "", id: first.payload.value.id })[Symbol.asyncIterator]();
    const snapshot = (await within(again.next(), "the task snapshot of the resubscription")).value as StreamResponse;
    expect(snapshot.payload).toMatchObject({ $case: "task", value: { id: first.payload.value.id } });
    release();
    const rest = ["statusUpdate:TASK_STATE_WORKING", "artifactUpdate", "statusUpdate:TASK_STATE_COMPLETED"];
    expect((await collect({ [Symbol.asyncIterator]: () => again })).map(step1)).toEqual(rest);
    expect((await collect({ [Symbol.asyncIterator]: () => stream })).map(step1)).toEqual(rest);
  });

  it("the extended card: refused anonymously, rebuilt as a 1.0 card at the worker for an authenticated client", async () => {
    await expect(client.transport.getExtendedAgentCard({ tenant: "" })).rejects.toMatchObject({ envelopeCode: -32600 });
    const token = await idp.token(idp.clients.agent);
    const authed: typeof fetch = (input, init) => {
      const headers = new Headers(init?.headers);
      headers.set("authorization", `Bearer ${token}`);
      return fetch(input, { ...init, headers });
    };
    const options = ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl: authed })],
    });
    const authenticated = await new ClientFactory(options).createFromUrl(worker.base);
    const card = await authenticated.transport.getExtendedAgentCard({ tenant: "" });
    expect(card.name).toBe(ORIGIN_V03_AGENT_NAME);
    expect(card.skills.map((skill) => skill.id)).toContain(EXTENDED_SKILL_ID);
    expect(card.supportedInterfaces.map((face) => face.url)).toContain(`${worker.base}/`);
    // The same call on the wire: a 1.0 card, valid, with the worker's URLs only.
    const response = await post(
      `${worker.base}/`,
      { jsonrpc: "2.0", id: 9, method: "GetExtendedAgentCard", params: {} },
      {
        "A2A-Version": "1.0",
        authorization: `Bearer ${token}`,
      },
    );
    const text = await response.text();
    expect(schemaErrors.v1Card(JSON.parse(text).result)).toEqual([]);
    expect(text).not.toContain(`127.0.0.1:${origin.port}`);
  });

  it("every call the origin received is a valid A2A 0.3 request (the official schema) with A2A-Version: 0.3", async () => {
    const calls = bridged(origin.requests);
    expect(new Set(calls.map((call) => call.method))).toEqual(
      new Set(["message/send", "message/stream", "tasks/get", "tasks/cancel", "tasks/resubscribe", "agent/getAuthenticatedExtendedCard"]),
    );
    for (const call of calls) {
      const label = JSON.stringify(call.body);
      expect(call.version, label).toBe("0.3");
      expect(v03CallErrors(call.body as { method: string }), label).toEqual([]);
    }
  });
});
