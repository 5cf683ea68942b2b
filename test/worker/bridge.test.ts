// The bridge's mappers (src/bridge/), field by field and both ways: methods and
// params, parts and messages, tasks, states and stream events, results, and
// error data; each decision about what one generation has and the other lacks.
// Every translated payload that is a whole message of the target generation is
// checked against that generation's official schema.
import { describe, expect, it } from "vitest";
import { methodFor } from "../../src/a2a/correspondence";
import { OPERATIONS } from "../../src/a2a/operations";
import { translateRequest, translateResult, translateStreamEvent } from "../../src/bridge";
import { v1CallErrors, v03CallErrors } from "../support/bridge-schemas";
import { schemaErrors } from "../support/schemas";

const toV1 = (event: unknown) => translateStreamEvent(event, "0.3", "1.0");
const toV03 = (event: unknown) => translateStreamEvent(event, "1.0", "0.3");

/** A 0.3 message/1.0 message pair with one part. */
const withPart = (v03: unknown, v1: unknown) => ({
  v03: { kind: "message", messageId: "m", role: "agent", parts: [v03] },
  v1: { message: { messageId: "m", role: "ROLE_AGENT", parts: [v1] } },
});

describe("methods", () => {
  /** The bridge's own method table must say what src/a2a/ says (SPEC-NOTES §3.1). */
  const PAIRS = OPERATIONS.flatMap((operation) => {
    const [v03, v1] = [methodFor("0.3", operation), methodFor("1.0", operation)];
    return v03 === undefined || v1 === undefined ? [] : [[v03, v1]];
  });

  it("knows every method both generations have", () => expect(PAIRS).toHaveLength(OPERATIONS.length - 1));

  it.each(PAIRS)("%s <-> %s", (v03, v1) => {
    expect(translateRequest({ method: v03, params: { id: "t" } }, "0.3", "1.0")).toMatchObject({ method: v1 });
    expect(translateRequest({ method: v1, params: { id: "t" } }, "1.0", "0.3")).toMatchObject({ method: v03 });
  });

  it("answers ListTasks for a 0.3 origin at the edge: -32601, nothing sent on", () => {
    const call = { method: "ListTasks", params: { pageSize: 10 } };
    expect(translateRequest(call, "1.0", "0.3")).toEqual({ unsupported: true, error: { code: -32601, message: "Method not found" } });
  });

  it("hands on a method neither generation defines, and any call within one generation", () => {
    const extension = { method: "x/custom", params: { a: 1 } };
    expect(translateRequest(extension, "0.3", "1.0")).toBe(extension);
    const call = { method: "message/send", params: { message: {} } };
    expect(translateRequest(call, "0.3", "0.3")).toBe(call);
    expect(translateResult("x/custom", { a: 1 }, "0.3", "1.0")).toEqual({ a: 1 });
  });
});

