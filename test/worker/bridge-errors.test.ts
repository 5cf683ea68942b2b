// JSON-RPC errors across the bridge (src/bridge/error-data.ts): code and
// message pass as they are (SPEC-NOTES §3.4); 1.0 `data` is a list of
// ProtoJSON Any with the ErrorInfo of an A2A code (§9.5), 0.3 `data` is free-form.
import { describe, expect, it } from "vitest";
import { translateError, translateResponse } from "../../src/bridge";
import { v1ResponseErrors, v03ResponseErrors } from "../support/bridge-schemas";

const INFO = "type.googleapis.com/google.rpc.ErrorInfo";
const VALUE = "type.googleapis.com/google.protobuf.Value";
const info = (reason: string, more: object = {}) => ({ "@type": INFO, reason, domain: "a2a-protocol.org", ...more });

/** The A2A errors both generations define: code, ErrorInfo reason (1.0 §9.5). */
const SHARED: [number, string][] = [
  [-32001, "TASK_NOT_FOUND"],
  [-32002, "TASK_NOT_CANCELABLE"],
  [-32003, "PUSH_NOTIFICATION_NOT_SUPPORTED"],
  [-32004, "UNSUPPORTED_OPERATION"],
  [-32005, "CONTENT_TYPE_NOT_SUPPORTED"],
  [-32006, "INVALID_AGENT_RESPONSE"],
  [-32007, "EXTENDED_AGENT_CARD_NOT_CONFIGURED"],
];

describe("A2A errors", () => {
  it.each(SHARED)("%i: 0.3 without data <-> 1.0 with its ErrorInfo (%s)", (code, reason) => {
    const v03 = { code, message: "as the origin said it" };
    const v1 = { ...v03, data: [info(reason)] };
    expect(translateError(v03, "0.3", "1.0")).toEqual(v1);
    expect(translateError(v1, "1.0", "0.3")).toEqual(v03);
    expect(v1ResponseErrors("GetTask", { jsonrpc: "2.0", id: 1, error: v1 })).toEqual([]);
    expect(v03ResponseErrors("tasks/get", { jsonrpc: "2.0", id: 1, error: v03 })).toEqual([]);
  });

  it("carries free-form 0.3 data as an Any of google.protobuf.Value, and unwraps it on the way back", () => {
    for (const data of [{ taskId: "t" }, "why", 3, [1, 2], [], null, true]) {
      const v1 = translateError({ code: -32001, message: "m", data }, "0.3", "1.0");
      expect(v1).toEqual({ code: -32001, message: "m", data: [info("TASK_NOT_FOUND"), { "@type": VALUE, value: data }] });
      expect(translateError(v1, "1.0", "0.3")).toEqual({ code: -32001, message: "m", data });
    }
  });

  it("keeps 0.3 data that already is a list of Any, adding an ErrorInfo only if it has none", () => {
    const custom = { "@type": "type.example.com/Retry", after: 3 };
    expect(translateError({ code: -32002, message: "m", data: [custom] }, "0.3", "1.0")).toEqual({
      code: -32002,
      message: "m",
      data: [info("TASK_NOT_CANCELABLE"), custom],
    });
    const own = info("TASK_NOT_CANCELABLE", { metadata: { taskId: "t" } });
    expect(translateError({ code: -32002, message: "m", data: [own] }, "0.3", "1.0")).toEqual({ code: -32002, message: "m", data: [own] });
  });

  it("hands a 0.3 caller what the code does not already say: ErrorInfo metadata, other details", () => {
    const own = info("TASK_NOT_FOUND", { metadata: { taskId: "t" } });
    expect(translateError({ code: -32001, message: "m", data: [own] }, "1.0", "0.3")).toEqual({ code: -32001, message: "m", data: [own] });
    const foreign = info("TASK_NOT_FOUND", { domain: "example.com" });
    expect(translateError({ code: -32001, message: "m", data: [info("TASK_NOT_FOUND"), foreign] }, "1.0", "0.3")).toEqual({
      code: -32001,
      message: "m",
      data: [foreign],
    });
  });

  it("keeps 1.0's own codes (-32008, -32009) and their ErrorInfo for a 0.3 caller: the code alone means nothing there", () => {
    const v1 = { code: -32009, message: "Version not supported", data: [info("VERSION_NOT_SUPPORTED")] };
    expect(translateError(v1, "1.0", "0.3")).toEqual(v1);
  });
});

describe("JSON-RPC's own errors", () => {
  it("get no ErrorInfo (1.0 names no reason for them); their data travels as a Value", () => {
    expect(translateError({ code: -32602, message: "Invalid parameters" }, "0.3", "1.0")).toEqual({
      code: -32602,
      message: "Invalid parameters",
    });
    expect(translateError({ code: -32602, message: "bad", data: { field: "id" } }, "0.3", "1.0")).toEqual({
      code: -32602,
      message: "bad",
      data: [{ "@type": VALUE, value: { field: "id" } }],
    });
  });

  it("pass non-list 1.0 data (a non-conforming origin) on to 0.3 as it is; an empty list as no data", () => {
    expect(translateError({ code: -32603, message: "m", data: "trace" }, "1.0", "0.3")).toEqual({
      code: -32603,
      message: "m",
      data: "trace",
    });
    expect(translateError({ code: -32603, message: "m", data: [] }, "1.0", "0.3")).toEqual({ code: -32603, message: "m" });
  });
});

it("translateResponse translates an error envelope's error and keeps jsonrpc and id", () => {
  const response = { jsonrpc: "2.0", id: "r-1", error: { code: -32001, message: "Task not found" } };
  expect(translateResponse("tasks/get", response, "0.3", "1.0")).toEqual({
    ...response,
    error: { ...response.error, data: [info("TASK_NOT_FOUND")] },
  });
  expect(translateResponse("GetTask", { jsonrpc: "2.0", id: null }, "1.0", "0.3")).toEqual({ jsonrpc: "2.0", id: null });
  expect(translateError("not an object", "0.3", "1.0")).toBe("not an object");
});
