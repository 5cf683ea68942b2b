// The bridge's tasks, states, stream events and results (src/bridge/events.ts,
// params.ts), field by field and both ways, each translated payload checked
// against the target generation's official schema.
import { describe, expect, it } from "vitest";
import { isUnreadable, translateResult, translateStreamEvent } from "../../src/bridge";
import { v1ResponseErrors, v03ResponseErrors } from "../support/bridge-schemas";
import { schemaErrors } from "../support/schemas";

const toV1 = (event: unknown) => translateStreamEvent(event, "0.3", "1.0");
const toV03 = (event: unknown) => translateStreamEvent(event, "1.0", "0.3");
const envelope = (result: unknown) => ({ jsonrpc: "2.0", id: 1, result });

/** 0.3 state, 1.0 name, proto number, `final` of a 0.3 status update. */
const STATES: [string, string, number, boolean][] = [
  ["unknown", "TASK_STATE_UNSPECIFIED", 0, false],
  ["submitted", "TASK_STATE_SUBMITTED", 1, false],
  ["working", "TASK_STATE_WORKING", 2, false],
  ["completed", "TASK_STATE_COMPLETED", 3, true],
  ["failed", "TASK_STATE_FAILED", 4, true],
  ["canceled", "TASK_STATE_CANCELED", 5, true],
  ["input-required", "TASK_STATE_INPUT_REQUIRED", 6, true],
  ["rejected", "TASK_STATE_REJECTED", 7, true],
  ["auth-required", "TASK_STATE_AUTH_REQUIRED", 8, false],
];

const statusUpdate = (state: unknown) => ({ taskId: "t", contextId: "c", status: { state, timestamp: "2026-01-02T03:04:05Z" } });

describe("task states and status updates", () => {
  it.each(STATES)("%s <-> %s (= %i), final: %s", (v03, v1, number, final) => {
    const event03 = { kind: "status-update", ...statusUpdate(v03), final };
    expect(toV1(event03)).toEqual({ statusUpdate: statusUpdate(v1) });
    expect(toV03({ statusUpdate: statusUpdate(v1) })).toEqual(event03);
    expect(toV03({ statusUpdate: statusUpdate(number) })).toEqual(event03);
    expect(schemaErrors.v1("StreamResponse")(toV1(event03))).toEqual([]);
    expect(v03ResponseErrors("message/stream", envelope(event03))).toEqual([]);
  });

  it("drops 0.3 `final` (1.0 removed it: the stream's end says it)", () => {
    expect(toV1({ kind: "status-update", ...statusUpdate("working"), final: true, metadata: { m: 1 } })).toEqual({
      statusUpdate: { ...statusUpdate("TASK_STATE_WORKING"), metadata: { m: 1 } },
    });
  });

  it("hands on a state neither generation names", () => {
    expect(toV03({ statusUpdate: statusUpdate("TASK_STATE_PAUSED") })).toMatchObject({
      status: { state: "TASK_STATE_PAUSED" },
      final: false,
    });
    expect(toV1({ kind: "status-update", ...statusUpdate("paused"), final: false })).toEqual({ statusUpdate: statusUpdate("paused") });
  });
});

describe("tasks", () => {
  const message03 = {
    kind: "message",
    messageId: "m",
    role: "agent",
    parts: [{ kind: "text", text: "done" }],
    taskId: "t",
    contextId: "c",
  };
  const message1 = { messageId: "m", role: "ROLE_AGENT", parts: [{ text: "done" }], taskId: "t", contextId: "c" };
  const artifact03 = {
    artifactId: "a",
    name: "n",
    description: "d",
    parts: [{ kind: "data", data: { x: 1 } }],
    metadata: { k: 1 },
    extensions: ["e"],
  };
  const artifact1 = { ...artifact03, parts: [{ data: { x: 1 } }] };
  const task03 = {
    kind: "task",
    id: "t",
    contextId: "c",
    status: { state: "completed", message: message03, timestamp: "2026-01-02T03:04:05Z" },
    artifacts: [artifact03],
    history: [message03],
    metadata: { m: 1 },
  };
  const task1 = {
    id: "t",
    contextId: "c",
    status: { ...task03.status, state: "TASK_STATE_COMPLETED", message: message1 },
    artifacts: [artifact1],
    history: [message1],
    metadata: { m: 1 },
  };

  it("maps every field, both ways, as a result and as an event", () => {
    for (const method of ["tasks/get", "GetTask", "tasks/cancel"]) {
      expect(translateResult(method, task03, "0.3", "1.0")).toEqual(task1);
      expect(translateResult(method, task1, "1.0", "0.3")).toEqual(task03);
    }
    expect(toV1(task03)).toEqual({ task: task1 });
    expect(toV03({ task: task1 })).toEqual(task03);
    expect(v1ResponseErrors("GetTask", envelope(task1))).toEqual([]);
    expect(v03ResponseErrors("tasks/get", envelope(task03))).toEqual([]);
  });

  it("writes 0.3's required contextId as the proto default when 1.0 leaves it out, and leaves it out again", () => {
    const { contextId: _c, ...bare } = task1;
    expect(toV03({ task: bare })).toEqual({ ...task03, contextId: "" });
    expect(toV1({ ...task03, contextId: "" })).toEqual({ task: bare });
  });

  it("a SendMessage result is a Task or a Message, wrapped in 1.0", () => {
    expect(translateResult("message/send", task03, "0.3", "1.0")).toEqual({ task: task1 });
    expect(translateResult("SendMessage", { message: message1 }, "1.0", "0.3")).toEqual(message03);
    expect(v1ResponseErrors("SendMessage", envelope({ message: message1 }))).toEqual([]);
  });
});

