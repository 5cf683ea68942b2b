// The REST binding end to end, real processes only: the @a2a-js/sdk
// 1.3 origin agent (JSON-RPC only), the worker (the built bundle in workerd) with
// REST_PATH=/rest in front of it, and the @a2a-js/sdk 1.3 client forced to its
// HTTP+JSON transport, talking only to the worker. Every REST path the client
// used and every reply it got are recorded; the replies must be valid A2A 1.0
// (the official schema); every call the origin received is JSON-RPC.
import { randomUUID } from "node:crypto";
import { SendMessageRequest, type StreamResponse, TaskState } from "@a2a-js/sdk";
import { type Client, ClientFactory, ClientFactoryOptions, RestTransportFactory } from "@a2a-js/sdk/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collect, holds, type Served, sseData, startWorker } from "../support/e2e";
import { type OidcIssuer, startOidcIssuer } from "../support/oidc-issuer";
import { EXTENDED_SKILL_ID, messageText, ORIGIN_AGENT_NAME, type OriginAgent, startOriginAgent } from "../support/origin-agent";
import { schemaErrors } from "../support/schemas";
import { within } from "../support/wait";

const DELAY = 20;
const AUDIENCE = "https://agent.example/";
const MAX_BODY_BYTES = 2048;

function send(text: string): SendMessageRequest {
  return SendMessageRequest.fromJSON({ message: { messageId: randomUUID(), role: "ROLE_USER", parts: [{ text }] } });
}

/** An event's payload kind and, for a status update, its state. */
function step(event: StreamResponse): string {
  const payload = event.payload;
  if (payload?.$case !== "statusUpdate") return payload?.$case ?? "none";
  return `statusUpdate:${TaskState[payload.value.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED]}`;
}

/** One REST exchange of the client, as its fetch saw it (the body read from a clone). */
interface Exchange {
  method: string;
  path: string;
  status: number;
  contentType: string;
  text: Promise<string>;
}

/** A fetch that records every exchange and adds `headers` to every request. */
function recordingFetch(seen: Exchange[], headers: Record<string, string> = {}): typeof fetch {
  return async (input, init) => {
    const sent = new Headers(init?.headers);
    for (const [name, value] of Object.entries(headers)) sent.set(name, value);
    const response = await fetch(input, { ...init, headers: sent });
    const url = new URL(input instanceof Request ? input.url : String(input));
    seen.push({
      method: init?.method ?? "GET",
      path: url.pathname,
      status: response.status,
      contentType: response.headers.get("content-type") ?? "",
      text: response.clone().text(),
    });
    return response;
  };
}

