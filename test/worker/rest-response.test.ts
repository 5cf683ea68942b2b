// JSON-RPC answers as REST answers (src/rest/rest-response.ts, proto-v03.ts):
// status and body of every operation in both versions, every error code
// (spec §5.4's table, src/a2a/v1.ts A2A_ERRORS, JSON-RPC's own codes), and the
// SSE events of a stream. 1.0 bodies are checked against the official schema;
// 0.3 bodies field by field against its proto's JSON (the forms @a2a-js/sdk
// 1.3 reads; test/worker/rest-sdk.test.ts holds them to what it sends).
import { describe, expect, it } from "vitest";
import { A2A_ERRORS } from "../../src/a2a/v1";
import { jsonRpcEventToRestEvent, jsonRpcToRestResponse, type RestResponse, restError } from "../../src/rest";
import { schemaErrors } from "../support/schemas";

const ok = (result: unknown) => ({ jsonrpc: "2.0", id: 1, result });
const failed = (error: unknown) => ({ jsonrpc: "2.0", id: 1, error });
const ERROR_INFO = "type.googleapis.com/google.rpc.ErrorInfo";
const info = (reason: string) => ({ "@type": ERROR_INFO, reason, domain: "a2a-protocol.org" });

const AT = "2026-01-02T03:04:05.000Z";
const text1 = { messageId: "m-1", contextId: "c-1", taskId: "t-1", role: "ROLE_AGENT", parts: [{ text: "done" }] };
const task1 = { id: "t-1", contextId: "c-1", status: { state: "TASK_STATE_COMPLETED", message: text1, timestamp: AT }, metadata: { a: 1 } };
const push1 = { id: "c-1", taskId: "t-1", url: "https://client.example/push", token: "tok", authentication: { scheme: "Bearer" } };

describe("1.0: the result is the REST body (spec §11.4: the proto message's JSON)", () => {
  it.each([
    ["sendMessage", { task: task1 }, 200, "SendMessageResponse"],
    ["sendMessage", { message: text1 }, 200, "SendMessageResponse"],
    ["getTask", task1, 200, "Task"],
    ["cancelTask", task1, 200, "Task"],
    ["listTasks", { tasks: [task1], nextPageToken: "", pageSize: 50, totalSize: 1 }, 200, "ListTasksResponse"],
    ["createPushNotificationConfig", push1, 201, "TaskPushNotificationConfig"],
    ["getPushNotificationConfig", push1, 200, "TaskPushNotificationConfig"],
    ["listPushNotificationConfigs", { configs: [push1] }, 200, "ListTaskPushNotificationConfigsResponse"],
  ] as const)("%s %j -> %i, a %s", (operation, result, status, definition) => {
    const response = jsonRpcToRestResponse(operation, "1.0", ok(result));
    expect(response).toEqual({ status, body: result });
    expect(schemaErrors.v1(definition)(response.body)).toEqual([]);
  });

  it("the extended card as it came (the edge rebuilds cards, src/card/)", () => {
    const card = { name: "A", supportedInterfaces: [], anything: 1 };
    expect(jsonRpcToRestResponse("getExtendedAgentCard", "1.0", ok(card))).toEqual({ status: 200, body: card });
  });

  it("a deleted push config is 204 without a body (google.protobuf.Empty, as the SDK server answers)", () => {
    expect(jsonRpcToRestResponse("deletePushNotificationConfig", "1.0", ok({}))).toEqual({ status: 204 });
    expect(jsonRpcToRestResponse("deletePushNotificationConfig", "1.0", ok(null))).toEqual({ status: 204 });
  });
});