describe("request params", () => {
  const message03 = { kind: "message", messageId: "m1", role: "user", parts: [{ kind: "text", text: "hi" }] };
  const message1 = { messageId: "m1", role: "ROLE_USER", parts: [{ text: "hi" }] };

  it.each([
    [true, false],
    [false, true],
  ])("0.3 blocking %s is 1.0 returnImmediately %s, both ways", (blocking, returnImmediately) => {
    const v03 = { method: "message/send", params: { message: message03, configuration: { blocking } } };
    const v1 = { method: "SendMessage", params: { message: message1, configuration: { returnImmediately } } };
    expect(translateRequest(v03, "0.3", "1.0")).toEqual(v1);
    expect(translateRequest(v1, "1.0", "0.3")).toEqual(v03);
    expect([...v03CallErrors(v03), ...v1CallErrors(v1)]).toEqual([]);
  });

  it("leaves an absent blocking absent (each origin keeps its own default)", () => {
    const translated = translateRequest({ method: "message/send", params: { message: message03, configuration: {} } }, "0.3", "1.0");
    expect(translated).toEqual({ method: "SendMessage", params: { message: message1, configuration: {} } });
  });

  it("maps the configuration: output modes, history length (a ProtoJSON string too), push config", () => {
    const v1 = {
      method: "SendStreamingMessage",
      params: {
        tenant: "acme",
        message: message1,
        configuration: {
          acceptedOutputModes: ["text/plain"],
          historyLength: "5",
          taskPushNotificationConfig: {
            tenant: "acme",
            taskId: "t",
            id: "p",
            url: "https://c.example/push",
            token: "k",
            authentication: { scheme: "Bearer" },
          },
        },
        metadata: { a: 1 },
      },
    };
    const v03 = translateRequest(v1, "1.0", "0.3");
    expect(v03).toEqual({
      method: "message/stream",
      params: {
        message: message03,
        configuration: {
          acceptedOutputModes: ["text/plain"],
          historyLength: 5,
          pushNotificationConfig: { id: "p", url: "https://c.example/push", token: "k", authentication: { schemes: ["Bearer"] } },
        },
        metadata: { a: 1 },
      },
    });
    expect(v03CallErrors(v03 as { method: string })).toEqual([]);
  });

  it("keeps the first of several 0.3 push schemes (1.0 has one), and no scheme is the proto default", () => {
    const config = (authentication: unknown) => ({ taskId: "t", pushNotificationConfig: { url: "https://c.example/p", authentication } });
    const create = (authentication: unknown) =>
      translateRequest({ method: "tasks/pushNotificationConfig/set", params: config(authentication) }, "0.3", "1.0");
    expect(create({ schemes: ["Bearer", "Basic"], credentials: "x" })).toMatchObject({
      params: { authentication: { scheme: "Bearer", credentials: "x" } },
    });
    expect(create({ schemes: [] })).toMatchObject({ params: { authentication: { scheme: "" } } });
    const back = translateRequest(
      { method: "CreateTaskPushNotificationConfig", params: { taskId: "t", url: "u", authentication: { scheme: "" } } },
      "1.0",
      "0.3",
    );
    expect(back).toMatchObject({ params: { pushNotificationConfig: { authentication: { schemes: [] } } } });
  });

  it("names the task `taskId` and the config `id` under 1.0 push configs", () => {
    const cases: [string, string][] = [
      ["tasks/pushNotificationConfig/get", "GetTaskPushNotificationConfig"],
      ["tasks/pushNotificationConfig/delete", "DeleteTaskPushNotificationConfig"],
    ];
    for (const [v03, v1] of cases) {
      const call03 = { method: v03, params: { id: "t", pushNotificationConfigId: "p" } };
      const call1 = { method: v1, params: { taskId: "t", id: "p" } };
      expect(translateRequest(call03, "0.3", "1.0")).toEqual(call1);
      expect(translateRequest(call1, "1.0", "0.3")).toEqual(call03);
      expect([...v03CallErrors(call03), ...v1CallErrors(call1)]).toEqual([]);
    }
    const list = translateRequest({ method: "tasks/pushNotificationConfig/list", params: { id: "t" } }, "0.3", "1.0");
    expect(list).toEqual({ method: "ListTaskPushNotificationConfigs", params: { taskId: "t" } });
  });

  it("passes a 0.3 get-config without a config id on without one (1.0 requires it; nothing to take it from)", () => {
    const translated = translateRequest({ method: "tasks/pushNotificationConfig/get", params: { id: "t" } }, "0.3", "1.0");
    expect(translated).toEqual({ method: "GetTaskPushNotificationConfig", params: { taskId: "t" } });
  });

  it("drops 0.3 metadata where the 1.0 request has none, keeps it on cancel", () => {
    const metadata = { m: 1 };
    expect(translateRequest({ method: "tasks/get", params: { id: "t", historyLength: 2, metadata } }, "0.3", "1.0")).toEqual({
      method: "GetTask",
      params: { id: "t", historyLength: 2 },
    });
    expect(translateRequest({ method: "tasks/resubscribe", params: { id: "t", metadata } }, "0.3", "1.0")).toEqual({
      method: "SubscribeToTask",
      params: { id: "t" },
    });
    expect(translateRequest({ method: "tasks/cancel", params: { id: "t", metadata } }, "0.3", "1.0")).toEqual({
      method: "CancelTask",
      params: { id: "t", metadata },
    });
  });

  it("writes the origin interface's tenant into every 1.0 call, and drops 1.0 tenant and paging for 0.3", () => {
    const options = { tenant: "acme" };
    expect(translateRequest({ method: "tasks/get", params: { id: "t" } }, "0.3", "1.0", options)).toEqual({
      method: "GetTask",
      params: { tenant: "acme", id: "t" },
    });
    const card = translateRequest({ method: "agent/getAuthenticatedExtendedCard" }, "0.3", "1.0", options);
    expect(card).toEqual({ method: "GetExtendedAgentCard", params: { tenant: "acme" } });
    expect(v1CallErrors(card as { method: string })).toEqual([]);
    expect(translateRequest({ method: "agent/getAuthenticatedExtendedCard" }, "0.3", "1.0")).toEqual({
      method: "GetExtendedAgentCard",
      params: {},
    });
    expect(translateRequest({ method: "GetExtendedAgentCard", params: { tenant: "acme" } }, "1.0", "0.3")).toEqual({
      method: "agent/getAuthenticatedExtendedCard",
    });
    const list = { method: "ListTaskPushNotificationConfigs", params: { tenant: "acme", taskId: "t", pageSize: 5, pageToken: "n" } };
    expect(translateRequest(list, "1.0", "0.3")).toEqual({ method: "tasks/pushNotificationConfig/list", params: { id: "t" } });
    expect(translateRequest({ method: "tasks/get", params: { id: "t" } }, "1.0", "0.3", options)).toEqual({
      method: "tasks/get",
      params: { id: "t" },
    });
  });
});