describe("the @a2a-js/sdk 1.3 client over HTTP+JSON, through the worker's REST binding, to a JSON-RPC origin", () => {
  let idp: OidcIssuer;
  let origin: OriginAgent;
  let worker: { dev: Served; base: string };
  let client: Client;
  let token: string;
  const held = holds();
  const seen: Exchange[] = [];
  /** The REST exchanges of the test's clients from the `from`th on, as "METHOD path". */
  const routes = (from = 0) => seen.slice(from).map((exchange) => `${exchange.method} ${exchange.path}`);

  beforeAll(async () => {
    idp = await startOidcIssuer({ resources: [AUDIENCE] });
    origin = await startOriginAgent({ streamDelayMs: DELAY, hold: held.hold });
    // EDGE_AUTH=off: calls pass unchecked; the extended card still needs a caller the edge authenticated (the bundled card's bearer scheme).
    worker = await startWorker({
      ORIGIN_URL: origin.url,
      REST_PATH: "/rest",
      EDGE_AUTH: "off",
      AUTH_JWT_ISSUER: idp.issuer,
      AUTH_JWT_AUDIENCE: AUDIENCE,
      MAX_BODY_BYTES: String(MAX_BODY_BYTES),
    });
    token = await idp.token(idp.clients.agent);
    const options = ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new RestTransportFactory({ fetchImpl: recordingFetch(seen) })],
      preferredTransports: ["HTTP+JSON"],
    });
    client = await new ClientFactory(options).createFromUrl(worker.base);
  });
  afterAll(async () => {
    held.releaseAll();
    await worker?.dev.stop();
    await origin?.stop();
    await idp?.stop();
  });

  it("the card lists an HTTP+JSON interface at base + REST_PATH, and the client picks it", async () => {
    const card = (await (await fetch(`${worker.base}/.well-known/agent-card.json`, { headers: { "A2A-Version": "1.0" } })).json()) as any;
    expect(schemaErrors.v1Card(card)).toEqual([]);
    expect(card.supportedInterfaces).toContainEqual(
      expect.objectContaining({ url: `${worker.base}/rest`, protocolBinding: "HTTP+JSON", protocolVersion: "1.0" }),
    );
    expect(JSON.stringify(card)).not.toContain(String(origin.port));
    expect(client.transport.protocolName).toBe("HTTP+JSON");
    expect(client.protocolVersion).toBe("1.0");
  });

  it("sendMessage: POST /rest/message:send becomes SendMessage at the origin, and a completed task comes back", async () => {
    const [before, calls] = [seen.length, origin.requests.length];
    const task = await client.sendMessage(send("hello rest"));
    if (!("id" in task)) throw new Error(`expected a task: ${JSON.stringify(task)}`);
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(messageText(task.artifacts[0])).toBe("echo: hello rest");
    expect(routes(before)).toEqual(["POST /rest/message:send"]);
    const received = origin.requests.slice(calls);
    expect(received.map((request) => request.method)).toEqual(["SendMessage"]);
    expect(received[0]!.headers["a2a-version"]).toBe("1.0");
    expect(JSON.parse(received[0]!.rawBody)).toMatchObject({ jsonrpc: "2.0", params: { message: { parts: [{ text: "hello rest" }] } } });
  });

  it("sendMessageStream: every event kind in order, the first while the origin holds the rest", async () => {
    const before = seen.length;
    const { text, release } = held.next("stream");
    const stream = client.sendMessageStream(send(text))[Symbol.asyncIterator]();
    const first = await within(stream.next(), "the first REST event while the origin holds the rest");
    release();
    const events = [first.value as StreamResponse, ...(await collect({ [Symbol.asyncIterator]: () => stream }))];
    expect(events.map(step)).toEqual(["task", "statusUpdate:TASK_STATE_WORKING", "artifactUpdate", "statusUpdate:TASK_STATE_COMPLETED"]);
    const artifact = events[2]!.payload;
    expect(artifact?.$case === "artifactUpdate" && messageText(artifact.value.artifact)).toBe(`echo: ${text}`);
    expect(routes(before)).toEqual(["POST /rest/message:stream"]);
    expect(seen[before]!.contentType).toMatch(/^text\/event-stream/);
    expect(origin.requests.at(-1)!.method).toBe("SendStreamingMessage");
  });

  it("getTask and listTasks: GET /rest/tasks/{id} and GET /rest/tasks", async () => {
    const sent = await client.sendMessage(send("remember me"));
    if (!("id" in sent)) throw new Error("expected a task");
    const before = seen.length;
    const task = await client.getTask({ tenant: "", id: sent.id, historyLength: 1 });
    expect(task).toMatchObject({ id: sent.id, status: { state: TaskState.TASK_STATE_COMPLETED } });
    expect(task.history).toHaveLength(1);
    const list = await client.listTasks({
      tenant: "",
      contextId: sent.contextId,
      status: TaskState.TASK_STATE_COMPLETED,
      pageSize: 10,
      pageToken: "",
      historyLength: undefined,
      statusTimestampAfter: undefined,
      includeArtifacts: true,
    });
    expect(list.tasks.map((listed) => listed.id)).toEqual([sent.id]);
    expect(messageText(list.tasks[0]!.artifacts[0])).toBe("echo: remember me");
    expect(routes(before)).toEqual([`GET /rest/tasks/${sent.id}`, "GET /rest/tasks"]);
    const [getTask, listTasks] = origin.requests.slice(-2).map((request) => JSON.parse(request.rawBody));
    expect(getTask).toMatchObject({ method: "GetTask", params: { id: sent.id, historyLength: 1 } });
    expect(listTasks).toMatchObject({
      method: "ListTasks",
      params: { contextId: sent.contextId, status: "TASK_STATE_COMPLETED", pageSize: 10, includeArtifacts: true },
    });
  });

  it("cancelTask of a running task: POST /rest/tasks/{id}:cancel, canceled, and its stream ends canceled", async () => {
    const { text, release } = held.next("cancel");
    const stream = client.sendMessageStream(send(text))[Symbol.asyncIterator]();
    const first = (await within(stream.next(), "the task of the held stream")).value as StreamResponse;
    if (first.payload?.$case !== "task") throw new Error(`expected a task first: ${step(first)}`);
    const id = first.payload.value.id;
    const before = seen.length;
    const canceled = await client.cancelTask({ tenant: "", id, metadata: undefined });
    expect(canceled).toMatchObject({ id, status: { state: TaskState.TASK_STATE_CANCELED } });
    expect(routes(before)).toEqual([`POST /rest/tasks/${id}:cancel`]);
    expect(origin.requests.at(-1)!.method).toBe("CancelTask");
    expect((await collect({ [Symbol.asyncIterator]: () => stream })).map(step)).toEqual(["statusUpdate:TASK_STATE_CANCELED"]);
    release();
  });

  it("resubscribeTask to a running task: /rest/tasks/{id}:subscribe, the task, then the rest of its events", async () => {
    const { text, release } = held.next("resubscribe");
    const stream = client.sendMessageStream(send(text))[Symbol.asyncIterator]();
    const first = (await within(stream.next(), "the task of the held stream")).value as StreamResponse;
    if (first.payload?.$case !== "task") throw new Error(`expected a task first: ${step(first)}`);
    const id = first.payload.value.id;
    const before = seen.length;
    const again = client.resubscribeTask({ tenant: "", id })[Symbol.asyncIterator]();
    const snapshot = (await within(again.next(), "the task snapshot of the resubscription")).value as StreamResponse;
    expect(snapshot.payload).toMatchObject({ $case: "task", value: { id } });
    expect(routes(before)).toEqual([expect.stringMatching(new RegExp(`^(GET|POST) /rest/tasks/${id}:subscribe$`))]);
    expect(origin.requests.at(-1)!.method).toBe("SubscribeToTask");
    release();
    const rest = ["statusUpdate:TASK_STATE_WORKING", "artifactUpdate", "statusUpdate:TASK_STATE_COMPLETED"];
    expect((await collect({ [Symbol.asyncIterator]: () => again })).map(step)).toEqual(rest);
    expect((await collect({ [Symbol.asyncIterator]: () => stream })).map(step)).toEqual(rest);
  });

  it("the extended card: GET /rest/extendedAgentCard refused anonymously, the worker's 1.0 card for an authenticated client", async () => {
    const anonymous = await fetch(`${worker.base}/rest/extendedAgentCard`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("www-authenticate")).toMatch(/^Bearer /);
    await expect(client.transport.getExtendedAgentCard({ tenant: "" })).rejects.toThrow();
    const before = seen.length;
    const options = ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new RestTransportFactory({ fetchImpl: recordingFetch(seen, { authorization: `Bearer ${token}` }) })],
      preferredTransports: ["HTTP+JSON"],
    });
    const authenticated = await new ClientFactory(options).createFromUrl(worker.base);
    const card = await authenticated.transport.getExtendedAgentCard({ tenant: "" });
    expect(card.name).toBe(ORIGIN_AGENT_NAME);
    expect(card.skills.map((skill) => skill.id)).toContain(EXTENDED_SKILL_ID);
    // Every interface is the worker's (the extended card lists only the JSON-RPC ones: the SDK's own REST server lists only its JSON-RPC interfaces there).
    for (const face of card.supportedInterfaces) expect(face.url.startsWith(`${worker.base}/`), face.url).toBe(true);
    expect(routes(before)).toEqual(["GET /rest/extendedAgentCard"]);
    const text = await seen[before]!.text;
    expect(text).not.toContain(`127.0.0.1:${origin.port}`);
    expect(schemaErrors.v1Card(JSON.parse(text))).toEqual([]);
    expect(origin.requests.at(-1)!.method).toBe("GetExtendedAgentCard");
  });

  it("a tenant route, as application/a2a+json: POST /rest/acme/message:send reaches the origin with params.tenant acme", async () => {
    const response = await fetch(`${worker.base}/rest/acme/message:send`, {
      method: "POST",
      headers: { "content-type": "application/a2a+json" },
      body: JSON.stringify({ message: { messageId: randomUUID(), role: "ROLE_USER", parts: [{ text: "for acme" }] } }),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as any;
    expect(schemaErrors.v1("SendMessageResponse")(body)).toEqual([]);
    expect(body.task.status.state).toBe("TASK_STATE_COMPLETED");
    expect(origin.requests.at(-1)!.headers["content-type"]).toBe("application/json");
    const call = JSON.parse(origin.requests.at(-1)!.rawBody);
    expect(call).toMatchObject({ method: "SendMessage", params: { tenant: "acme" } });
  });

  describe("REST errors over the wire", () => {
    const rest = (path: string) => `${worker.base}/rest${path}`;

    it("an unknown task: 404 with a google.rpc.Status NOT_FOUND and the ErrorInfo TASK_NOT_FOUND", async () => {
      const response = await fetch(rest("/tasks/nope"));
      expect(response.status).toBe(404);
      expect(response.headers.get("content-type")).toMatch(/^application\/json/);
      const body = (await response.json()) as any;
      expect(body.error).toMatchObject({ code: 404, status: "NOT_FOUND" });
      expect(body.error.details).toContainEqual(
        expect.objectContaining({ "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "TASK_NOT_FOUND" }),
      );
      expect(origin.requests.at(-1)).toMatchObject({ method: "GetTask" });
      // The client sees it as the same error.
      await expect(client.getTask({ tenant: "", id: "nope", historyLength: undefined })).rejects.toThrow();
    });

    it("a body that is not JSON: 415; one over MAX_BODY_BYTES: 413; nothing reaches the origin", async () => {
      const calls = origin.requests.length;
      const text = await fetch(rest("/message:send"), { method: "POST", headers: { "content-type": "text/plain" }, body: "{}" });
      expect(text.status).toBe(415);
      const big = JSON.stringify({
        message: { messageId: randomUUID(), role: "ROLE_USER", parts: [{ text: "x".repeat(MAX_BODY_BYTES) }] },
      });
      const oversize = await fetch(rest("/message:send"), { method: "POST", headers: { "content-type": "application/json" }, body: big });
      expect(oversize.status).toBe(413);
      expect(origin.requests.length).toBe(calls);
    });

    it("an unknown route: 404; a known path with another method: 405 with Allow", async () => {
      const calls = origin.requests.length;
      expect((await fetch(rest("/no/such/route/here"))).status).toBe(404);
      const wrong = await fetch(rest("/message:send"));
      expect(wrong.status).toBe(405);
      expect(wrong.headers.get("allow")).toBe("POST");
      const subscribe = await fetch(rest("/tasks/t1:subscribe"), { method: "DELETE" });
      expect(subscribe.status).toBe(405);
      expect(subscribe.headers.get("allow")?.split(/,\s*/).sort()).toEqual(["GET", "POST"]);
      expect(origin.requests.length).toBe(calls);
    });
  });

  it("every REST reply the clients received is valid A2A 1.0 (the official schema), each SSE event a StreamResponse", async () => {
    const definitions: Record<string, string> = {
      "POST /rest/message:send": "SendMessageResponse",
      "GET /rest/tasks": "ListTasksResponse",
      "GET /rest/extendedAgentCard": "AgentCard",
    };
    const checked = new Set<string>();
    for (const exchange of seen.filter((e) => e.status === 200)) {
      const route = `${exchange.method} ${exchange.path}`;
      const text = await exchange.text;
      if (exchange.contentType.startsWith("text/event-stream")) {
        const events = sseData(text);
        expect(events.length, route).toBeGreaterThan(0);
        for (const event of events) expect(schemaErrors.v1("StreamResponse")(event), `${route} ${JSON.stringify(event)}`).toEqual([]);
        checked.add("StreamResponse");
        continue;
      }
      const definition =
        definitions[route] ?? (/^(GET \/rest\/tasks\/[^/]+|POST \/rest\/tasks\/[^/]+:cancel)$/.test(route) ? "Task" : undefined);
      if (!definition) throw new Error(`no schema for ${route}`);
      expect(schemaErrors.v1(definition)(JSON.parse(text)), `${route} ${text}`).toEqual([]);
      checked.add(definition);
    }
    expect([...checked].sort()).toEqual(["AgentCard", "ListTasksResponse", "SendMessageResponse", "StreamResponse", "Task"]);
  });
});
