// One reading, stage by stage, inside workerd (DESIGN "One reading"; docs/proxy.md "How the edge reads a
// message"): the reader's verdicts (test/fixtures/readings.json), what the origin then receives (the bytes
// as sent when they were canonical, else the canonical serialization), the JSON-RPC envelope, REST bodies
// and queries, and duplicate keys wherever the edge reads JSON. The differential suite
// (one-reading.test.ts) holds the origin readers to the same values; the end-to-end one runs real processes.
import { describe, expect, it } from "vitest";
import { parseConfig } from "../../src/config";
import { readParams, readResult } from "../../src/messages/calls";
import READINGS from "../fixtures/readings.json";
import { adminWorker, kv, put, useHosts } from "../support/admin";
import { captureConsole } from "../support/console";
import { callVia, documentsKv, fakeOrigin, makeEnv } from "../support/worker";

const { host } = useHosts();

const HOST = "https://agents.example.com";
const env = (vars: Record<string, unknown> = {}) =>
  makeEnv({ ORIGIN_URL: "https://agent-origin.example.net/rpc", EDGE_AUTH: "off", REST_PATH: "/rest", ...vars });
const echo = () => fakeOrigin(async (request) => Response.json({ jsonrpc: "2.0", id: 1, result: { seen: await request.text() } }));
const post = (body: string, headers: Record<string, string> = {}) => ({
  method: "POST",
  headers: { "content-type": "application/json", ...headers },
  body,
});

type Expected = { value: unknown; changed: boolean } | { refused: string };

describe("the reader: every spelling a conformant reader accepts, one canonical form", () => {
  it.each(READINGS.cases as [string, string, unknown, Expected][])("%s", (_what, method, params, expected) => {
    const read = readParams(method, params);
    if ("refused" in expected) {
      expect("refused" in read && `${read.refused.path}: ${read.refused.message}`).toContain(expected.refused);
    } else expect(read).toEqual(expected);
  });
});

describe("a prototype link is no data", () => {
  it("`__proto__`: dropped from what a client sends, refused in what an origin sends (it would become the prototype)", () => {
    const params = JSON.parse(`{"id":"t","__proto__":{"historyLength":1}}`) as unknown;
    expect(readParams("GetTask", params)).toEqual({ value: { id: "t" }, changed: true });
    const reply = JSON.parse(`{"id":"t","status":{"state":"TASK_STATE_WORKING"},"__proto__":{"contextId":"x"}}`) as unknown;
    expect(readResult("GetTask", reply)).toEqual({ refused: { path: "__proto__", message: "is a prototype link, not data" } });
  });
});