describe("0.3: the result in its proto's JSON", () => {
  const message03 = {
    kind: "message",
    messageId: "m-1",
    contextId: "c-1",
    taskId: "t-1",
    role: "agent",
    parts: [
      { kind: "text", text: "done", metadata: { dropped: true } },
      { kind: "file", file: { uri: "https://f.example/a.pdf", mimeType: "application/pdf", name: "a.pdf" } },
      { kind: "file", file: { bytes: "aGk=", uri: "https://f.example/b", mimeType: "text/plain" } },
      { kind: "data", data: { total: 2 } },
    ],
    metadata: { m: 1 },
    extensions: ["https://ext.example/x"],
    referenceTaskIds: ["t-0"],
  };
  const messageProto = {
    messageId: "m-1",
    contextId: "c-1",
    taskId: "t-1",
    role: "ROLE_AGENT",
    content: [
      { text: "done" },
      { file: { fileWithUri: "https://f.example/a.pdf", mimeType: "application/pdf" } },
      { file: { fileWithBytes: "aGk=", mimeType: "text/plain" } },
      { data: { data: { total: 2 } } },
    ],
    metadata: { m: 1 },
    extensions: ["https://ext.example/x"],
  };
  const artifact03 = { artifactId: "a-1", name: "r", description: "d", parts: message03.parts, metadata: { x: 1 }, extensions: ["e"] };
  const artifactProto = {
    artifactId: "a-1",
    name: "r",
    description: "d",
    parts: messageProto.content,
    metadata: { x: 1 },
    extensions: ["e"],
  };
  const task03 = {
    kind: "task",
    id: "t-1",
    contextId: "c-1",
    status: { state: "completed", message: message03, timestamp: AT },
    artifacts: [artifact03],
    history: [message03],
    metadata: { a: 1 },
  };
  const taskProto = {
    id: "t-1",
    contextId: "c-1",
    status: { state: "TASK_STATE_COMPLETED", message: messageProto, timestamp: AT },
    artifacts: [artifactProto],
    history: [messageProto],
    metadata: { a: 1 },
  };

  it("message/send: SendMessageResponse `{task}` or `{message}`, 201 as the SDK's 0.3 REST server answers", () => {
    expect(jsonRpcToRestResponse("sendMessage", "0.3", ok(task03))).toEqual({ status: 201, body: { task: taskProto } });
    expect(jsonRpcToRestResponse("sendMessage", "0.3", ok(message03))).toEqual({ status: 201, body: { message: messageProto } });
  });

  it("tasks/get and tasks/cancel: the Task, no `kind`, 200", () => {
    expect(jsonRpcToRestResponse("getTask", "0.3", ok(task03))).toEqual({ status: 200, body: taskProto });
    expect(jsonRpcToRestResponse("cancelTask", "0.3", ok(task03))).toEqual({ status: 200, body: taskProto });
  });

  it.each([
    ["unknown", "TASK_STATE_UNSPECIFIED"],
    ["submitted", "TASK_STATE_SUBMITTED"],
    ["working", "TASK_STATE_WORKING"],
    ["completed", "TASK_STATE_COMPLETED"],
    ["failed", "TASK_STATE_FAILED"],
    ["canceled", "TASK_STATE_CANCELLED"],
    ["input-required", "TASK_STATE_INPUT_REQUIRED"],
    ["rejected", "TASK_STATE_REJECTED"],
    ["auth-required", "TASK_STATE_AUTH_REQUIRED"],
  ])("state %s is %s (0.3's proto spells CANCELLED)", (state, proto) => {
    const body = jsonRpcToRestResponse("getTask", "0.3", ok({ kind: "task", id: "t", contextId: "c", status: { state } })).body;
    expect(body).toEqual({ id: "t", contextId: "c", status: { state: proto } });
  });

  it("roles: user is ROLE_USER; a role 0.3 lacks passes as it came", () => {
    const send = (role: string) =>
      jsonRpcToRestResponse("sendMessage", "0.3", ok({ kind: "message", messageId: "m", role, parts: [] })).body;
    expect(send("user")).toEqual({ message: { messageId: "m", role: "ROLE_USER", content: [] } });
    expect(send("robot")).toEqual({ message: { messageId: "m", role: "robot", content: [] } });
  });

  it("push configs: `{name: tasks/{t}/pushNotificationConfigs/{c}, pushNotificationConfig}`; set is 201", () => {
    const config = {
      id: "c-1",
      url: "https://client.example/push",
      token: "tok",
      authentication: { schemes: ["Bearer"], credentials: "s" },
    };
    const proto = { name: "tasks/t-1/pushNotificationConfigs/c-1", pushNotificationConfig: config };
    const result = { taskId: "t-1", pushNotificationConfig: config };
    expect(jsonRpcToRestResponse("createPushNotificationConfig", "0.3", ok(result))).toEqual({ status: 201, body: proto });
    expect(jsonRpcToRestResponse("getPushNotificationConfig", "0.3", ok(result))).toEqual({ status: 200, body: proto });
    expect(jsonRpcToRestResponse("listPushNotificationConfigs", "0.3", ok([result, result]))).toEqual({
      status: 200,
      body: { configs: [proto, proto] },
    });
    expect(jsonRpcToRestResponse("listPushNotificationConfigs", "0.3", ok([]))).toEqual({ status: 200, body: { configs: [] } });
    const noId = jsonRpcToRestResponse("getPushNotificationConfig", "0.3", ok({ taskId: "t-1", pushNotificationConfig: { url: "u" } }));
    expect(noId.body).toEqual({ name: "tasks/t-1/pushNotificationConfigs/", pushNotificationConfig: { url: "u" } });
  });

  it("delete: 204 without a body (0.3 answers null)", () => {
    expect(jsonRpcToRestResponse("deletePushNotificationConfig", "0.3", ok(null))).toEqual({ status: 204 });
  });

  it("the extended card with its proto's security forms (the same wrappers as 1.0's), everything else as it came", () => {
    const card = {
      name: "A",
      url: "https://a.example/",
      protocolVersion: "0.3.0",
      securitySchemes: {
        key: { type: "apiKey", in: "header", name: "X-Key", description: "k" },
        bearer: { type: "http", scheme: "Bearer", bearerFormat: "JWT" },
        oauth: { type: "oauth2", flows: { clientCredentials: { tokenUrl: "https://t.example", scopes: { read: "r" } } } },
        oidc: { type: "openIdConnect", openIdConnectUrl: "https://o.example/.well-known/openid-configuration" },
        mtls: { type: "mutualTLS" },
      },
      security: [{ key: [], oauth: ["read"] }],
      skills: [
        { id: "s", name: "S", description: "d", tags: [], security: [{ bearer: [] }] },
        { id: "t", name: "T", description: "d", tags: [] },
      ],
    };
    expect(jsonRpcToRestResponse("getExtendedAgentCard", "0.3", ok(card))).toEqual({
      status: 200,
      body: {
        name: "A",
        url: "https://a.example/",
        protocolVersion: "0.3.0",
        securitySchemes: {
          key: { apiKeySecurityScheme: { location: "header", name: "X-Key", description: "k" } },
          bearer: { httpAuthSecurityScheme: { scheme: "Bearer", bearerFormat: "JWT" } },
          oauth: { oauth2SecurityScheme: { flows: { clientCredentials: { tokenUrl: "https://t.example", scopes: { read: "r" } } } } },
          oidc: { openIdConnectSecurityScheme: { openIdConnectUrl: "https://o.example/.well-known/openid-configuration" } },
          mtls: { mtlsSecurityScheme: {} },
        },
        security: [{ schemes: { key: {}, oauth: { list: ["read"] } } }],
        skills: [
          { id: "s", name: "S", description: "d", tags: [], security: [{ schemes: { bearer: {} } }] },
          { id: "t", name: "T", description: "d", tags: [] },
        ],
      },
    });
  });

  it("hands on what is not the shape it expects, never throws", () => {
    for (const operation of [
      "sendMessage",
      "getTask",
      "getPushNotificationConfig",
      "listPushNotificationConfigs",
      "getExtendedAgentCard",
    ] as const) {
      for (const result of [null, 3, "x", [1], { kind: "other" }])
        expect(() => jsonRpcToRestResponse(operation, "0.3", ok(result))).not.toThrow();
    }
    // A result of no known kind is the origin's InvalidAgentResponseError, never passed on half-translated.
    expect(jsonRpcToRestResponse("sendMessage", "0.3", ok({ kind: "other", a: 1 }))).toMatchObject({ status: 500, body: { code: -32006 } });
    expect(jsonRpcToRestResponse("getExtendedAgentCard", "0.3", ok({ securitySchemes: { x: 1 }, security: [1] })).body).toEqual({
      securitySchemes: { x: 1 },
      security: [1],
    });
  });
});

