// The REST binding through the worker: REST calls of both versions
// become the JSON-RPC calls of a JSON-RPC origin, and its answers REST answers,
// with the edge's checks (routes, content types, body cap, auth) in REST form.
import { describe, expect, it } from "vitest";
import { apiKeyCaller, callVia, fakeOrigin, makeEnv } from "../support/worker";

const HOST = "https://agents.example.com";
const task = { id: "t1", contextId: "c1", status: { state: "TASK_STATE_COMPLETED" } };
const answering = () =>
  fakeOrigin(async (req) => {
    const { id, method } = (await req.clone().json()) as { id: number; method: string };
    if (method === "GetTask" && req.headers.get("a2a-version") === "1.0") return Response.json({ jsonrpc: "2.0", id, result: task });
    if (method === "tasks/get") return Response.json({ jsonrpc: "2.0", id, error: { code: -32001, message: "Task not found" } });
    return Response.json({ jsonrpc: "2.0", id, result: { task } });
  });
const env = (vars: Record<string, unknown> = {}) =>
  makeEnv({ ORIGIN_URL: "http://10.0.0.9/", REST_PATH: "/rest", EDGE_AUTH: "off", ...vars });
const sent = (origin: ReturnType<typeof fakeOrigin>) => origin.bodies.map((b) => JSON.parse(new TextDecoder().decode(b)));

