// The REST mappers against @a2a-js/sdk 1.3 itself. One scenario, played by the
// SDK's REST clients to its REST server (test/fixtures/rest-sdk.json, captured
// by test/support/capture-rest.ts) and by JSON-RPC to the same kind of SDK
// agent (test/fixtures/bridge-sdk.json), in 0.3 and in 1.0: each REST request
// the SDK client sent must become the JSON-RPC call of that step, and each
// JSON-RPC answer the REST answer the SDK's REST server gave (status, body,
// every SSE event), which is what the SDK's REST clients read.
import { describe, expect, it } from "vitest";
import type { RpcCall } from "../../src/bridge";
import { isJsonObject } from "../../src/json";
import { jsonRpcEventToRestEvent, jsonRpcToRestResponse, matchRestRoute, type RestVersion, restToJsonRpc } from "../../src/rest";
import bridgeFixture from "../fixtures/bridge-sdk.json";
import restFixture from "../fixtures/rest-sdk.json";
import { schemaErrors } from "../support/schemas";

interface RestExchange {
  request: { method: string; path: string; query: string; body?: unknown };
  response: { status: number; body?: unknown; events?: { event?: string; data: unknown }[] };
  jsonrpc?: { request: RpcCall; response: unknown };
}
interface Step {
  name: string;
  v03?: RestExchange | null;
  v1?: RestExchange | null;
}
type Generation = "v03" | "v1";
const VERSION: Record<Generation, RestVersion> = { v03: "0.3", v1: "1.0" };

/** `{{id-N}}` in the scenario's requests is the id the fixtures write id-N. */
const withIds = (value: unknown): unknown => JSON.parse(JSON.stringify(value).replace(/\{\{(id-\d)\}\}/g, "$1"));

/**
 * ProtoJSON omits a field at its default (false, "", an empty list) and reads
 * an absent one as that default: the SDK's proto serializers leave them out,
 * the mappers hand on what the JSON-RPC answer holds. Equal once both omit them.
 */
function withoutDefaults(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutDefaults);
  if (!isJsonObject(value)) return value;
  const kept = Object.entries(value).filter(([, item]) => item !== false && item !== "" && !(Array.isArray(item) && item.length === 0));
  return Object.fromEntries(kept.map(([key, item]) => [key, withoutDefaults(item)]));
}

/**
 * The scenario's JSON-RPC call as the SDK's REST client sends it, which is
 * what the mapper can make of its request. 0.3: the proto has no field for a
 * file's `name` or a part's `metadata`, so they never leave the client; and
 * the client (a 1.0 client writing 0.3) writes 1.0's default wait as
 * `blocking: true` into every send configuration. 1.0: ProtoJSON leaves `returnImmediately: false` out.
 */
function asTheSdkClientSends(generation: Generation, call: RpcCall): unknown {
  const sent = JSON.parse(JSON.stringify(withIds(call)), (key, value) => {
    if (generation === "v1") return key === "returnImmediately" && value === false ? undefined : value;
    if (key === "file" && isJsonObject(value)) return { ...value, name: undefined };
    if (isJsonObject(value) && ["text", "file", "data"].includes(String(value.kind))) return { ...value, metadata: undefined };
    return value;
  });
  if (generation === "v03" && isJsonObject(sent.params?.configuration)) sent.params.configuration.blocking ??= true;
  return sent;
}

/** The REST event as the fixture writes it (`event` only when set, `data` parsed). */
function parsedEvent(lines: string): { event?: string; data: unknown } {
  const event = /^event: (.*)$/m.exec(lines)?.[1];
  const data = JSON.parse(/^data: (.*)$/m.exec(lines)?.[1] ?? "null");
  return event ? { event, data } : { data };
}

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
    const events = answer.map((envelope) => parsedEvent(jsonRpcEventToRestEvent(version, envelope)));
    expect(withoutDefaults(events)).toEqual(withoutDefaults(rest.response.events));
    if (version === "1.0") for (const { data } of events) expect(schemaErrors.v1("StreamResponse")(data)).toEqual([]);
    return;
  }
  const response = jsonRpcToRestResponse(route.operation, version, answer);
  expect(withoutDefaults(response)).toEqual(withoutDefaults(rest.response));
  const definition = V1_BODIES[route.operation];
  if (version === "1.0" && response.status < 300 && definition) expect(schemaErrors.v1(definition)(response.body)).toEqual([]);
}

const scenario = restFixture.steps as Step[];
const extra = restFixture.extra as Step[];

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
