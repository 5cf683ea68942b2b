// The other way (src/rest/rest-origin.ts), for an origin that speaks REST:
// held to @a2a-js/sdk 1.3 (its REST clients' requests are what a JSON-RPC call
// must become; its REST server's answers must become the answers its JSON-RPC
// server gave), and to the forward mappers (a REST request there and back,
// every route of both versions, tenants too). REST errors as JSON-RPC errors.
import { describe, expect, it } from "vitest";
import { isJsonObject } from "../../src/json";
import {
  jsonRpcToRest,
  jsonRpcToRestResponse,
  matchRestRoute,
  type RestRequest,
  type RestVersion,
  restEventToJsonRpc,
  restResponseToJsonRpc,
  restToJsonRpc,
} from "../../src/rest";
import { asTheBridgeAnswers } from "../support/bridge-fixture";
import {
  asTheSdkClientSends,
  extraSteps,
  jsonRpcSteps,
  type RestExchange,
  scenario,
  VERSION,
  withoutDefaults,
} from "../support/rest-fixture";

const GENERATIONS = ["v03", "v1"] as const;

/** What 0.3's proto has no field for, so its REST answers lack it: a file's `name`, a part's `metadata`, a message's `referenceTaskIds`. */
function asTheV03ProtoCarries(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value), (key, item) => {
    if (key === "file" && isJsonObject(item)) return { ...item, name: undefined };
    if (isJsonObject(item) && ["text", "file", "data"].includes(String(item.kind))) return { ...item, metadata: undefined };
    return key === "referenceTaskIds" ? undefined : item;
  });
}

/** A REST request as the fixture writes it. */
const asRecorded = (request: RestRequest | { invalid: string } | undefined) =>
  request &&
  !("invalid" in request) && {
    method: request.method,
    path: request.path,
    query: request.query,
    ...(request.body === undefined ? {} : { body: request.body }),
  };

const steps = [
  ...scenario.map((step, index) => ({ name: step.name, v03: step.v03, v1: step.v1, jsonRpc: jsonRpcSteps[index] })),
  ...extraSteps.map((step) => ({ name: step.name, v03: step.v03, v1: step.v1, jsonRpc: undefined })),
];

function jsonRpcOf(step: (typeof steps)[number], generation: "v03" | "v1", rest: RestExchange) {
  const call = step.jsonRpc?.request[generation] ?? rest.jsonrpc?.request;
  const answer = step.jsonRpc?.response[generation] ?? rest.jsonrpc?.response;
  if (!call) throw new Error(`no JSON-RPC call for ${step.name}`);
  return {
    call,
    answer,
    id: isJsonObject(answer) ? answer.id : Array.isArray(answer) && isJsonObject(answer[0]) ? answer[0].id : undefined,
  };
}

describe.each(steps)("$name, against the SDK", (step) => {
  it.each(GENERATIONS)("%s: the JSON-RPC call becomes the request the SDK's REST client sends", (generation) => {
    const rest = step[generation];
    if (!rest) return expect(step.name).toMatch(/list the tasks/); // 0.3 has no ListTasks
    const { call } = jsonRpcOf(step, generation, rest);
    const request = asRecorded(jsonRpcToRest(asTheSdkClientSends(generation, call) as typeof call, VERSION[generation]));
    // Subscribe: the proto binds GET; the SDK's 1.0 client POSTs (spec §11.3), and both are routes (rest-routes.test.ts).
    const method = step.name.startsWith("resubscribe") && generation === "v1" ? "GET" : rest.request.method;
    // Transcoding puts a field the path binds in the path only; the SDK's 1.0 client repeats the config's taskId in the body.
    const body = isJsonObject(rest.request.body) && generation === "v1" ? { ...rest.request.body, taskId: undefined } : rest.request.body;
    expect(request).toEqual({ ...rest.request, method, body });
  });

  it.each(GENERATIONS)("%s: the SDK REST server's answer becomes its JSON-RPC server's", (generation) => {
    const rest = step[generation];
    if (!rest) return;
    const { call, answer, id } = jsonRpcOf(step, generation, rest);
    const route = matchRestRoute(rest.request.method, rest.request.path, VERSION[generation]);
    if (!("operation" in route)) throw new Error("no route");
    const version = VERSION[generation];
    const { status, body, events } = rest.response;
    const translated = events
      ? events.map(({ event, data }) => restEventToJsonRpc(version, event, data, id))
      : restResponseToJsonRpc(route.operation, version, status, body, id);
    const expected = asTheBridgeAnswers(answer, version, call.method);
    expect(withoutDefaults(translated)).toEqual(withoutDefaults(generation === "v03" ? asTheV03ProtoCarries(expected) : expected));
  });
});

