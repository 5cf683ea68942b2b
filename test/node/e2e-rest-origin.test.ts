// End to end, real processes: a REST-only origin (ORIGIN_BINDING=http+json):
// the @a2a-js/sdk 1.3 origin agent serving its REST binding (restHandler at
// /rest), the worker (the built bundle in workerd) in front of it, and @a2a-js/sdk 1.3
// clients on JSON-RPC and on REST talking only to the worker. The origin's
// JSON-RPC endpoint records every call it gets: it must get none.
import { randomUUID } from "node:crypto";
import { SendMessageRequest, type StreamResponse, TaskState } from "@a2a-js/sdk";
import { ClientFactory, ClientFactoryOptions, RestTransportFactory } from "@a2a-js/sdk/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Served, startWorker } from "../support/e2e";
import { messageText, type OriginAgent, startOriginAgent } from "../support/origin-agent";

const request = (text: string) =>
  SendMessageRequest.fromJSON({ message: { messageId: randomUUID(), role: "ROLE_USER", parts: [{ text }] } });

describe("a REST-only origin behind the worker", () => {
  let origin: OriginAgent;
  let worker: { dev: Served; base: string };

  beforeAll(async () => {
    origin = await startOriginAgent({ streamDelayMs: 10, restPath: "/rest" });
    const vars = {
      ORIGIN_BINDING: "http+json",
      ORIGIN_REST_URL: `${origin.url}rest`,
      ORIGIN_PROTOCOL_VERSIONS: "1.0",
      REST_PATH: "/rest",
      EDGE_AUTH: "off",
    };
    worker = await startWorker(vars);
  });
  afterAll(async () => {
    await worker?.dev.stop();
    await origin?.stop();
  });

  it("a JSON-RPC client: send, stream, get and an unknown task, all through the origin's REST binding", async () => {
    const client = await new ClientFactory().createFromUrl(worker.base);
    expect(client.transport.protocolName).toBe("JSONRPC");
    const task = await client.sendMessage(request("hello rest origin"));
    if (!("id" in task)) throw new Error("expected a task");
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(messageText(task.artifacts[0])).toBe("echo: hello rest origin");
    const events: StreamResponse[] = [];
    for await (const event of client.sendMessageStream(request("stream it"))) events.push(event);
    expect(events.map((e) => e.payload?.$case)).toEqual(["task", "statusUpdate", "artifactUpdate", "statusUpdate"]);
    expect((await client.getTask({ tenant: "", id: task.id })).id).toBe(task.id);
    await expect(client.getTask({ tenant: "", id: "no-such-task" })).rejects.toThrow(/not found/i);
    expect(origin.requests).toEqual([]); // nothing reached the origin's JSON-RPC endpoint
  });

  it("a REST client: REST in, REST out", async () => {
    const options = ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new RestTransportFactory()],
      preferredTransports: ["HTTP+JSON"],
    });
    const client = await new ClientFactory(options).createFromUrl(worker.base);
    expect(client.transport.protocolName).toBe("HTTP+JSON");
    const task = await client.sendMessage(request("rest all the way"));
    if (!("id" in task)) throw new Error("expected a task");
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const events: StreamResponse[] = [];
    for await (const event of client.sendMessageStream(request("rest stream"))) events.push(event);
    expect(events.map((e) => e.payload?.$case)).toEqual(["task", "statusUpdate", "artifactUpdate", "statusUpdate"]);
    expect((await client.getTask({ tenant: "", id: task.id })).id).toBe(task.id);
    const listed = await client.listTasks({ tenant: "", contextId: task.contextId } as Parameters<typeof client.listTasks>[0]);
    expect(listed.tasks.map((t) => t.id)).toContain(task.id);
    await expect(client.cancelTask({ tenant: "", id: task.id } as Parameters<typeof client.cancelTask>[0])).rejects.toThrow(/cancel/i);
    expect(origin.requests).toEqual([]);
  });
});

describe("INTERFACE_TENANT: the card's interfaces carry a tenant, and the SDK client sends it", () => {
  let origin: OriginAgent;
  let worker: { dev: Served; base: string };

  beforeAll(async () => {
    origin = await startOriginAgent({ streamDelayMs: 10 });
    const vars = { ORIGIN_URL: origin.url, INTERFACE_TENANT: "acme", EDGE_AUTH: "off" };
    worker = await startWorker(vars);
  });
  afterAll(async () => {
    await worker?.dev.stop();
    await origin?.stop();
  });

  it("reaches the origin with params.tenant from the card", async () => {
    const client = await new ClientFactory().createFromUrl(worker.base);
    const task = await client.sendMessage(request("for acme"));
    expect("id" in task && task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const sent = origin.requests.filter((r) => r.method === "SendMessage");
    expect(sent.map((r) => (JSON.parse(r.rawBody) as { params: { tenant?: string } }).params.tenant)).toEqual(["acme"]);
  });
});