describe("parts", () => {
  it.each([
    ["text", { kind: "text", text: "hi", metadata: { a: 1 } }, { text: "hi", metadata: { a: 1 } }],
    [
      "file bytes",
      { kind: "file", file: { bytes: "aGk=", mimeType: "text/plain", name: "a.txt" } },
      { raw: "aGk=", filename: "a.txt", mediaType: "text/plain" },
    ],
    [
      "file uri",
      { kind: "file", file: { uri: "https://f.example/a" }, metadata: { b: 2 } },
      { url: "https://f.example/a", metadata: { b: 2 } },
    ],
    ["data object", { kind: "data", data: { x: [1] } }, { data: { x: [1] } }],
    ["data list (compat form)", { kind: "data", data: { value: [1, 2] }, metadata: { data_part_compat: true } }, { data: [1, 2] }],
    [
      "data string (compat form, own metadata)",
      { kind: "data", data: { value: "s" }, metadata: { c: 3, data_part_compat: true } },
      { data: "s", metadata: { c: 3 } },
    ],
    ["data null (compat form)", { kind: "data", data: { value: null }, metadata: { data_part_compat: true } }, { data: null }],
  ])("%s, both ways", (_name, v03, v1) => {
    const pair = withPart(v03, v1);
    expect(toV1(pair.v03)).toEqual(pair.v1);
    expect(toV03(pair.v1)).toEqual(pair.v03);
    expect(schemaErrors.v1("StreamResponse")(pair.v1)).toEqual([]);
    expect(schemaErrors.v03("Message")(pair.v03)).toEqual([]);
  });

  it("drops what 0.3 has no field for: a text or data part's mediaType and filename", () => {
    const pair = withPart({ kind: "text", text: "# hi" }, { text: "# hi", mediaType: "text/markdown", filename: "a.md" });
    expect(toV03(pair.v1)).toEqual(pair.v03);
    expect(toV03(withPart({}, { data: { a: 1 }, mediaType: "application/json" }).v1)).toEqual(
      withPart({ kind: "data", data: { a: 1 } }, {}).v03,
    );
  });

  it("keeps the bytes of a 0.3 file that also names a uri (1.0 content is a oneof)", () => {
    const pair = withPart({ kind: "file", file: { bytes: "aGk=", uri: "https://f.example/a" } }, { raw: "aGk=" });
    expect(toV1(pair.v03)).toEqual(pair.v1);
  });

  it("hands on a part it does not know", () => {
    expect(toV1(withPart({ kind: "video", frames: 3 }, {}).v03)).toEqual(withPart({}, { kind: "video", frames: 3 }).v1);
    expect(toV03(withPart({}, { hologram: true }).v1)).toEqual(withPart({ hologram: true }, {}).v03);
  });
});

describe("messages", () => {
  const v03 = {
    kind: "message",
    messageId: "m1",
    contextId: "c",
    taskId: "t",
    role: "user",
    parts: [{ kind: "text", text: "hi" }],
    metadata: { a: 1 },
    extensions: ["https://e.example/x"],
    referenceTaskIds: ["t0"],
  };
  const { kind: _kind, ...fields } = v03;
  const v1 = { ...fields, role: "ROLE_USER", parts: [{ text: "hi" }] };

  it("keeps every field, adds/drops `kind`, maps the role", () => {
    expect(toV1(v03)).toEqual({ message: v1 });
    expect(toV03({ message: v1 })).toEqual(v03);
    expect(toV03({ message: { ...v1, role: "ROLE_AGENT" } })).toEqual({ ...v03, role: "agent" });
  });

  it("drops members the target has no field for", () => {
    expect(toV1({ ...v03, extra: 1 })).toEqual({ message: v1 });
    expect(toV03({ message: { ...v1, extra: 1 } })).toEqual(v03);
  });

  it("reads ProtoJSON's integer roles; ROLE_UNSPECIFIED (no 0.3 counterpart) is handed on as it is", () => {
    expect(toV03({ message: { ...v1, role: 2 } })).toEqual({ ...v03, role: "agent" });
    expect(toV03({ message: { ...v1, role: "ROLE_UNSPECIFIED" } })).toEqual({ ...v03, role: "ROLE_UNSPECIFIED" });
    expect(toV03({ message: { ...v1, role: 0 } })).toEqual({ ...v03, role: 0 });
  });
});
