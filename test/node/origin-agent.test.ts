// The origin agent used by the end-to-end tests, checked directly with the official SDK
// client and raw fetch (no edge in between).
import { randomUUID } from "node:crypto";
import { type AgentCard, SendMessageRequest, type StreamResponse, type Task, TaskState } from "@a2a-js/sdk";
import { type Client, ClientFactory, ClientFactoryOptions, JsonRpcTransportFactory } from "@a2a-js/sdk/client";
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ORIGIN_CREDENTIAL } from "../../scripts/local";
import { type JwksServer, startJwksServer } from "../support/jwks-server";
import { EXTENDED_SKILL_ID, messageText, type OriginAgent, startOriginAgent } from "../support/origin-agent";
import { freePort, type Started, startTs, waitForOutput } from "../support/processes";
import { schemaErrors } from "../support/schemas";
import { latch, until, within } from "../support/wait";
import { startReceiver } from "../support/webhook-receiver";

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

  it("refuses JSON-RPC without exactly that Authorization with HTTP 403 JSON saying so (no challenge), but records it", async () => {
    const variants: Record<string, string>[] = [{}, { Authorization: "Bearer wrong" }, { Authorization: "bearer s3cret" }];
    for (const headers of variants) {
      const res = await rpc(agent.url, send, headers);
      // 403: the credential is the edge's; a 401 would send the caller's client for a new token of its own.
      expect(res.status).toBe(403);
      expect(res.headers.get("content-type")).toMatch(/^application\/json/);
      expect(res.headers.get("www-authenticate")).toBeNull();
      const why = headers.Authorization ? "its Authorization header is not this origin's" : "the call has no Authorization header";
      expect(((await res.json()) as any).error).toEqual({ code: -32600, message: `origin agent refused the edge's credential: ${why}` });
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

describe("origin agent that trusts an edge: its A2A-Caller-Assertion, and why it refuses one", () => {
  let keys: JwksServer;
  let exact: OriginAgent;
  let paths: OriginAgent;
  const getTask = { jsonrpc: "2.0", id: 5, method: "GetTask", params: { id: "no-such-task" } };
  /** A call as the edge makes it (X-Forwarded-Host), with this assertion. */
  const call = (agent: OriginAgent, assertion?: string, headers: Record<string, string> = { "X-Forwarded-Host": "edge.example" }) =>
    rpc(agent.url, getTask, {
      "A2A-Version": "1.0",
      ...headers,
      ...(assertion === undefined ? {} : { "A2A-Caller-Assertion": assertion }),
    });
  const refusal = async (response: Response) => {
    expect(response.status).toBe(403);
    const { id, error } = (await response.json()) as { id: unknown; error: { code: number; message: string } };
    expect([id, error.code]).toEqual([5, -32600]);
    return error.message;
  };
  const claims = (iss: string, agent: OriginAgent) => ({ iss, aud: agent.url, sub: "acme:partner" });

  beforeAll(async () => {
    keys = await startJwksServer();
    exact = await startOriginAgent({ streamDelayMs: 0 });
    exact.trustEdge({ jwksUrl: keys.jwksUrl, issuer: keys.base });
    paths = await startOriginAgent({ streamDelayMs: 0 });
    paths.trustEdge({ jwksUrl: keys.jwksUrl, issuer: keys.base, paths: true });
  });
  afterAll(async () => {
    await exact?.stop();
    await paths?.stop();
    await keys?.stop();
  });

  it("accepts the edge's own assertion either way, an agent by path's only with paths: true, a lookalike never", async () => {
    for (const agent of [exact, paths]) {
      expect((await call(agent, await keys.sign(claims(keys.base, agent)))).status).toBe(200);
      expect(agent.requests.at(-1)?.assertion).toMatchObject({ iss: keys.base, aud: agent.url, sub: "acme:partner" });
    }
    const travel = `${keys.base}/travel`;
    expect(await refusal(await call(exact, await keys.sign(claims(travel, exact))))).toBe(
      `origin agent refused the edge's A2A-Caller-Assertion: issued by ${travel}, this origin trusts ${keys.base}`,
    );
    expect(exact.requests.at(-1)?.assertion).toBeUndefined();
    expect((await call(paths, await keys.sign(claims(travel, paths)))).status).toBe(200);
    expect(paths.requests.at(-1)?.assertion).toMatchObject({ iss: travel, sub: "acme:partner" });
    // A path begins at a segment boundary: another port, a longer host, the base with a slash alone are not the edge's agents.
    for (const lookalike of [`${keys.base}0/travel`, `${keys.base}.example/travel`, `${keys.base}/`]) {
      expect(await refusal(await call(paths, await keys.sign(claims(lookalike, paths)))), lookalike).toBe(
        `origin agent refused the edge's A2A-Caller-Assertion: issued by ${lookalike}, this origin trusts ${keys.base} and its agents by path`,
      );
    }
  });

  it("says why for every other refusal: none, not a JWT, another audience, expired, another key, a forged signature", async () => {
    const expired = await keys.sign(claims(keys.base, paths), { expiresIn: -30 });
    const expiredAt = new Date(Number(decodeJwt(expired).exp) * 1000).toISOString();
    const cases: Array<[string, Promise<string | undefined>, Record<string, string> | undefined, string]> = [
      [
        "none, through an edge",
        Promise.resolve(undefined),
        undefined,
        "a call without an A2A-Caller-Assertion, through an edge that signs none",
      ],
      [
        "none, straight to the origin",
        Promise.resolve(undefined),
        {},
        `a call without an A2A-Caller-Assertion, not through an edge (no X-Forwarded-Host): this origin answers only the edge at ${keys.base}`,
      ],
      ["not a JWT", Promise.resolve("not-a.jwt"), undefined, "the edge's A2A-Caller-Assertion: it is not a JWT"],
      [
        "another audience",
        keys.sign({ ...claims(keys.base, paths), aud: "http://localhost:9999/" }),
        undefined,
        `the edge's A2A-Caller-Assertion: for http://localhost:9999/ (its aud), this origin is ${paths.url}`,
      ],
      ["expired", Promise.resolve(expired), undefined, `the edge's A2A-Caller-Assertion: it expired at ${expiredAt}`],
      [
        "a key the JWKS does not list",
        keys.sign(claims(keys.base, paths), { key: "other", kid: "rotated-away" }),
        undefined,
        `the edge's A2A-Caller-Assertion: signed with a key (kid "rotated-away") that the edge's JWKS does not list (keys: ${keys.jwksUrl})`,
      ],
      [
        "another key under the edge's kid",
        keys.sign(claims(keys.base, paths), { key: "other" }),
        undefined,
        `the edge's A2A-Caller-Assertion: its signature does not verify against the edge's JWKS (keys: ${keys.jwksUrl})`,
      ],
    ];
    for (const [what, assertion, headers, why] of cases) {
      const response = await call(paths, await assertion, headers);
      expect(await refusal(response), what).toBe(`origin agent refused ${why}`);
      expect(paths.requests.at(-1)?.assertion, what).toBeUndefined();
    }
  });

  it("names another edge's issuer before it fetches keys, so the edge it trusts need not run; its own edge's keys unreachable, says so", async () => {
    // npm run dev -- --port 9000 in front of an origin that trusts 8787, where nothing listens.
    const down = `http://127.0.0.1:${await freePort()}`;
    const agent = await startOriginAgent({ streamDelayMs: 0 });
    try {
      agent.trustEdge({ jwksUrl: `${down}/.well-known/jwks.json`, issuer: down, paths: true });
      expect(await refusal(await call(agent, await keys.sign(claims(keys.base, agent))))).toBe(
        `origin agent refused the edge's A2A-Caller-Assertion: issued by ${keys.base}, this origin trusts ${down} and its agents by path`,
      );
      expect(agent.requests.at(-1)?.refusal).toEqual({ kind: "issuer", issuer: keys.base, trusted: down, paths: true });
      expect(await refusal(await call(agent, await keys.sign(claims(down, agent))))).toBe(
        `origin agent refused the edge's A2A-Caller-Assertion: the edge's JWKS at ${down}/.well-known/jwks.json could not be fetched (ECONNREFUSED)`,
      );
    } finally {
      await agent.stop();
    }
  });
});

describe("npm run origin: its edge's agents by path, refusals that say what to do, push notifications", () => {
  let keys: JwksServer;
  let origin: Started;
  let url: string;
  const send = (iss: string, configuration?: unknown) =>
    keys.sign({ iss, aud: url, sub: "acme:partner" }).then((assertion) =>
      rpc(
        url,
        {
          jsonrpc: "2.0",
          id: 7,
          method: "SendMessage",
          params: { message: { messageId: randomUUID(), role: "ROLE_USER", parts: [{ text: "hi" }] }, configuration },
        },
        { "A2A-Version": "1.0", Authorization: ORIGIN_CREDENTIAL, "A2A-Caller-Assertion": assertion, "X-Forwarded-Host": "edge.example" },
      ),
    );

  beforeAll(async () => {
    keys = await startJwksServer();
    origin = startTs("scripts/origin.ts", ["--port", "0", "--delay", "0", "--edge", keys.base]);
    url = await waitForOutput(origin, /listening on (\S+)/, "npm run origin's listening line");
  });
  afterAll(async () => {
    await origin?.stop();
    await keys?.stop();
  });

  it("accepts an agent by path of its edge, and prints its issuer", async () => {
    const response = await send(`${keys.base}/travel`);
    expect(response.status).toBe(200);
    expect(JSON.stringify(await response.json())).toContain("TASK_STATE_COMPLETED");
    await until(() => origin.output().includes("SendMessage: caller"), "the origin's line for the call");
    expect(origin.output()).toContain(
      `origin: SendMessage: caller acme:partner; A2A-Caller-Assertion verified (iss ${keys.base}/travel, aud ${url})\n`,
    );
  });

  it("refuses an assertion of another edge with 403, saying whose it is and how to trust that edge, to the caller and in its terminal", async () => {
    const response = await send("http://127.0.0.1:9000");
    const why = `the edge's A2A-Caller-Assertion: issued by http://127.0.0.1:9000, this origin trusts ${keys.base} and its agents by path (restart it with npm run origin -- --edge http://127.0.0.1:9000)`;
    expect(response.status).toBe(403);
    expect(((await response.json()) as { error: unknown }).error).toEqual({
      code: -32600,
      message: `origin (npm run origin) refused ${why}`,
    });
    await until(() => origin.output().includes("refused (403)"), "the origin's line for the refusal");
    expect(origin.output()).toContain(`origin: SendMessage: refused (403) ${why}\n`);
  });

  it("stores push notification configs, says so, and sends the task's notifications (its card says it does)", async () => {
    const card = (await (await fetch(new URL(".well-known/agent-card.json", url), { headers: { "A2A-Version": "1.0" } })).json()) as any;
    expect(card.capabilities.pushNotifications).toBe(true);
    const receiver = await startReceiver();
    try {
      const response = await send(keys.base, { taskPushNotificationConfig: { url: receiver.url, token: "client-token" } });
      const task = ((await response.json()) as { result: { task: { id: string } } }).result.task.id;
      await until(() => origin.output().includes(`push notification config stored for task ${task}`), "the origin's line for the config");
      expect(origin.output()).toContain(`origin: push notification config stored for task ${task}: ${receiver.url}\n`);
      await until(() => receiver.deliveries.some((d) => d.body.includes("TASK_STATE_COMPLETED")), "the task's last notification");
      expect(receiver.deliveries.every((d) => d.headers["x-a2a-notification-token"] === "client-token")).toBe(true);
      // The SDK's sender says itself what it delivered.
      expect(origin.output()).toContain(`Push notification sent for task_id=${task} to URL: ${receiver.url}`);
    } finally {
      await receiver.stop();
    }
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