describe("errors: HTTP status and body (1.0 google.rpc.Status, spec §11.6; 0.3 the JSON-RPC error, as the SDK answers)", () => {
  /** Spec §5.4 and, for JSON-RPC's own codes, google/rpc/code.proto's HTTP mapping. */
  const TABLE: [number, number, string, string | undefined][] = [
    [-32001, 404, "NOT_FOUND", "TASK_NOT_FOUND"],
    [-32002, 400, "FAILED_PRECONDITION", "TASK_NOT_CANCELABLE"],
    [-32003, 400, "FAILED_PRECONDITION", "PUSH_NOTIFICATION_NOT_SUPPORTED"],
    [-32004, 400, "FAILED_PRECONDITION", "UNSUPPORTED_OPERATION"],
    [-32005, 400, "INVALID_ARGUMENT", "CONTENT_TYPE_NOT_SUPPORTED"],
    [-32006, 500, "INTERNAL", "INVALID_AGENT_RESPONSE"],
    [-32007, 400, "FAILED_PRECONDITION", "EXTENDED_AGENT_CARD_NOT_CONFIGURED"],
    [-32008, 400, "FAILED_PRECONDITION", "EXTENSION_SUPPORT_REQUIRED"],
    [-32009, 400, "FAILED_PRECONDITION", "VERSION_NOT_SUPPORTED"],
    [-32700, 400, "INVALID_ARGUMENT", undefined],
    [-32600, 400, "INVALID_ARGUMENT", undefined],
    [-32601, 501, "UNIMPLEMENTED", undefined],
    [-32602, 400, "INVALID_ARGUMENT", undefined],
    [-32603, 500, "INTERNAL", undefined],
    [-32000, 500, "UNKNOWN", undefined],
    [-32010, 500, "UNKNOWN", undefined],
    [-31999, 500, "UNKNOWN", undefined],
    [1, 500, "UNKNOWN", undefined],
  ];

  it("agrees with src/a2a/v1.ts A2A_ERRORS on every A2A error", () => {
    for (const { code, httpStatus, grpcStatus, reason } of Object.values(A2A_ERRORS)) {
      expect(TABLE.find(([c]) => c === code)).toEqual([code, httpStatus, grpcStatus, reason]);
    }
  });

  it.each(TABLE)("%i: %i %s, ErrorInfo %s", (code, status, name, reason) => {
    const response = jsonRpcToRestResponse("getTask", "1.0", failed({ code, message: "why" }));
    expect(response).toEqual({
      status,
      body: { error: { code: status, status: name, message: "why", details: reason ? [info(reason)] : [] } },
    });
    const error03 = { code, message: "why", data: { any: "thing" } };
    expect(jsonRpcToRestResponse("getTask", "0.3", failed(error03))).toEqual({ status, body: error03 });
  });

  it("1.0 details: the error's data (a list of Any) as it came, its ErrorInfo not repeated", () => {
    const data = [{ ...info("TASK_NOT_FOUND"), metadata: { taskId: "t-1" } }, { "@type": "type.googleapis.com/google.rpc.BadRequest" }];
    expect(restError("1.0", { code: -32001, message: "m", data }).body).toEqual({
      error: { code: 404, status: "NOT_FOUND", message: "m", details: data },
    });
  });

  it("1.0 details: other data rides as a google.protobuf.Value (bridge/error-data.ts), after the ErrorInfo", () => {
    const details = [info("TASK_NOT_CANCELABLE"), { "@type": "type.googleapis.com/google.protobuf.Value", value: { state: "completed" } }];
    expect(restError("1.0", { code: -32002, message: "m", data: { state: "completed" } }).body).toEqual({
      error: { code: 400, status: "FAILED_PRECONDITION", message: "m", details },
    });
    const list = [{ "@type": "x.Y" }];
    expect(restError("1.0", { code: -32009, message: "m", data: list }).body).toMatchObject({
      error: { details: [info("VERSION_NOT_SUPPORTED"), ...list] },
    });
  });

  it("an error that is not an object, or has no usable code or message", () => {
    expect(restError("1.0", "boom")).toEqual({ status: 500, body: { error: { code: 500, status: "UNKNOWN", message: "", details: [] } } });
    expect(restError("1.0", { code: "-32001", message: 3 })).toEqual({
      status: 500,
      body: { error: { code: 500, status: "UNKNOWN", message: "", details: [] } },
    });
    expect(restError("0.3", "boom")).toEqual({ status: 500, body: { code: -32603, message: "Internal error" } });
  });

  it("a reply with neither result nor error is InvalidAgentResponseError", () => {
    for (const reply of [{ jsonrpc: "2.0", id: 1 }, null, [], "x"]) {
      expect(jsonRpcToRestResponse("getTask", "1.0", reply)).toEqual({
        status: 500,
        body: { error: { code: 500, status: "INTERNAL", message: "Invalid agent response", details: [info("INVALID_AGENT_RESPONSE")] } },
      });
      expect(jsonRpcToRestResponse("getTask", "0.3", reply)).toEqual({
        status: 500,
        body: { code: -32006, message: "Invalid agent response" },
      });
    }
  });

  it("an error wins over a result beside it", () => {
    const reply: RestResponse = jsonRpcToRestResponse("getTask", "0.3", { result: {}, error: { code: -32001, message: "m" } });
    expect(reply).toEqual({ status: 404, body: { code: -32001, message: "m" } });
  });
});

