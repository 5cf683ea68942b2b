// A REST-only origin behind the edge (ORIGIN_BINDING=http+json): a
// JSON-RPC call becomes the origin's REST request, the REST answer (status,
// google.rpc.Status error, SSE events) the JSON-RPC answer; a REST client
// reaches it through the REST binding; a 0.3 client through the bridge too.
import { describe, expect, it } from "vitest";
import { captureConsole } from "../support/console";
import { callVia, fakeOrigin, makeEnv } from "../support/worker";

const HOST = "https://agents.example.com";
const BASE = "http://10.0.0.9/a2a/rest";
const task = { id: "t1", contextId: "c1", status: { state: "TASK_STATE_COMPLETED" } };
const notFound = {
  error: {
    code: 404,
    status: "NOT_FOUND",
    message: "Task not found",
    details: [{ "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "TASK_NOT_FOUND", domain: "a2a-protocol.org" }],
  },
};
function restOrigin() {
  return fakeOrigin(async (req) => {
    const { pathname } = new URL(req.url);
    if (req.method === "POST" && pathname === "/a2a/rest/message:send") return Response.json({ task });
    if (req.method === "POST" && pathname === "/a2a/rest/message:stream") {
      const events = [{ task }, { statusUpdate: { taskId: "t1", contextId: "c1", status: { state: "TASK_STATE_COMPLETED" } } }];
      return new Response(events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join(""), {
        headers: { "content-type": "text/event-stream" },
      });
    }
    if (req.method === "GET" && pathname === "/a2a/rest/tasks/t1") return Response.json(task);
    return Response.json(notFound, { status: 404 });
  });
}
const env = (vars: Record<string, unknown> = {}) =>
  makeEnv({ ORIGIN_BINDING: "http+json", ORIGIN_REST_URL: BASE, EDGE_AUTH: "off", ORIGIN_PROTOCOL_VERSIONS: "1.0", ...vars });
const rpc = (body: unknown, version = "1.0") => ({
  method: "POST",
  headers: { "content-type": "application/json", "A2A-Version": version },
  body: JSON.stringify(body),
});
const message = { messageId: "m1", role: "ROLE_USER", parts: [{ text: "hi" }] };

describe("a REST-only origin", () => {
  it("gets SendMessage as POST /message:send; the JSON-RPC caller gets the result", async () => {
    const origin = restOrigin();
    const response = await callVia(origin, `${HOST}/`, rpc({ jsonrpc: "2.0", id: 7, method: "SendMessage", params: { message } }), env());
    expect(await response.json()).toEqual({ jsonrpc: "2.0", id: 7, result: { task } });
    expect(origin.requests[0]!.method).toBe("POST");
    expect(origin.requests[0]!.url).toBe(`${BASE}/message:send`);
    expect(JSON.parse(new TextDecoder().decode(origin.bodies[0]))).toEqual({ message });
  });

  it("gets GetTask as GET /tasks/{id}; its 404 is -32001 to the JSON-RPC caller", async () => {
    const origin = restOrigin();
    const got = await callVia(origin, `${HOST}/`, rpc({ jsonrpc: "2.0", id: 1, method: "GetTask", params: { id: "t1" } }), env());
    expect(await got.json()).toEqual({ jsonrpc: "2.0", id: 1, result: task });
    expect(origin.requests[0]!.method).toBe("GET");
    const missing = await callVia(origin, `${HOST}/`, rpc({ jsonrpc: "2.0", id: 2, method: "GetTask", params: { id: "nope" } }), env());
    expect(await missing.json()).toMatchObject({ jsonrpc: "2.0", id: 2, error: { code: -32001 } });
  });

  it("streams: each REST event is a JSON-RPC event, and a 0.3 caller gets them bridged", async () => {
    const origin = restOrigin();
    const text = await (
      await callVia(origin, `${HOST}/`, rpc({ jsonrpc: "2.0", id: 3, method: "SendStreamingMessage", params: { message } }), env())
    ).text();
    const data = text
      .split("\n")
      .filter((l) => l.startsWith("data: "))
      .map((l) => JSON.parse(l.slice(6)));
    expect(data.map((d) => Object.keys(d.result)[0])).toEqual(["task", "statusUpdate"]);
    expect(data.every((d) => d.id === 3)).toBe(true);
    const old = { kind: "message", messageId: "m1", role: "user", parts: [{ kind: "text", text: "hi" }] };
    const bridged = await (
      await callVia(origin, `${HOST}/`, rpc({ jsonrpc: "2.0", id: 4, method: "message/stream", params: { message: old } }, "0.3"), env())
    ).text();
    const kinds = bridged
      .split("\n")
      .filter((l) => l.startsWith("data: "))
      .map((l) => JSON.parse(l.slice(6)).result.kind);
    expect(kinds).toEqual(["task", "status-update"]);
  });

  it("serves a REST client through the REST binding to the REST origin", async () => {
    const origin = restOrigin();
    const init = { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ message }) };
    const response = await callVia(origin, `${HOST}/rest/message:send`, init, env({ REST_PATH: "/rest" }));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ task });
    expect(origin.requests[0]!.url).toBe(`${BASE}/message:send`);
  });

  it("needs ORIGIN_REST_URL, naming it", async () => {
    const logs = captureConsole();
    const response = await callVia(restOrigin(), `${HOST}/.well-known/agent-card.json`, {}, makeEnv({ ORIGIN_BINDING: "http+json" }));
    expect(response.status).toBe(500);
    expect(await response.text()).toContain("ORIGIN_REST_URL");
    expect(logs.events().map((e) => e.event)).toEqual(["config_invalid"]);
  });
});
