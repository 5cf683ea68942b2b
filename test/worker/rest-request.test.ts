// REST requests as JSON-RPC calls (src/rest/rest-request.ts), field by field,
// every route of both versions: what comes from the path, the query and the
// body (1.0: proto transcoding of the google.api.http annotations; 0.3: its
// proto's JSON, and the JSON-RPC forms the a2a-js 0.3 REST server read), and
// what is refused. Every call made is checked against its version's official
// schema (1.0: the request message; 0.3: the whole JSON-RPC request).
import { describe, expect, it } from "vitest";
import { matchRestRoute, type RestCall, type RestInvalid, type RestRoute, type RestVersion, restToJsonRpc } from "../../src/rest";
import { v1CallErrors, v03CallErrors } from "../support/bridge-schemas";

function routeOf(method: string, path: string, version: RestVersion): RestRoute {
  const match = matchRestRoute(method, path, version);
  if (!("operation" in match)) throw new Error(`no route: ${method} ${path}`);
  return match;
}

/** The call a REST request makes, checked against the official schema when it is one. */
function call(version: RestVersion, method: string, target: string, body?: unknown): RestCall | RestInvalid {
  const [path = "", query = ""] = target.split("?");
  const made = restToJsonRpc(routeOf(method, path, version), new URLSearchParams(query), body);
  if ("method" in made) expect(version === "1.0" ? v1CallErrors(made) : v03CallErrors(made)).toEqual([]);
  return made;
}
const v1 = (method: string, target: string, body?: unknown) => call("1.0", method, target, body);
const v03 = (method: string, target: string, body?: unknown) => call("0.3", method, target, body);

const message1 = { messageId: "m-1", role: "ROLE_USER", parts: [{ text: "hi" }] };

describe('1.0: POST bodies are the request message (body: "*")', () => {
  const send = {
    message: message1,
    configuration: { acceptedOutputModes: ["text/plain"], historyLength: 2, returnImmediately: true },
    metadata: { a: 1 },
  };

  it.each([
    ["/message:send", "SendMessage"],
    ["/message:stream", "SendStreamingMessage"],
  ])("%s: the SendMessageRequest as it came", (path, method) => {
    expect(v1("POST", path, send)).toEqual({ method, params: send });
    expect(v1("POST", `/acme${path}`, send)).toEqual({ method, params: { ...send, tenant: "acme" } });
  });

  it("takes the tenant from the path over the body's, and the body's without one", () => {
    expect(v1("POST", "/acme/message:send", { ...send, tenant: "other" })).toEqual({
      method: "SendMessage",
      params: { ...send, tenant: "acme" },
    });
    expect(v1("POST", "/message:send", { ...send, tenant: "other" })).toEqual({
      method: "SendMessage",
      params: { ...send, tenant: "other" },
    });
  });

  it("reads no query for a POST with a body", () => {
    expect(v1("POST", "/message:send?tenant=x&historyLength=3", send)).toEqual({ method: "SendMessage", params: send });
  });

  it.each([undefined, null, [], "text", 3, true])("refuses a body that is not an object: %j", (body) => {
    expect(v1("POST", "/message:send", body)).toEqual({ invalid: "the body must be a JSON object" });
    expect(v1("POST", "/tasks/t-1/pushNotificationConfigs", body)).toEqual({ invalid: "the body must be a JSON object" });
  });

  it("CancelTask: id from the path over the body's, metadata from the body, and no body at all is fine (the SDK client sends none)", () => {
    expect(v1("POST", "/tasks/t-1:cancel")).toEqual({ method: "CancelTask", params: { id: "t-1" } });
    expect(v1("POST", "/tasks/t-1:cancel", null)).toEqual({ method: "CancelTask", params: { id: "t-1" } });
    expect(v1("POST", "/acme/tasks/t-1:cancel", { id: "t-2", metadata: { why: "done" } })).toEqual({
      method: "CancelTask",
      params: { id: "t-1", tenant: "acme", metadata: { why: "done" } },
    });
    expect(v1("POST", "/tasks/t-1:cancel", [])).toEqual({ invalid: "the body must be a JSON object" });
  });

  it("CreateTaskPushNotificationConfig: the config, its task from the path (over the body's), its own id kept", () => {
    const config = { id: "c-1", url: "https://client.example/push", token: "tok", authentication: { scheme: "Bearer", credentials: "s" } };
    expect(v1("POST", "/tasks/t-1/pushNotificationConfigs", { ...config, taskId: "t-9" })).toEqual({
      method: "CreateTaskPushNotificationConfig",
      params: { ...config, taskId: "t-1" },
    });
    expect(v1("POST", "/acme/tasks/t-1/pushNotificationConfigs", { url: config.url })).toEqual({
      method: "CreateTaskPushNotificationConfig",
      params: { url: config.url, taskId: "t-1", tenant: "acme" },
    });
  });
});