describe("there and back: every route of both versions", () => {
  const push = { id: "c-1", url: "https://client.example/push", token: "tok" };
  const REQUESTS: [RestVersion, string, string, unknown?][] = [
    ["1.0", "POST", "/message:send", { message: { messageId: "m", role: "ROLE_USER", parts: [{ text: "hi" }] }, metadata: { a: 1 } }],
    ["1.0", "POST", "/acme/message:stream", { message: { messageId: "m", role: "ROLE_USER", parts: [{ text: "hi" }] } }],
    ["1.0", "GET", "/tasks/t%3A1?historyLength=2"],
    ["1.0", "GET", "/acme%20co/tasks?contextId=c&status=TASK_STATE_WORKING&pageSize=5&pageToken=p&historyLength=0&includeArtifacts=false"],
    ["1.0", "POST", "/tasks/t-1:cancel"],
    ["1.0", "POST", "/acme/tasks/t-1:cancel", { metadata: { why: "x" } }],
    ["1.0", "GET", "/acme/tasks/t-1:subscribe"],
    ["1.0", "POST", "/tasks/t-1/pushNotificationConfigs", push],
    ["1.0", "GET", "/tasks/t-1/pushNotificationConfigs?pageSize=2&pageToken=n"],
    ["1.0", "GET", "/acme/tasks/t-1/pushNotificationConfigs/c-1"],
    ["1.0", "DELETE", "/tasks/t-1/pushNotificationConfigs/c-1"],
    ["1.0", "GET", "/extendedAgentCard"],
    ["1.0", "GET", "/acme/extendedAgentCard"],
    [
      "0.3",
      "POST",
      "/v1/message:send",
      { message: { messageId: "m", role: "ROLE_USER", content: [{ text: "hi" }] }, configuration: { blocking: true } },
    ],
    ["0.3", "POST", "/v1/message:stream", { message: { messageId: "m", role: "ROLE_AGENT", content: [{ data: { data: { a: 1 } } }] } }],
    ["0.3", "GET", "/v1/tasks/t-1?historyLength=3"],
    ["0.3", "POST", "/v1/tasks/t-x:cancel"],
    ["0.3", "GET", "/v1/tasks/t-1:subscribe"],
    [
      "0.3",
      "POST",
      "/v1/tasks/t-1/pushNotificationConfigs",
      { name: "tasks/t-1/pushNotificationConfigs/c-1", pushNotificationConfig: push },
    ],
    ["0.3", "GET", "/v1/tasks/t-1/pushNotificationConfigs"],
    ["0.3", "GET", "/v1/tasks/t-1/pushNotificationConfigs/c-1"],
    ["0.3", "DELETE", "/v1/tasks/t-1/pushNotificationConfigs/c-1"],
    ["0.3", "GET", "/v1/card"],
  ];

  it.each(REQUESTS)("%s %s %s", (version, method, target, body) => {
    const [path = "", query = ""] = target.split("?");
    const route = matchRestRoute(method, path, version);
    if (!("operation" in route)) throw new Error("no route");
    const call = restToJsonRpc(route, new URLSearchParams(query), body);
    if (!("method" in call)) throw new Error(call.invalid);
    expect(jsonRpcToRest(call, version)).toEqual({ method, path, query: query && `?${query}`, ...(body === undefined ? {} : { body }) });
  });

  it("covers every route of both versions", () => {
    const operations = (version: RestVersion) =>
      new Set(
        REQUESTS.filter(([v]) => v === version).map(([, method, target]) => {
          const route = matchRestRoute(method, target.split("?")[0] ?? "", version);
          return "operation" in route ? route.operation : undefined;
        }),
      );
    expect(operations("1.0").size).toBe(11);
    expect(operations("0.3").size).toBe(10);
  });

  it("a JSON-RPC answer there and back (1.0 as it came; 0.3 through its proto)", () => {
    const task = {
      kind: "task",
      id: "t",
      contextId: "c",
      status: { state: "canceled", timestamp: "2026-01-02T03:04:05.000Z" },
      history: [],
    };
    const rest = jsonRpcToRestResponse("getTask", "0.3", { jsonrpc: "2.0", id: 3, result: task });
    expect(restResponseToJsonRpc("getTask", "0.3", rest.status, rest.body, 3)).toEqual({
      jsonrpc: "2.0",
      id: 3,
      result: { ...task, history: [] },
    });
    const list = [{ taskId: "t", pushNotificationConfig: { id: "c", url: "u" } }];
    const listed = jsonRpcToRestResponse("listPushNotificationConfigs", "0.3", { result: list });
    expect(restResponseToJsonRpc("listPushNotificationConfigs", "0.3", listed.status, listed.body, 1).result).toEqual(list);
    expect(restResponseToJsonRpc("listPushNotificationConfigs", "0.3", 200, {}, 1).result).toEqual([]);
    expect(restResponseToJsonRpc("deletePushNotificationConfig", "0.3", 204, undefined, 1).result).toBeNull();
    expect(restResponseToJsonRpc("deletePushNotificationConfig", "1.0", 204, undefined, 1).result).toEqual({});
    const update = { kind: "status-update", taskId: "t", contextId: "c", status: { state: "working" }, final: false };
    expect(
      restEventToJsonRpc("0.3", undefined, { statusUpdate: { taskId: "t", contextId: "c", status: { state: "TASK_STATE_WORKING" } } }, 1),
    ).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: update,
    });
  });
});

