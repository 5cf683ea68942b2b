// Round trips across the bridge, property-based (fast-check): any 0.3 stream
// event, SendMessage call or push config made only of what 1.0 can represent
// becomes a schema-valid 1.0 value and comes back equal, and the same from 1.0.
// (What one side cannot represent is listed, with its decision, in
// bridge.test.ts and bridge-events.test.ts.)
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { translateRequest, translateStreamEvent } from "../../src/bridge";
import { v1CallErrors, v03CallErrors, v03ResponseErrors } from "../support/bridge-schemas";
import { schemaErrors } from "../support/schemas";

const RUNS = { numRuns: 200 };

const id = fc.string({ minLength: 1, maxLength: 6 });
const word = fc.stringMatching(/^[a-z]{1,6}$/);
/** Free-form metadata; keys never name the data-part compat flag (it has an underscore). */
const metadata = fc.dictionary(word, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 });
/** Any JSON value but an object: what 0.3 cannot hold as data, and 1.0 can. */
const notAnObject = fc.oneof(
  fc.string(),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }),
);
const opt = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
const timestamp = fc.date({ min: new Date(0), max: new Date("2100-01-01T00:00:00Z"), noInvalidDate: true }).map((d) => d.toISOString());
/** A JSON object without undefined members (what JSON.parse gives). */
const present = (record: Record<string, unknown>) => Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined));
const object = (fields: Record<string, fc.Arbitrary<unknown>>) => fc.record(fields).map(present);

// ---- 0.3 ----

const STATES03 = ["submitted", "working", "input-required", "completed", "canceled", "failed", "rejected", "auth-required", "unknown"];
const FINAL03 = new Set(["completed", "canceled", "failed", "rejected", "input-required"]);
const FILE03 = { mimeType: opt(word), name: opt(word) };

const part03 = fc.oneof(
  object({ kind: fc.constant("text"), text: fc.string(), metadata: opt(metadata) }),
  object({
    kind: fc.constant("file"),
    file: fc.oneof(object({ bytes: fc.base64String(), ...FILE03 }), object({ uri: fc.webUrl(), ...FILE03 })),
    metadata: opt(metadata),
  }),
  object({ kind: fc.constant("data"), data: fc.dictionary(word, fc.jsonValue({ maxDepth: 2 })), metadata: opt(metadata) }),
  // A 1.0 value that is no object, in the compat form (a2a-js, a2a-python, a2a-go).
  fc.record({ kind: fc.constant("data"), data: fc.record({ value: notAnObject }), metadata: fc.constant({ data_part_compat: true }) }),
);

const message03 = object({
  kind: fc.constant("message"),
  messageId: id,
  role: fc.constantFrom("user", "agent"),
  parts: fc.array(part03, { maxLength: 3 }),
  contextId: opt(id),
  taskId: opt(id),
  metadata: opt(metadata),
  extensions: opt(fc.array(fc.webUrl(), { maxLength: 2 })),
  referenceTaskIds: opt(fc.array(id, { maxLength: 2 })),
});
const status03 = object({ state: fc.constantFrom(...STATES03), message: opt(message03), timestamp: opt(timestamp) });
const artifact03 = object({
  artifactId: id,
  name: opt(fc.string()),
  description: opt(fc.string()),
  parts: fc.array(part03, { minLength: 1, maxLength: 3 }),
  metadata: opt(metadata),
  extensions: opt(fc.array(fc.webUrl(), { maxLength: 1 })),
});
const task03 = object({
  kind: fc.constant("task"),
  id,
  contextId: fc.string({ maxLength: 4 }),
  status: status03,
  artifacts: opt(fc.array(artifact03, { maxLength: 2 })),
  history: opt(fc.array(message03, { maxLength: 2 })),
  metadata: opt(metadata),
});
const statusUpdate03 = object({
  kind: fc.constant("status-update"),
  taskId: id,
  contextId: id,
  status: status03,
  metadata: opt(metadata),
}).map((event) => ({ ...event, final: FINAL03.has((event.status as { state: string }).state) }));
const artifactUpdate03 = object({
  kind: fc.constant("artifact-update"),
  taskId: id,
  contextId: id,
  artifact: artifact03,
  append: opt(fc.boolean()),
  lastChunk: opt(fc.boolean()),
  metadata: opt(metadata),
});
const event03 = fc.oneof(task03, message03, statusUpdate03, artifactUpdate03);

const pushConfig03 = object({
  id: opt(id),
  url: fc.webUrl(),
  token: opt(fc.string()),
  authentication: opt(object({ schemes: fc.array(word, { maxLength: 1 }), credentials: opt(fc.string()) })),
});
const sendParams03 = object({
  message: message03,
  configuration: opt(
    object({
      acceptedOutputModes: opt(fc.array(word, { maxLength: 2 })),
      historyLength: opt(fc.nat(100)),
      blocking: opt(fc.boolean()),
      pushNotificationConfig: opt(pushConfig03),
    }),
  ),
  metadata: opt(metadata),
});