describe("artifact updates and the stream wrapper", () => {
  const artifact = { artifactId: "a", parts: [{ kind: "text", text: "x" }] };
  const update03 = { kind: "artifact-update", taskId: "t", contextId: "c", artifact, append: true, lastChunk: true, metadata: { i: 2 } };
  const update1 = {
    taskId: "t",
    contextId: "c",
    artifact: { artifactId: "a", parts: [{ text: "x" }] },
    append: true,
    lastChunk: true,
    metadata: { i: 2 },
  };

  it("maps append and lastChunk, both ways", () => {
    expect(toV1(update03)).toEqual({ artifactUpdate: update1 });
    expect(toV03({ artifactUpdate: update1 })).toEqual(update03);
    expect(schemaErrors.v1("StreamResponse")({ artifactUpdate: update1 })).toEqual([]);
    expect(v03ResponseErrors("message/stream", envelope(update03))).toEqual([]);
  });

  it("leaves a flag ProtoJSON left out (false) out in 0.3 too", () => {
    const { append: _a, lastChunk: _l, ...bare } = update1;
    const { append: _b, lastChunk: _m, ...bare03 } = update03;
    expect(toV03({ artifactUpdate: bare })).toEqual(bare03);
  });

  it("reports an event of unknown kind, a wrapper with no known member, and a non-object as Unreadable: never handed on", () => {
    for (const event of [toV1({ kind: "heartbeat" }), toV03({ heartbeat: {} }), toV1("text")]) expect(isUnreadable(event)).toBe(true);
  });
});

describe("push-config results", () => {
  const config03 = {
    taskId: "t",
    pushNotificationConfig: {
      id: "p",
      url: "https://c.example/push",
      token: "k",
      authentication: { schemes: ["Bearer"], credentials: "s" },
    },
  };
  const config1 = {
    taskId: "t",
    id: "p",
    url: "https://c.example/push",
    token: "k",
    authentication: { scheme: "Bearer", credentials: "s" },
  };

  it("set/get: 0.3 nests the config, 1.0 flattens it", () => {
    const pairs: [string, string][] = [
      ["tasks/pushNotificationConfig/set", "CreateTaskPushNotificationConfig"],
      ["tasks/pushNotificationConfig/get", "GetTaskPushNotificationConfig"],
    ];
    for (const [v03, v1] of pairs) {
      expect(translateResult(v03, config03, "0.3", "1.0")).toEqual(config1);
      expect(translateResult(v1, { ...config1, tenant: "acme" }, "1.0", "0.3")).toEqual(config03);
      expect(v1ResponseErrors(v1, envelope(config1))).toEqual([]);
      expect(v03ResponseErrors(v03, envelope(config03))).toEqual([]);
    }
  });

  it("list: a bare 0.3 list <-> 1.0 {configs}; a next page cannot be handed on; no configs is []", () => {
    expect(translateResult("tasks/pushNotificationConfig/list", [config03], "0.3", "1.0")).toEqual({ configs: [config1] });
    expect(translateResult("ListTaskPushNotificationConfigs", { configs: [config1], nextPageToken: "n" }, "1.0", "0.3")).toEqual([
      config03,
    ]);
    expect(translateResult("ListTaskPushNotificationConfigs", {}, "1.0", "0.3")).toEqual([]);
    expect(v03ResponseErrors("tasks/pushNotificationConfig/list", envelope([]))).toEqual([]);
  });

  it("a 1.0 config without taskId gets 0.3's required member as the proto default", () => {
    const { taskId: _t, ...bare } = config1;
    expect(translateResult("GetTaskPushNotificationConfig", bare, "1.0", "0.3")).toEqual({ ...config03, taskId: "" });
  });

  it("delete: 0.3 null <-> 1.0 google.protobuf.Empty `{}` (a 1.0 null passes as 0.3 null)", () => {
    expect(translateResult("tasks/pushNotificationConfig/delete", null, "0.3", "1.0")).toEqual({});
    expect(translateResult("DeleteTaskPushNotificationConfig", {}, "1.0", "0.3")).toBeNull();
    expect(translateResult("DeleteTaskPushNotificationConfig", null, "1.0", "0.3")).toBeNull();
  });

  it("passes the extended card as it came (cards are rewritten elsewhere)", () => {
    const card = { name: "a", url: "https://a.example/" };
    expect(translateResult("agent/getAuthenticatedExtendedCard", card, "0.3", "1.0")).toBe(card);
    expect(translateResult("GetExtendedAgentCard", card, "1.0", "0.3")).toBe(card);
  });
});