describe("REST calls to a JSON-RPC origin", () => {
  it("1.0 POST /message:send is SendMessage; the answer is the REST body", async () => {
    const origin = answering();
    const message = { messageId: "m1", role: "ROLE_USER", parts: [{ text: "hi" }] };
    const init = { method: "POST", headers: { "content-type": "application/a2a+json" }, body: JSON.stringify({ message }) };
    const response = await callVia(origin, `${HOST}/rest/message:send`, init, env());
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ task });
    expect(sent(origin)).toEqual([{ jsonrpc: "2.0", id: 1, method: "SendMessage", params: { message } }]);
    expect(origin.requests[0]!.headers.get("a2a-version")).toBe("1.0");
  });

  it("the origin gets its JSON-RPC body as application/json, whatever the REST call's type (none on a GET, application/a2a+json)", async () => {
    const origin = answering();
    await callVia(origin, `${HOST}/rest/tasks/t1`, {}, env());
    const message = { messageId: "m1", role: "ROLE_USER", parts: [{ text: "hi" }] };
    const init = { method: "POST", headers: { "content-type": "application/a2a+json" }, body: JSON.stringify({ message }) };
    await callVia(origin, `${HOST}/rest/message:send`, init, env());
    expect(origin.requests.map((request) => request.headers.get("content-type"))).toEqual(["application/json", "application/json"]);
  });

  it("GET /tasks/{id} with a tenant, and a 0.3 GET /v1/tasks/{id} whose error becomes a 404", async () => {
    const origin = answering();
    const got = await callVia(origin, `${HOST}/rest/acme/tasks/t1?historyLength=2`, {}, env());
    expect(await got.json()).toEqual(task);
    expect(sent(origin)[0]).toMatchObject({ method: "GetTask", params: { tenant: "acme", id: "t1", historyLength: 2 } });
    const missing = await callVia(origin, `${HOST}/rest/v1/tasks/nope`, {}, env());
    expect(missing.status).toBe(404);
    expect(sent(origin)[1]).toMatchObject({ method: "tasks/get", params: { id: "nope" } });
  });

  it("answers an unknown route 404, a wrong method 405 with Allow, a wrong type 415, an oversize body 413: nothing sent", async () => {
    const origin = answering();
    const unknown = await callVia(origin, `${HOST}/rest/nowhere`, {}, env());
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as any).error.status).toBe("NOT_FOUND");
    const wrong = await callVia(origin, `${HOST}/rest/message:send`, { method: "GET" }, env());
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("allow")).toBe("POST");
    const type = await callVia(
      origin,
      `${HOST}/rest/message:send`,
      { method: "POST", headers: { "content-type": "text/plain" }, body: "{}" },
      env(),
    );
    expect(type.status).toBe(415);
    const big = JSON.stringify({ message: { messageId: "m", role: "ROLE_USER", parts: [{ text: "x".repeat(3000) }] } });
    const large = await callVia(
      origin,
      `${HOST}/rest/message:send`,
      { method: "POST", headers: { "content-type": "application/json" }, body: big },
      env({ MAX_BODY_BYTES: "1024" }),
    );
    expect(large.status).toBe(413);
    expect(origin.requests).toHaveLength(0);
  });

  it("authenticates REST callers as JSON-RPC ones: 401 with the challenge, the extended card only to a caller", async () => {
    const extended = {
      name: "Keyed Agent",
      description: "Behind the edge.",
      version: "1.0.0",
      supportedInterfaces: [{ url: "http://10.0.0.9/", protocolBinding: "JSONRPC", protocolVersion: "1.0" }],
      capabilities: { extendedAgentCard: true },
      defaultInputModes: ["text/plain"],
      defaultOutputModes: ["text/plain"],
      skills: [{ id: "secret", name: "Secret", description: "Only for callers.", tags: ["x"] }],
    };
    const origin = fakeOrigin(async () => Response.json({ jsonrpc: "2.0", id: 1, result: extended }));
    const caller = await apiKeyCaller();
    const workerEnv = env({ EDGE_AUTH: "enforce", ...caller.env });
    const anonymous = await callVia(origin, `${HOST}/rest/extendedAgentCard`, {}, workerEnv);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("www-authenticate")).toContain("Bearer");
    expect(origin.requests).toHaveLength(0);
    const keyed = await callVia(origin, `${HOST}/rest/extendedAgentCard`, { headers: caller.headers }, workerEnv);
    expect(keyed.status).toBe(200);
    // Rebuilt like the public card: the REST binding the origin does not have is listed too.
    const bindings = ((await keyed.json()) as { supportedInterfaces: { protocolBinding: string; url: string }[] }).supportedInterfaces;
    expect(bindings.map((i) => `${i.protocolBinding} ${i.url}`)).toContain(`HTTP+JSON ${HOST}/rest`);
    expect(sent(origin)[0]).toMatchObject({ method: "GetExtendedAgentCard" });
  });

  it("streams: each JSON-RPC SSE event becomes the REST event (the StreamResponse itself)", async () => {
    const events = [{ task }, { statusUpdate: { taskId: "t1", contextId: "c1", status: { state: "TASK_STATE_COMPLETED" } } }];
    const origin = fakeOrigin(
      () =>
        new Response(events.map((result) => `data: ${JSON.stringify({ jsonrpc: "2.0", id: 1, result })}\n\n`).join(""), {
          headers: { "content-type": "text/event-stream" },
        }),
    );
    const init = {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ message: { messageId: "m", role: "ROLE_USER", parts: [{ text: "s" }] } }),
    };
    const response = await callVia(origin, `${HOST}/rest/message:stream`, init, env());
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    const data = (await response.text())
      .split("\n")
      .filter((l) => l.startsWith("data: "))
      .map((l) => JSON.parse(l.slice(6)));
    expect(data).toEqual(events);
    expect(sent(origin)[0]).toMatchObject({ method: "SendStreamingMessage" });
  });
});

describe("edge refusals in each version's REST error shape", () => {
  it("gives a 0.3 REST client the JSON-RPC error object, a 1.0 one google.rpc.Status", async () => {
    const origin = answering();
    const v03 = await callVia(
      origin,
      `${HOST}/rest/v1/message:send`,
      { method: "POST", headers: { "content-type": "text/plain" }, body: "{}" },
      env(),
    );
    expect(v03.status).toBe(415);
    expect(await v03.json()).toMatchObject({ code: expect.any(Number), message: expect.stringContaining("Content-Type") });
    const v1 = await callVia(
      origin,
      `${HOST}/rest/message:send`,
      { method: "POST", headers: { "content-type": "text/plain" }, body: "{}" },
      env(),
    );
    expect(v1.status).toBe(415);
    expect(((await v1.json()) as { error: { status: string } }).error.status).toBe("UNSUPPORTED_MEDIA_TYPE");
    expect(origin.requests).toHaveLength(0);
  });
});
