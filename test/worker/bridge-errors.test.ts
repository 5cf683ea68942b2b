// JSON-RPC errors across the bridge (src/bridge/error-data.ts): code and
// message pass as they are (SPEC-NOTES §3.4); 1.0 `data` is a list of
// ProtoJSON Any with the ErrorInfo of an A2A code (§9.5), 0.3 `data` is free-form.
import { describe, expect, it } from "vitest";
import * as v1 from "../../src/a2a/v1";
import * as v03 from "../../src/a2a/v03";
import { translateError, translateResponse } from "../../src/bridge";
import { v1ResponseErrors, v03ResponseErrors } from "../support/bridge-schemas";

const INFO = "type.googleapis.com/google.rpc.ErrorInfo";
const VALUE = "type.googleapis.com/google.protobuf.Value";
const info = (reason: string, more: object = {}) => ({ "@type": INFO, reason, domain: "a2a-protocol.org", ...more });

/** The A2A errors both generations define, with their ErrorInfo reason (1.0 §9.5; src/a2a/). */
const SHARED = Object.values(v1.A2A_ERRORS)
  .filter(({ code }) => Object.values(v03.A2A_ERRORS).some((error) => error.code === code))
  .map(({ code, reason }): [number, string] => [code, reason]);

it("knows the seven A2A errors of 0.3, -32001 ... -32007", () => {
  expect(SHARED.map(([code]) => code)).toEqual([-32001, -32002, -32003, -32004, -32005, -32006, -32007]);
});

describe("A2A errors", () => {
  it.each(SHARED)("%i: 0.3 without data <-> 1.0 with its ErrorInfo (%s)", (code, reason) => {
    const old = { code, message: "as the origin said it" };
    const now = { ...old, data: [info(reason)] };
    expect(translateError(old, "0.3", "1.0")).toEqual(now);
    expect(translateError(now, "1.0", "0.3")).toEqual(old);
    expect(v1ResponseErrors("GetTask", { jsonrpc: "2.0", id: 1, error: now })).toEqual([]);
    expect(v03ResponseErrors("tasks/get", { jsonrpc: "2.0", id: 1, error: old })).toEqual([]);
  });

  it("carries free-form 0.3 data as an Any of google.protobuf.Value, and unwraps it on the way back", () => {
    for (const data of [{ taskId: "t" }, "why", 3, [1, 2], [], null, true]) {
      const translated = translateError({ code: -32001, message: "m", data }, "0.3", "1.0");
      expect(translated).toEqual({ code: -32001, message: "m", data: [info("TASK_NOT_FOUND"), { "@type": VALUE, value: data }] });
      expect(translateError(translated, "1.0", "0.3")).toEqual({ code: -32001, message: "m", data });
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
    for (const code of [-32008, -32009]) {
      const reason = Object.values(v1.A2A_ERRORS).find((error) => error.code === code)?.reason ?? "";
      const error = { code, message: "m", data: [info(reason)] };
      expect(translateError(error, "1.0", "0.3")).toEqual(error);
      expect(translateError({ code, message: "m" }, "0.3", "1.0")).toEqual({ code, message: "m" });
    }
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