describe("what the origin receives", () => {
  it("the canonical serialization when a member was spelled otherwise; the refusal names the member", async () => {
    const origin = echo();
    const sent = `{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"task_id":"x","id":"t","history_length":"3"}}`;
    const response = await callVia(origin, `${HOST}/`, post(sent), env());
    expect(response.status).toBe(200);
    expect(new TextDecoder().decode(origin.bodies[0])).toBe(
      `{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"t","historyLength":3}}`,
    );
    const refused = await callVia(origin, `${HOST}/`, post(sent.replace('"id":"t"', '"ID":"t"')), env());
    expect(await refused.json()).toMatchObject({
      id: 1,
      error: { code: -32602, message: expect.stringContaining("params.ID is id in another case") },
    });
    expect(origin.bodies).toHaveLength(1);
  });

  it("behind the bridge: a 1.0 call's proto names reach a 0.3 origin as its members (before, the bridge dropped them)", async () => {
    const origin = fakeOrigin(async (request) =>
      Response.json({
        jsonrpc: "2.0",
        id: 1,
        result: { kind: "message", messageId: "r", role: "agent", parts: [], echo: await request.json() },
      }),
    );
    const params = { message: { message_id: "m", task_id: "t", context_id: "c", role: "ROLE_USER", parts: [{ text: "hi" }] } };
    const response = await callVia(
      origin,
      `${HOST}/`,
      post(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "SendMessage", params }), { "A2A-Version": "1.0" }),
      env({ ORIGIN_PROTOCOL_VERSIONS: "0.3" }),
    );
    expect(response.status).toBe(200);
    const sent = JSON.parse(new TextDecoder().decode(origin.bodies[0])) as { method: string; params: { message: Record<string, unknown> } };
    expect(sent.method).toBe("message/send");
    expect(sent.params.message).toMatchObject({ kind: "message", messageId: "m", taskId: "t", contextId: "c", role: "user" });
  });

  it("a webhook URL as the guard serialized it: the origin's HTTP client reads the URL the guard checked", async () => {
    const origin = echo();
    const params = { taskId: "t", url: "HTTPS://Hooks.Example.COM:443/a2a?x=1", token: "tok" };
    await callVia(
      origin,
      `${HOST}/`,
      post(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "CreateTaskPushNotificationConfig", params })),
      env(),
    );
    expect(JSON.parse(new TextDecoder().decode(origin.bodies[0])).params).toEqual({ ...params, url: "https://hooks.example.com/a2a?x=1" });
  });

  it("numbers as JSON.stringify writes them: an integer written 3.0 or 1e1 goes as 3 or 10 (Go's encoding/json refuses the first)", async () => {
    const origin = echo();
    for (const [written, sent] of [
      ["3.0", "3"],
      ["1e1", "10"],
    ] as const) {
      const body = `{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"t","historyLength":${written}}}`;
      await callVia(origin, `${HOST}/`, post(body), env());
      expect(new TextDecoder().decode(origin.bodies.at(-1))).toBe(body.replace(written, sent));
    }
    const asIs = `{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"v1.0e5","historyLength":3}}`;
    await callVia(origin, `${HOST}/`, post(asIs), env());
    expect(new TextDecoder().decode(origin.bodies.at(-1)), "a dot or an e inside a string is no number").toBe(asIs);
  });

  it("the JSON-RPC envelope: a member in another case is refused, one JSON-RPC does not define is dropped", async () => {
    const origin = echo();
    for (const body of [
      `{"jsonrpc":"2.0","id":1,"method":"GetTask","Method":"CancelTask","params":{"id":"t"}}`,
      `{"jsonrpc":"2.0","id":1,"method":"GetTask","PARAMS":{"id":"t"}}`,
    ]) {
      const reply = (await (await callVia(origin, `${HOST}/`, post(body), env())).json()) as { error: { code: number; message: string } };
      expect(reply.error, body).toMatchObject({ code: -32600, message: expect.stringContaining("in another case") });
    }
    expect(origin.bodies).toHaveLength(0);
    await callVia(origin, `${HOST}/`, post(`{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"t"},"extra":{"url":"x"}}`), env());
    expect(new TextDecoder().decode(origin.bodies[0])).toBe(`{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"t"}}`);
  });

  it("REST: a body's proto names are read, a duplicate key or a query field given twice is refused", async () => {
    const origin = echo();
    const rest = (path: string, body?: string) =>
      callVia(
        origin,
        `${HOST}/rest${path}`,
        body === undefined ? { headers: { "A2A-Version": "1.0" } } : post(body, { "A2A-Version": "1.0" }),
        env(),
      );
    const sent = await rest("/message:send", `{"message":{"message_id":"m","role":"ROLE_USER","parts":[{"text":"hi"}]}}`);
    expect(sent.status).toBe(200);
    expect(JSON.parse(new TextDecoder().decode(origin.bodies[0])).params.message).toEqual({
      messageId: "m",
      role: "ROLE_USER",
      parts: [{ text: "hi" }],
    });
    // A 1.0 body is its request message: read strictly, as a JSON-RPC call's params (unknown members dropped, types checked).
    const strict = await rest(
      "/message:send",
      `{"message":{"messageId":"m","role":"ROLE_USER","parts":[]},"configuration":{"returnImmediately":"false"}}`,
    );
    expect(strict.status).toBe(400);
    expect(await strict.text()).toContain("configuration.returnImmediately must be true or false");
    await rest("/message:send", `{"message":{"messageId":"m","role":"ROLE_USER","parts":[],"kind":"message"},"extra":1}`);
    expect(JSON.parse(new TextDecoder().decode(origin.bodies[1])).params).toEqual({
      message: { messageId: "m", role: "ROLE_USER", parts: [] },
    });
    const twice = await rest("/tasks/t1/pushNotificationConfigs", `{"url":"https://hooks.example.com/","url":"https://127.0.0.1/"}`);
    expect(twice.status).toBe(400);
    expect(await twice.text()).toContain("the same key twice");
    const query = await rest("/tasks/t1?historyLength=1&history_length=50");
    expect(query.status).toBe(400);
    expect(await query.text()).toContain("historyLength is given twice");
    expect(origin.bodies).toHaveLength(2);
  });
});