describe("1.0: GET and DELETE read every other field from the query (§11.5 camelCase)", () => {
  it("GetTask: id from the path, historyLength and tenant from the query", () => {
    expect(v1("GET", "/tasks/t-1")).toEqual({ method: "GetTask", params: { id: "t-1" } });
    expect(v1("GET", "/tasks/t-1?historyLength=0")).toEqual({ method: "GetTask", params: { id: "t-1", historyLength: 0 } });
    expect(v1("GET", "/tasks/t-1?history_length=5&tenant=acme")).toEqual({
      method: "GetTask",
      params: { id: "t-1", historyLength: 5, tenant: "acme" },
    });
    expect(v1("GET", "/acme/tasks/t-1?tenant=other")).toEqual({ method: "GetTask", params: { id: "t-1", tenant: "acme" } });
  });

  it("reads the proto name as the JSON name, and ignores what the message has no field for", () => {
    expect(v1("GET", "/tasks/t-1?history_length=5&foo=bar&id=t-2")).toEqual({ method: "GetTask", params: { id: "t-1", historyLength: 5 } });
  });

  it("refuses a field given twice, by both names or twice by one (readers take the first or the last)", () => {
    for (const query of ["history_length=5&historyLength=1", "historyLength=1&historyLength=5", "history_length=1&history_length=5"])
      expect(v1("GET", `/tasks/t-1?${query}`), query).toEqual({ invalid: "query parameter historyLength is given twice" });
  });

  it("ignores a body on GET", () => {
    expect(v1("GET", "/tasks/t-1", { id: "t-2", historyLength: 3 })).toEqual({ method: "GetTask", params: { id: "t-1" } });
  });

  it.each(["", "x", "-1", "1.5", "1e3", "0x10", "1234567890", " 1"])("refuses historyLength=%j", (value) => {
    expect(v1("GET", `/tasks/t-1?historyLength=${encodeURIComponent(value)}`)).toEqual({
      invalid: "query parameter historyLength has no valid value",
    });
  });

  it("ListTasks: every field of ListTasksRequest", () => {
    const query =
      "contextId=c-1&status=TASK_STATE_WORKING&pageSize=50&pageToken=p%2B1&historyLength=3&statusTimestampAfter=2026-01-02T03:04:05Z&includeArtifacts=true";
    expect(v1("GET", `/acme/tasks?${query}`)).toEqual({
      method: "ListTasks",
      params: {
        tenant: "acme",
        contextId: "c-1",
        status: "TASK_STATE_WORKING",
        pageSize: 50,
        pageToken: "p+1",
        historyLength: 3,
        statusTimestampAfter: "2026-01-02T03:04:05Z",
        includeArtifacts: true,
      },
    });
    expect(v1("GET", "/tasks")).toEqual({ method: "ListTasks", params: {} });
    expect(v1("GET", "/tasks?include_artifacts=false&page_size=1")).toEqual({
      method: "ListTasks",
      params: { pageSize: 1, includeArtifacts: false },
    });
  });

  it.each([
    ["TASK_STATE_INPUT_REQUIRED", "TASK_STATE_INPUT_REQUIRED"],
    ["6", 6],
    ["working", "TASK_STATE_WORKING"],
    ["input-required", "TASK_STATE_INPUT_REQUIRED"],
    ["canceled", "TASK_STATE_CANCELED"],
  ])("ListTasks status=%s is %j (names, numbers, and spec §11.5's lower-case example)", (value, status) => {
    expect(v1("GET", `/tasks?status=${value}`)).toEqual({ method: "ListTasks", params: { status } });
  });

  it.each([
    ["includeArtifacts", "yes"],
    ["includeArtifacts", "TRUE"],
    ["pageSize", "ten"],
    ["historyLength", "-2"],
  ])("refuses %s=%s", (name, value) => {
    expect(v1("GET", `/tasks?${name}=${value}`)).toEqual({ invalid: `query parameter ${name} has no valid value` });
  });

  it("SubscribeToTask, by GET or POST: the task (a POST body is not read: the proto binding has none)", () => {
    expect(v1("GET", "/tasks/t-1:subscribe?tenant=acme")).toEqual({ method: "SubscribeToTask", params: { id: "t-1", tenant: "acme" } });
    expect(v1("POST", "/acme/tasks/t-1:subscribe", { id: "t-2" })).toEqual({
      method: "SubscribeToTask",
      params: { id: "t-1", tenant: "acme" },
    });
  });

  it("push configs: the task is taskId, the config id (proto GetTaskPushNotificationConfigRequest and the rest)", () => {
    expect(v1("GET", "/tasks/t-1/pushNotificationConfigs/c-1")).toEqual({
      method: "GetTaskPushNotificationConfig",
      params: { taskId: "t-1", id: "c-1" },
    });
    expect(v1("DELETE", "/acme/tasks/t-1/pushNotificationConfigs/c-1")).toEqual({
      method: "DeleteTaskPushNotificationConfig",
      params: { taskId: "t-1", id: "c-1", tenant: "acme" },
    });
    expect(v1("GET", "/tasks/t-1/pushNotificationConfigs?pageSize=10&pageToken=n&tenant=acme")).toEqual({
      method: "ListTaskPushNotificationConfigs",
      params: { taskId: "t-1", pageSize: 10, pageToken: "n", tenant: "acme" },
    });
  });

  it("GetExtendedAgentCard: nothing but a tenant", () => {
    expect(v1("GET", "/extendedAgentCard")).toEqual({ method: "GetExtendedAgentCard", params: {} });
    expect(v1("GET", "/acme/extendedAgentCard")).toEqual({ method: "GetExtendedAgentCard", params: { tenant: "acme" } });
    expect(v1("GET", "/extendedAgentCard?tenant=t&historyLength=x")).toEqual({ method: "GetExtendedAgentCard", params: { tenant: "t" } });
  });
});

