// The bridge against @a2a-js/sdk 1.3 itself: one scenario of calls played to
// the same kind of SDK agent once in 0.3 and once in 1.0 (captured by
// test/support/capture-bridge.ts into test/fixtures/bridge-sdk.json). Each
// call must become the other generation's call, and each answer the SDK gave
// in one generation must become the answer it gave in the other (the SDK
// speaks both, so that is what a client of the other generation expects),
// valid against that generation's official schema, and come back unchanged.
import { describe, expect, it } from "vitest";
import { type ProtocolGeneration, type RpcCall, translateRequest, translateResponse } from "../../src/bridge";
import fixture from "../fixtures/bridge-sdk.json";
import { asTheBridgeAnswers, withoutFalseFlags } from "../support/bridge-fixture";
import { v1CallErrors, v1ResponseErrors, v03CallErrors, v03ResponseErrors } from "../support/bridge-schemas";

interface Step {
  name: string;
  request: { v03: RpcCall; v1: RpcCall };
  response: { v03: unknown; v1: unknown };
}
const steps: Step[] = fixture;

/** A unary answer is one envelope, a stream a list of them (one per SSE event). */
const envelopes = (answer: unknown): unknown[] => (Array.isArray(answer) ? answer : [answer]);

const translateAll = (method: string, answer: unknown, from: ProtocolGeneration, to: ProtocolGeneration) =>
  envelopes(answer).map((envelope) => translateResponse(method, envelope, from, to));

describe.each(steps)("$name", ({ request, response }) => {
  it("turns the 0.3 call into the 1.0 call, and back", () => {
    expect(v03CallErrors(request.v03)).toEqual([]);
    expect(v1CallErrors(request.v1)).toEqual([]);
    expect(translateRequest(request.v03, "0.3", "1.0")).toEqual(request.v1);
    expect(translateRequest(request.v1, "1.0", "0.3")).toEqual(request.v03);
  });

  it("turns the SDK's 1.0 answer into its 0.3 answer, schema-valid", () => {
    const translated = translateAll(request.v1.method, response.v1, "1.0", "0.3");
    expect(withoutFalseFlags(translated)).toEqual(withoutFalseFlags(envelopes(response.v03)));
    for (const envelope of translated) expect(v03ResponseErrors(request.v03.method, envelope)).toEqual([]);
  });

  it("turns the SDK's 0.3 answer into its 1.0 answer, schema-valid", () => {
    const translated = translateAll(request.v03.method, response.v03, "0.3", "1.0");
    const expected = envelopes(response.v1).map((envelope) => asTheBridgeAnswers(envelope, "1.0", request.v1.method));
    expect(withoutFalseFlags(translated)).toEqual(withoutFalseFlags(expected));
    for (const envelope of translated) expect(v1ResponseErrors(request.v1.method, envelope)).toEqual([]);
  });

  it("brings every answer back unchanged (0.3 -> 1.0 -> 0.3 and 1.0 -> 0.3 -> 1.0)", () => {
    const v03 = response.v03;
    const there = translateAll(request.v03.method, v03, "0.3", "1.0");
    expect(there.map((envelope) => translateResponse(request.v1.method, envelope, "1.0", "0.3"))).toEqual(envelopes(v03));
    const v1 = response.v1;
    const back = translateAll(request.v1.method, v1, "1.0", "0.3");
    const expected = envelopes(v1).map((envelope) => asTheBridgeAnswers(envelope, "1.0", request.v1.method));
    expect(back.map((envelope) => translateResponse(request.v03.method, envelope, "0.3", "1.0"))).toEqual(expected);
  });
});

it("covers every operation both generations have (ListTasks has no 0.3 method)", () => {
  const methods = new Set(steps.map(({ request }) => request.v1.method));
  expect([...methods].sort()).toEqual(
    [
      "SendStreamingMessage",
      "SendMessage",
      "GetTask",
      "CancelTask",
      "CreateTaskPushNotificationConfig",
      "GetTaskPushNotificationConfig",
      "ListTaskPushNotificationConfigs",
      "DeleteTaskPushNotificationConfig",
      "SubscribeToTask",
      "GetExtendedAgentCard",
    ].sort(),
  );
});