describe("REST errors as JSON-RPC errors", () => {
  const status = (code: number, name: string, reason?: string, message = "why") => ({
    error: {
      code,
      status: name,
      message,
      details: reason ? [{ "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason, domain: "a2a-protocol.org" }] : [],
    },
  });

  it.each([
    [404, "TASK_NOT_FOUND", -32001],
    [400, "TASK_NOT_CANCELABLE", -32002],
    [400, "PUSH_NOTIFICATION_NOT_SUPPORTED", -32003],
    [400, "UNSUPPORTED_OPERATION", -32004],
    [400, "CONTENT_TYPE_NOT_SUPPORTED", -32005],
    [500, "INVALID_AGENT_RESPONSE", -32006],
    [400, "EXTENDED_AGENT_CARD_NOT_CONFIGURED", -32007],
    [400, "EXTENSION_SUPPORT_REQUIRED", -32008],
    [400, "VERSION_NOT_SUPPORTED", -32009],
  ])("1.0 %i %s is %i, its details the data", (httpStatus, reason, code) => {
    const body = status(httpStatus, "X", reason);
    expect(restResponseToJsonRpc("getTask", "1.0", httpStatus, body, 9)).toEqual({
      jsonrpc: "2.0",
      id: 9,
      error: { code, message: "why", data: body.error.details },
    });
    // And back: the same REST error.
    const back = jsonRpcToRestResponse("getTask", "1.0", restResponseToJsonRpc("getTask", "1.0", httpStatus, body, 9));
    expect(back).toMatchObject({ status: httpStatus, body: { error: { message: "why", details: body.error.details } } });
  });

  it.each([
    [400, -32602],
    [404, -32601],
    [501, -32601],
    [500, -32603],
    [503, -32603],
    [401, -32603],
  ])("1.0 %i without an A2A reason is %i", (httpStatus, code) => {
    expect(restResponseToJsonRpc("getTask", "1.0", httpStatus, status(httpStatus, "X"), 1).error).toEqual({ code, message: "why" });
    expect(restResponseToJsonRpc("getTask", "1.0", httpStatus, "<html>", 1).error).toEqual({ code, message: `HTTP ${httpStatus}` });
  });

  it("an ErrorInfo of another domain names no A2A error", () => {
    const body = {
      error: {
        message: "m",
        details: [{ "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "TASK_NOT_FOUND", domain: "x.example" }],
      },
    };
    expect(restResponseToJsonRpc("getTask", "1.0", 404, body, 1).error).toEqual({ code: -32601, message: "m", data: body.error.details });
  });

  it("0.3: the body is the JSON-RPC error; else by status", () => {
    const error = { code: -32001, message: "gone", data: { id: "t" } };
    expect(restResponseToJsonRpc("getTask", "0.3", 404, error, 1)).toEqual({ jsonrpc: "2.0", id: 1, error });
    expect(restResponseToJsonRpc("getTask", "0.3", 400, "bad", 1).error).toEqual({ code: -32602, message: "HTTP 400" });
    expect(restResponseToJsonRpc("getTask", "0.3", 400, status(400, "X", "TASK_NOT_CANCELABLE"), 1).error).toEqual({
      code: -32002,
      message: "why",
    });
  });

  it("SSE error events", () => {
    expect(restEventToJsonRpc("1.0", "error", status(404, "NOT_FOUND", "TASK_NOT_FOUND"), 2).error).toMatchObject({
      code: -32001,
      message: "why",
    });
    expect(restEventToJsonRpc("0.3", "error", { code: -32004, message: "no" }, 2).error).toEqual({ code: -32004, message: "no" });
    expect(restEventToJsonRpc("1.0", "error", "?", 2).error).toEqual({ code: -32603, message: "HTTP 500" });
  });
});

describe("calls a REST origin cannot take", () => {
  it.each([
    ["ListTasks", {}, "0.3"],
    ["tasks/list", {}, "0.3"],
    ["x/custom", {}, "1.0"],
    ["message/send", {}, "1.0"],
  ] as const)("%s %j in %s: no route (the caller answers -32601)", (method, params, version) => {
    expect(jsonRpcToRest({ method, params }, version)).toBeUndefined();
  });

  // An operation the version routes, without an id its path needs: invalid params (-32602), as the origin answers.
  it.each([
    ["GetTask", {}, "1.0", "id is required"],
    ["GetTask", { id: "" }, "1.0", "id is required"],
    ["GetTask", { id: 3 }, "1.0", "id is required"],
    ["CancelTask", {}, "1.0", "id is required"],
    ["GetTaskPushNotificationConfig", { id: "c1" }, "1.0", "taskId is required"],
    ["GetTaskPushNotificationConfig", { taskId: "t" }, "1.0", "id is required"],
    ["DeleteTaskPushNotificationConfig", { id: "c1" }, "1.0", "taskId is required"],
    ["ListTaskPushNotificationConfigs", {}, "1.0", "taskId is required"],
    ["tasks/pushNotificationConfig/get", { id: "t" }, "0.3", "id is required"],
    ["tasks/get", "t-1", "0.3", "id is required"],
    ["tasks/cancel", {}, "0.3", "id is required"],
  ] as const)("%s %j in %s: missing an id (the caller answers -32602: %s)", (method, params, version, invalid) => {
    expect(jsonRpcToRest({ method, params }, version)).toEqual({ invalid });
  });

  it("an empty tenant is no tenant (the proto default), and objects never go in a query", () => {
    expect(jsonRpcToRest({ method: "GetTask", params: { tenant: "", id: "t", historyLength: 1, metadata: { a: 1 } } }, "1.0")).toEqual({
      method: "GET",
      path: "/tasks/t",
      query: "?historyLength=1",
    });
  });
});