describe("SSE: each event of a stream (spec §11.7: the StreamResponse itself, no envelope)", () => {
  const status1 = { statusUpdate: { taskId: "t-1", contextId: "c-1", status: { state: "TASK_STATE_WORKING", timestamp: AT } } };

  it("1.0: `data:` with the StreamResponse as it came", () => {
    for (const event of [{ task: task1 }, { message: text1 }, status1]) {
      const lines = jsonRpcEventToRestEvent("1.0", ok(event));
      expect(lines).toBe(`data: ${JSON.stringify(event)}`);
      expect(schemaErrors.v1("StreamResponse")(JSON.parse(String(lines).slice(6)))).toEqual([]);
    }
  });

  it("0.3: `data:` with its proto's StreamResponse, `final` kept", () => {
    const statusUpdate = {
      kind: "status-update",
      taskId: "t-1",
      contextId: "c-1",
      status: { state: "input-required" },
      final: true,
      metadata: { a: 1 },
    };
    expect(jsonRpcEventToRestEvent("0.3", ok(statusUpdate))).toBe(
      `data: ${JSON.stringify({ statusUpdate: { taskId: "t-1", contextId: "c-1", status: { state: "TASK_STATE_INPUT_REQUIRED" }, final: true, metadata: { a: 1 } } })}`,
    );
    const artifactUpdate = {
      kind: "artifact-update",
      taskId: "t-1",
      contextId: "c-1",
      artifact: { artifactId: "a", parts: [{ kind: "text", text: "x" }] },
      append: true,
      lastChunk: false,
    };
    expect(jsonRpcEventToRestEvent("0.3", ok(artifactUpdate))).toBe(
      `data: ${JSON.stringify({ artifactUpdate: { taskId: "t-1", contextId: "c-1", artifact: { artifactId: "a", parts: [{ text: "x" }] }, append: true, lastChunk: false } })}`,
    );
    expect(jsonRpcEventToRestEvent("0.3", ok({ kind: "task", id: "t", contextId: "c", status: { state: "submitted" } }))).toBe(
      `data: ${JSON.stringify({ task: { id: "t", contextId: "c", status: { state: "TASK_STATE_SUBMITTED" } } })}`,
    );
  });

  it("an error event: `event: error` with the REST error body", () => {
    const error = { code: -32001, message: "gone" };
    expect(jsonRpcEventToRestEvent("1.0", failed(error))).toBe(
      `event: error\ndata: ${JSON.stringify({ error: { code: 404, status: "NOT_FOUND", message: "gone", details: [info("TASK_NOT_FOUND")] } })}`,
    );
    expect(jsonRpcEventToRestEvent("0.3", failed(error))).toBe(`event: error\ndata: ${JSON.stringify(error)}`);
  });

  it("hands on a bare StreamResponse; ends the stream with an error event, on its own lines, for what is not one", () => {
    expect(jsonRpcEventToRestEvent("1.0", { task: task1 })).toBe(`data: ${JSON.stringify({ task: task1 })}`);
    expect(jsonRpcEventToRestEvent("0.3", "line\nbreak")).toMatchObject({
      end: true,
      text: expect.stringMatching(/^event: error\ndata: \{[^\n]*\}$/),
    });
  });
});
