// The REST mappers against @a2a-js/sdk 1.3 itself. One scenario, played by the
// SDK's REST clients to its REST server (test/fixtures/rest-sdk.json, captured
// by test/support/capture-rest.ts) and by JSON-RPC to the same kind of SDK
// agent (test/fixtures/bridge-sdk.json), in 0.3 and in 1.0: each REST request
// the SDK client sent must become the JSON-RPC call of that step, and each
// JSON-RPC answer the REST answer the SDK's REST server gave (status, body,
// every SSE event), which is what the SDK's REST clients read.
import { describe, expect, it } from "vitest";
import type { RpcCall } from "../../src/bridge";
import { jsonRpcEventToRestEvent, jsonRpcToRestResponse, matchRestRoute, restToJsonRpc } from "../../src/rest";
import {
  asTheSdkClientSends,
  jsonRpcSteps as bridgeFixture,
  extraSteps as extra,
  type Generation,
  parsedEvent,
  type RestExchange,
  scenario,
  VERSION,
  withoutDefaults,
} from "../support/rest-fixture";
import { schemaErrors } from "../support/schemas";

/**
 * Schema definition of each 1.0 REST success body (spec §11.4: the proto
 * message). Not the extended card: the SDK's card leaves out an empty `skills`
 * (ProtoJSON), which the strict schema requires; the mapper hands the card on
 * as the origin wrote it (the edge rebuilds cards, src/card/).
 */
const V1_BODIES: Record<string, string> = {
  sendMessage: "SendMessageResponse",
  getTask: "Task",
  listTasks: "ListTasksResponse",
  createPushNotificationConfig: "TaskPushNotificationConfig",
  getPushNotificationConfig: "TaskPushNotificationConfig",
  listPushNotificationConfigs: "ListTaskPushNotificationConfigsResponse",
};

function checkExchange(generation: Generation, rest: RestExchange, call: RpcCall, answer: unknown) {
  const version = VERSION[generation];
  const route = matchRestRoute(rest.request.method, rest.request.path, version);
  if (!("operation" in route)) throw new Error(`no route for ${rest.request.method} ${rest.request.path}`);
  expect(restToJsonRpc(route, new URLSearchParams(rest.request.query), rest.request.body)).toEqual(asTheSdkClientSends(generation, call));
  if (rest.response.events && Array.isArray(answer)) {
    const events = answer.map((envelope) => {
      const event = jsonRpcEventToRestEvent(version, envelope);
      return parsedEvent(typeof event === "string" ? event : event.text);
    });
    expect(withoutDefaults(events)).toEqual(withoutDefaults(rest.response.events));
    if (version === "1.0") for (const { data } of events) expect(schemaErrors.v1("StreamResponse")(data)).toEqual([]);
    return;
  }
  const response = jsonRpcToRestResponse(route.operation, version, answer);
  expect(withoutDefaults(response)).toEqual(withoutDefaults(rest.response));
  const definition = V1_BODIES[route.operation];
  if (version === "1.0" && response.status < 300 && definition) expect(schemaErrors.v1(definition)(response.body)).toEqual([]);
}

describe.each(scenario.map((step, index) => ({ ...step, index })))("$name", (step) => {
  const jsonRpc = bridgeFixture[step.index];
  it.each(["v03", "v1"] as const)(
    "%s: the SDK client's REST request is the JSON-RPC call, the JSON-RPC answer the SDK server's REST answer",
    (generation) => {
      const rest = step[generation];
      if (!rest || !jsonRpc) throw new Error(`step ${step.name} lacks a ${generation} exchange`);
      expect(jsonRpc.name).toBe(step.name);
      checkExchange(generation, rest, jsonRpc.request[generation], jsonRpc.response[generation]);
    },
  );
});

describe.each(extra)("$name", (step) => {
  it.each(["v03", "v1"] as const)("%s: the same, both bindings played to one agent", (generation) => {
    const rest = step[generation];
    if (!rest) return expect(generation).toBe("v03"); // 0.3 has no ListTasks on any binding
    if (!rest.jsonrpc) throw new Error("an extra step records its JSON-RPC exchange");
    checkExchange(generation, rest, rest.jsonrpc.request, rest.jsonrpc.response);
  });
});

it("plays every step of the scenario in both versions", () => {
  expect(scenario.map((step) => step.name)).toEqual(bridgeFixture.map((step) => step.name));
  for (const step of [...scenario, ...extra.slice(1)]) expect([step.v03, step.v1].every(Boolean)).toBe(true);
});