describe("0.3: its proto's JSON becomes its JSON-RPC params", () => {
  const protoMessage = {
    messageId: "m-1",
    contextId: "ctx-1",
    taskId: "t-1",
    role: "ROLE_USER",
    content: [
      { text: "hi" },
      { file: { fileWithUri: "https://files.example/a.pdf", mimeType: "application/pdf" } },
      { file: { fileWithBytes: "aGVsbG8=", mimeType: "text/plain" } },
      { data: { data: { city: "Paris" } } },
    ],
    metadata: { m: 1 },
    extensions: ["https://ext.example/x"],
  };
  const message03 = {
    kind: "message",
    messageId: "m-1",
    contextId: "ctx-1",
    taskId: "t-1",
    role: "user",
    parts: [
      { kind: "text", text: "hi" },
      { kind: "file", file: { uri: "https://files.example/a.pdf", mimeType: "application/pdf" } },
      { kind: "file", file: { bytes: "aGVsbG8=", mimeType: "text/plain" } },
      { kind: "data", data: { city: "Paris" } },
    ],
    metadata: { m: 1 },
    extensions: ["https://ext.example/x"],
  };
  const push = { id: "c-1", url: "https://client.example/push", token: "tok", authentication: { schemes: ["Bearer"], credentials: "s" } };

  it.each([
    ["/v1/message:send", "message/send"],
    ["/v1/message:stream", "message/stream"],
  ])("%s: SendMessageRequest -> MessageSendParams, field by field", (path, method) => {
    const body = {
      message: protoMessage,
      configuration: { acceptedOutputModes: ["text/plain"], pushNotification: push, historyLength: "4", blocking: true },
      metadata: { trace: "t" },
    };
    expect(v03("POST", path, body)).toEqual({
      method,
      params: {
        message: message03,
        configuration: { acceptedOutputModes: ["text/plain"], pushNotificationConfig: push, historyLength: 4, blocking: true },
        metadata: { trace: "t" },
      },
    });
  });

  it("reads the proto's own field name `request` for the message, and ROLE_AGENT", () => {
    const made = v03("POST", "/v1/message:send", { request: { ...protoMessage, role: "ROLE_AGENT", content: [{ text: "x" }] } });
    expect(made).toEqual({
      method: "message/send",
      params: { message: { ...message03, role: "agent", parts: [{ kind: "text", text: "x" }] } },
    });
  });

  it("reads the 0.3 JSON-RPC forms too (the a2a-js 0.3 REST server's): parts with kind, `parts`, pushNotificationConfig", () => {
    const body = { message: { ...message03, kind: undefined }, configuration: { pushNotificationConfig: push } };
    expect(v03("POST", "/v1/message:send", body)).toEqual({
      method: "message/send",
      params: { message: message03, configuration: { pushNotificationConfig: push } },
    });
  });

  it("keeps a file's name and a part's metadata when a client sends them (0.3 JSON-RPC has both)", () => {
    const content = [
      { file: { fileWithUri: "u", mimeType: "t", name: "a.txt" }, metadata: { k: 1 } },
      { text: "t", metadata: { k: 2 } },
    ];
    const made = v03("POST", "/v1/message:send", { message: { ...protoMessage, content } });
    expect(made).toMatchObject({
      params: {
        message: {
          parts: [
            { kind: "file", file: { uri: "u", mimeType: "t", name: "a.txt" }, metadata: { k: 1 } },
            { kind: "text", text: "t", metadata: { k: 2 } },
          ],
        },
      },
    });
  });

  it("hands on a part of no form it knows (never guesses one)", () => {
    const route = routeOf("POST", "/v1/message:send", "0.3");
    const made = restToJsonRpc(route, new URLSearchParams(), { message: { ...protoMessage, content: [{ video: "v" }, 3] } });
    expect(made).toMatchObject({ params: { message: { parts: [{ video: "v" }, 3] } } });
  });

  it("drops what 0.3 has no field for, and refuses a body that is not an object", () => {
    const made = v03("POST", "/v1/message:send", {
      message: { ...protoMessage, unknown: 1 },
      tenant: "acme",
      configuration: { returnImmediately: true },
    });
    expect(made).toEqual({ method: "message/send", params: { message: message03, configuration: {} } });
    expect(v03("POST", "/v1/message:send", [protoMessage])).toEqual({ invalid: "the body must be a JSON object" });
    expect(v03("POST", "/v1/message:stream")).toEqual({ invalid: "the body must be a JSON object" });
  });

  it("tasks/get: the task, historyLength from the query (its proto name too)", () => {
    expect(v03("GET", "/v1/tasks/t-1")).toEqual({ method: "tasks/get", params: { id: "t-1" } });
    expect(v03("GET", "/v1/tasks/t-1?historyLength=2")).toEqual({ method: "tasks/get", params: { id: "t-1", historyLength: 2 } });
    expect(v03("GET", "/v1/tasks/t-1?history_length=0")).toEqual({ method: "tasks/get", params: { id: "t-1", historyLength: 0 } });
    expect(v03("GET", "/v1/tasks/t-1?historyLength=two")).toEqual({ invalid: "query parameter historyLength has no valid value" });
  });

  it("tasks/cancel and tasks/resubscribe: the task (a body is not read: spec v0.3.0 'Request Body: (Empty)')", () => {
    expect(v03("POST", "/v1/tasks/t-1:cancel", { metadata: { a: 1 } })).toEqual({ method: "tasks/cancel", params: { id: "t-1" } });
    expect(v03("GET", "/v1/tasks/t-1:subscribe")).toEqual({ method: "tasks/resubscribe", params: { id: "t-1" } });
    expect(v03("POST", "/v1/tasks/t-1:subscribe")).toEqual({ method: "tasks/resubscribe", params: { id: "t-1" } });
  });

  it("set: the proto's TaskPushNotificationConfig (or the JSON-RPC form), its task from the path, never another in the body", () => {
    const params = { taskId: "t-1", pushNotificationConfig: push };
    const set = "tasks/pushNotificationConfig/set";
    expect(
      v03("POST", "/v1/tasks/t-1/pushNotificationConfigs", { name: "tasks/t-1/pushNotificationConfigs/c-1", pushNotificationConfig: push }),
    ).toEqual({ method: set, params });
    expect(v03("POST", "/v1/tasks/t-1/pushNotificationConfigs", { pushNotificationConfig: { ...push, extra: 1 } })).toEqual({
      method: set,
      params,
    });
    // Two tasks in one call (an origin may read the body's): refused, as any field named twice.
    for (const body of [
      { name: "tasks/t-9/pushNotificationConfigs/c-1", pushNotificationConfig: push },
      { taskId: "t-9", pushNotificationConfig: push },
    ])
      expect(v03("POST", "/v1/tasks/t-1/pushNotificationConfigs", body)).toEqual({ invalid: "the body names another task than the path" });
    expect(v03("POST", "/v1/tasks/t-1/pushNotificationConfigs", "x")).toEqual({ invalid: "the body must be a JSON object" });
  });

  it("get, list, delete: the task as `id`, the config as `pushNotificationConfigId`", () => {
    const ids = { id: "t-1", pushNotificationConfigId: "c-1" };
    expect(v03("GET", "/v1/tasks/t-1/pushNotificationConfigs/c-1")).toEqual({ method: "tasks/pushNotificationConfig/get", params: ids });
    expect(v03("DELETE", "/v1/tasks/t-1/pushNotificationConfigs/c-1")).toEqual({
      method: "tasks/pushNotificationConfig/delete",
      params: ids,
    });
    expect(v03("GET", "/v1/tasks/t-1/pushNotificationConfigs")).toEqual({
      method: "tasks/pushNotificationConfig/list",
      params: { id: "t-1" },
    });
  });

  it("the extended card: agent/getAuthenticatedExtendedCard, which takes no params", () => {
    expect(v03("GET", "/v1/card?x=1")).toEqual({ method: "agent/getAuthenticatedExtendedCard" });
  });
});

it("refuses an operation the route's version has no method for (a route built by hand: no 0.3 route names ListTasks)", () => {
  expect(restToJsonRpc({ operation: "listTasks", version: "0.3", pathParams: {} }, new URLSearchParams(), undefined)).toEqual({
    invalid: "listTasks has no A2A 0.3 method",
  });
});