describe("0.3 -> 1.0 -> 0.3", () => {
  it("any stream event (or SendMessage result) comes back equal, valid in 1.0 on the way", () => {
    fc.assert(
      fc.property(event03, (event) => {
        expect(v03ResponseErrors("message/stream", { jsonrpc: "2.0", id: 1, result: event })).toEqual([]);
        const v1 = translateStreamEvent(event, "0.3", "1.0");
        expect(schemaErrors.v1("StreamResponse")(v1)).toEqual([]);
        expect(translateStreamEvent(v1, "1.0", "0.3")).toEqual(event);
      }),
      RUNS,
    );
  });

  it("any message/send call comes back equal, valid in 1.0 on the way", () => {
    fc.assert(
      fc.property(sendParams03, fc.constantFrom("message/send", "message/stream"), (params, method) => {
        const call = { method, params };
        expect(v03CallErrors(call)).toEqual([]);
        const v1 = translateRequest(call, "0.3", "1.0");
        expect(v1CallErrors(v1 as typeof call)).toEqual([]);
        expect(translateRequest(v1 as typeof call, "1.0", "0.3")).toEqual(call);
      }),
      RUNS,
    );
  });
});

// ---- 1.0 ----

const STATES1 = STATES03.map((state) => `TASK_STATE_${state === "unknown" ? "UNSPECIFIED" : state.toUpperCase().replace("-", "_")}`);
const FILE1 = { mediaType: opt(word), filename: opt(word) };
/** 1.0 parts 0.3 can carry: no mediaType/filename on text or data. */
const part1 = fc.oneof(
  object({ text: fc.string(), metadata: opt(metadata) }),
  object({ raw: fc.base64String(), ...FILE1, metadata: opt(metadata) }),
  object({ url: fc.webUrl(), ...FILE1, metadata: opt(metadata) }),
  object({ data: fc.dictionary(word, fc.jsonValue({ maxDepth: 2 })), metadata: opt(metadata) }),
  // 0.3 carries a value that is no object with a flag in part metadata, so an empty metadata object comes back absent.
  object({ data: notAnObject, metadata: opt(fc.dictionary(word, fc.jsonValue({ maxDepth: 2 }), { minKeys: 1, maxKeys: 3 })) }),
);
const message1 = object({
  messageId: id,
  contextId: opt(id),
  taskId: opt(id),
  role: fc.constantFrom("ROLE_USER", "ROLE_AGENT"),
  parts: fc.array(part1, { maxLength: 3 }),
  metadata: opt(metadata),
  extensions: opt(fc.array(fc.webUrl(), { maxLength: 2 })),
  referenceTaskIds: opt(fc.array(id, { maxLength: 2 })),
});
const status1 = object({ state: fc.constantFrom(...STATES1), message: opt(message1), timestamp: opt(timestamp) });
const artifact1 = object({
  artifactId: id,
  name: opt(fc.string()),
  description: opt(fc.string()),
  parts: fc.array(part1, { minLength: 1, maxLength: 3 }),
});
/** contextId: absent is the proto default, so an explicit "" is not generated (it comes back absent). */
const task1 = object({
  id,
  contextId: opt(id),
  status: status1,
  artifacts: opt(fc.array(artifact1, { maxLength: 2 })),
  history: opt(fc.array(message1, { maxLength: 2 })),
  metadata: opt(metadata),
});
const stream1 = fc.oneof(
  task1.map((task) => ({ task })),
  message1.map((message) => ({ message })),
  object({ taskId: id, contextId: id, status: status1, metadata: opt(metadata) }).map((statusUpdate) => ({ statusUpdate })),
  object({
    taskId: id,
    contextId: id,
    artifact: artifact1,
    append: opt(fc.boolean()),
    lastChunk: opt(fc.boolean()),
    metadata: opt(metadata),
  }).map((artifactUpdate) => ({ artifactUpdate })),
);

describe("1.0 -> 0.3 -> 1.0", () => {
  it("any StreamResponse comes back equal, valid in 0.3 on the way", () => {
    fc.assert(
      fc.property(stream1, (response) => {
        expect(schemaErrors.v1("StreamResponse")(response)).toEqual([]);
        const v03 = translateStreamEvent(response, "1.0", "0.3");
        expect(v03ResponseErrors("message/stream", { jsonrpc: "2.0", id: 1, result: v03 })).toEqual([]);
        expect(translateStreamEvent(v03, "0.3", "1.0")).toEqual(response);
      }),
      RUNS,
    );
  });
});