describe("what the edge reads of an origin's reply", () => {
  it("a reply it reads (translated for a REST client) is read once: a member in another case, or a key twice, is no answer", async () => {
    const console = captureConsole();
    const task = { id: "t", contextId: "c", status: { state: "TASK_STATE_COMPLETED" } };
    const replies = [
      `{"jsonrpc":"2.0","id":1,"result":${JSON.stringify(task)},"Result":{"id":"other"}}`,
      `{"jsonrpc":"2.0","id":1,"result":{"id":"t","id":"other","status":{"state":"TASK_STATE_COMPLETED"}}}`,
      `{"jsonrpc":"2.0","id":1,"result":{"id":"t","ID":"other","status":{"state":"TASK_STATE_COMPLETED"}}}`,
    ];
    for (const reply of replies) {
      const origin = fakeOrigin(() => new Response(reply, { headers: { "content-type": "application/json" } }));
      const response = await callVia(origin, `${HOST}/rest/tasks/t`, { headers: { "A2A-Version": "1.0" } }, env());
      expect(response.status, reply).toBe(502);
    }
    expect(console.events("origin_failed").map((line) => line.kind)).toEqual(["invalid_response", "invalid_response", "invalid_response"]);
    // Proto names in a reply are read as their JSON names (a ProtoJSON writer may emit either).
    const origin = fakeOrigin(() => Response.json({ jsonrpc: "2.0", id: 1, result: { id: "t", context_id: "c", status: { state: 3 } } }));
    const response = await callVia(origin, `${HOST}/rest/tasks/t`, { headers: { "A2A-Version": "1.0" } }, env());
    expect(await response.json()).toEqual({ id: "t", contextId: "c", status: { state: "TASK_STATE_COMPLETED" } });
  });
});

describe("duplicate keys wherever the edge reads JSON", () => {
  it("an admin PUT naming a key twice is refused and nothing is written; stored in KV, the document is unreadable (503)", async () => {
    const console = captureConsole();
    const h = host("twice");
    // The second `security` would make the agent anonymous to a last-wins reader, the first keeps its key.
    const text = `{"name":"Twice","security":[{"key":[]}],"securitySchemes":{"key":{"type":"apiKey","in":"header","name":"K"}},"security":[]}`;
    const refused = await adminWorker()(`https://${h}/_admin/documents/${h}`, put(text));
    // An invalid document, as any other the admin API refuses (422 with the issue).
    expect(refused.status).toBe(422);
    expect(await refused.text()).toContain("the same key twice");
    expect(await kv.get(h)).toBeNull();
    await kv.put(h, text);
    const origin = echo();
    const response = await callVia(
      origin,
      `https://${h}/`,
      post(`{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"t"}}`),
      env({ KV_CACHE_TTL: "0" }),
    );
    expect(response.status).toBe(503);
    expect(origin.bodies).toHaveLength(0);
    expect(JSON.stringify(console.lines)).toContain("an object names the same key twice");
  });

  it("a JSON variable naming a key twice is a configuration error that names the variable, never its value", () => {
    const parsed = parseConfig({ ORIGIN_HEADERS: `{"Authorization":"Bearer a","Authorization":"Bearer secret-b"}` });
    expect(parsed.ok).toBe(false);
    const issues = parsed.ok ? [] : parsed.issues;
    expect(issues.map((issue) => issue.path)).toEqual(["ORIGIN_HEADERS"]);
    expect(JSON.stringify(issues)).toContain("the same key twice");
    expect(JSON.stringify(issues)).not.toContain("secret-b");
  });

  it("documentsKv documents are read the same way (the fixture store the suites share)", async () => {
    const origin = echo();
    const response = await callVia(
      origin,
      `${HOST}/.well-known/agent-card.json`,
      {},
      env({ SKILLS: documentsKv({ default: { name: "Once" } }) }),
    );
    expect(response.status).toBe(200);
  });
});
