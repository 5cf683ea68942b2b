// One reading, differentially (DESIGN "One reading"): requests that spell every policy-relevant field in
// every way some reader accepts (JSON and proto names, another case, both spellings, a key twice, unknown
// members, the other generation's place; test/support/one-reading-cases.ts) go through the worker to an
// origin of each kind, and what the origin received is read by the real SDKs and by stand-ins for Go's
// and Python's readers (test/support/origin-readers.ts). Whatever the edge forwards, each reader must take
// only what the edge checked: push URLs the guard admits (A2A 1.0 §13.2, push notification security),
// header-bound values without control characters, the operation the edge admitted (METHOD_ALLOWLIST), and
// the same ids, tenant and historyLength as every other reader and as the edge's own reading of what it sent.
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { Tally } from "../support/arbitraries";
import { captureConsole } from "../support/console";
import { type Case, caseArb } from "../support/one-reading-cases";
import { type OriginKind, type Reading, type Received, readAsEdge, readAsOrigins } from "../support/origin-readers";
import { GOOD_URLS } from "../support/spellings";
import { callVia, documentsKv, makeEnv } from "../support/worker";

const HOST = "https://agents.example.com";
const ORIGIN = "https://origin.example.net";
const REST_BASE = "/a2a/rest";
/** Every operation but CancelTask, by its 1.0 name (the allowlist names operations: 0.3's names are the same ones). */
const METHOD_ALLOWLIST = "SendMessage,GetTask,ListTasks,CreateTaskPushNotificationConfig,GetTaskPushNotificationConfig";
const ALLOWED = new Set(["sendMessage", "getTask", "createPushNotificationConfig", "getPushNotificationConfig"]);
/** The URLs marked good, and the WHATWG serialization the edge forwards in their place. */
const GOOD = new Set(GOOD_URLS.flatMap((url) => [url, new URL(url).href]));
/** C0, DEL and C1 (NEL among them): what must never reach a header an origin writes. */
const hasControl = (text: string) => [...text].some((char) => (char.codePointAt(0) ?? 0) < 0x20 || /[\u007f-\u009f]/.test(char));
const RUNS = { seed: 20_261_117, numRuns: 2000 };
/** A bound, not a measure: 2000 calls through the worker take a few seconds, more beside another test run. */
const TIMEOUT_MS = 60_000;

interface Origin extends OriginKind {
  name: string;
  vars: Record<string, string>;
}
const ORIGINS: readonly Origin[] = (["1.0", "0.3"] as const).flatMap((generation): Origin[] => [
  {
    name: `jsonrpc ${generation}`,
    binding: "jsonrpc",
    generation,
    vars: { ORIGIN_URL: `${ORIGIN}/rpc`, ORIGIN_PROTOCOL_VERSIONS: generation },
  },
  {
    name: `http+json ${generation}`,
    binding: "http+json",
    generation,
    vars: { ORIGIN_BINDING: "http+json", ORIGIN_REST_URL: `${ORIGIN}${REST_BASE}`, ORIGIN_PROTOCOL_VERSIONS: generation },
  },
]);

const TASK_V1 = { id: "task-1", contextId: "ctx-1", status: { state: "TASK_STATE_COMPLETED" } };
const CONFIG_V1 = { taskId: "task-1", id: "cfg-1", url: "https://hooks.example.com/a2a/1" };
const ANSWERS: Record<string, (method: string) => unknown> = {
  "jsonrpc 1.0": (method) => (method === "SendMessage" ? { task: TASK_V1 } : method.includes("Push") ? CONFIG_V1 : TASK_V1),
  "jsonrpc 0.3": (method) =>
    method.includes("push")
      ? { taskId: "task-1", pushNotificationConfig: { id: "cfg-1", url: CONFIG_V1.url } }
      : { kind: "task", id: "task-1", contextId: "ctx-1", status: { state: "completed" } },
  "http+json 1.0": (path) => (path.endsWith(":send") ? { task: TASK_V1 } : path.includes("push") ? CONFIG_V1 : TASK_V1),
  "http+json 0.3": (path) =>
    path.endsWith(":send")
      ? { task: TASK_V1 }
      : path.includes("push")
        ? { name: "tasks/task-1/pushNotificationConfigs/cfg-1", pushNotificationConfig: { id: "cfg-1", url: CONFIG_V1.url } }
        : TASK_V1,
};

/** The origin of every deployment: records what it receives, answers as an agent of its kind would. */
const seen: Received[] = [];
let answering = "jsonrpc 1.0";
const origin = {
  async fetch(input: string, init?: RequestInit): Promise<Response> {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const body = request.method === "GET" ? "" : await request.text();
    const path = url.pathname.startsWith(REST_BASE) ? url.pathname.slice(REST_BASE.length) : "";
    seen.push({ httpMethod: request.method, path, query: url.searchParams, body });
    if (path !== "") return Response.json(ANSWERS[answering]?.(path));
    const rpc = JSON.parse(body) as { id: unknown; method: string };
    return Response.json({ jsonrpc: "2.0", id: rpc.id, result: ANSWERS[answering]?.(rpc.method) });
  },
};

const envs = new Map<Origin, Env>();
beforeAll(() => {
  const kv = documentsKv({ default: { name: "One Reading Agent", capabilities: { pushNotifications: true } } });
  for (const o of ORIGINS) envs.set(o, makeEnv({ EDGE_AUTH: "off", REST_PATH: "/rest", METHOD_ALLOWLIST, SKILLS: kv, ...o.vars }));
});

/** The counterexample, whole: the request, what the origin received, what each reader took. */
function explain(c: Case, o: Origin, received: Received | undefined, readings: unknown[]): string {
  const got = received && { ...received, query: received.query.toString() };
  return JSON.stringify({ request: c.request, labels: c.labels, origin: o.name, received: got, readings }, null, 1);
}

/** Whether a case must be admitted: clean spellings, good values, an allowed operation, one task named. */
const mustAdmit = (c: Case) =>
  ALLOWED.has(c.operation) &&
  !c.labels.some((label) => ["tricky", "bad value", "refused method", "query given twice", "name names another task"].includes(label));

/** Checks what each reader takes; returns what it saw, for the share counters. */
function checkReadings(c: Case, o: Origin, received: Received): string[] {
  const saw: string[] = [];
  const readings: Reading[] = readAsOrigins(o, received);
  const edge = readAsEdge(o, received);
  const why = explain(c, o, received, [{ reader: "edge (src/messages)", ...edge }, ...readings]);
  if ("refused" in edge) throw new Error(`the edge cannot read what it forwarded\n${why}`);
  // The received bytes or the canonical serialization, never a third form (DESIGN "One reading").
  expect(edge.changed, `forwarded in a form its own reading changes\n${why}`).toBe(false);
  for (const reading of readings) {
    if ("refused" in reading) {
      // Taking nothing is safe. The one case expected: a JSON number of integer value written `3.0` or `1e1`,
      // which ProtoJSON, ts-proto and pydantic read as that integer and Go's encoding/json refuses for an int.
      const expected = reading.reader === "Go encoding/json" && c.labels.includes("integer as 3.0 or 1e1");
      expect(expected, `${reading.reader} refuses: ${reading.refused}\n${why}`).toBe(true);
      saw.push(`${o.name}: ${reading.reader} refused what the edge forwarded`);
      continue;
    }
    expect(reading.operation, why).toBe(c.operation);
    expect(ALLOWED.has(reading.operation ?? ""), why).toBe(true);
    for (const url of reading.urls) expect(GOOD.has(url), `${reading.reader} takes ${JSON.stringify(url)}\n${why}`).toBe(true);
    for (const token of reading.tokens) expect(hasControl(token), `${reading.reader} takes ${JSON.stringify(token)}\n${why}`).toBe(false);
    for (const [name, value] of Object.entries(reading.ids)) expect(value, `${reading.reader}: ${name}\n${why}`).toEqual(edge.ids[name]);
    if (reading.urls.length > 0) saw.push("a reader took a push URL");
  }
  return saw;
}

describe("the origin readers read as their originals do", () => {
  const rpc = (params: string, method = "CreateTaskPushNotificationConfig") =>
    `{"jsonrpc":"2.0","id":1,"method":"${method}","params":${params}}`;
  /** What each reader takes of `pick` from a JSON-RPC body (or why it refuses it). */
  const taken = (origin: OriginKind, body: string, pick: "urls" | "tokens" | "ids") =>
    Object.fromEntries(
      readAsOrigins(origin, { httpMethod: "POST", path: "", query: new URLSearchParams(), body }).map((r) => [
        r.reader,
        "refused" in r ? r.refused : r[pick],
      ]),
    );
  const V1: OriginKind = { binding: "jsonrpc", generation: "1.0" };
  const V03: OriginKind = { binding: "jsonrpc", generation: "0.3" };
  const [A, B] = ["https://a.example/", "https://b.example/"];

  // Spellings the edge refuses: the readers must disagree on each, or the property below could not see it.
  it.each([
    ["a name in another case", rpc(`{"taskId":"t","url":"${A}","URL":"${B}"}`), "urls", [A], [B], [A]],
    ["the Kelvin sign for k", rpc('{"taskId":"t","token":"y","to\u212aen":"x"}'), "tokens", ["y"], ["x"], ["y"]],
    ["a key twice", rpc(`{"taskId":"t","url":"${A}","url":"${B}"}`), "urls", [B], [B], [A]],
    ["a proto name", rpc(`{"configuration":{"task_push_notification_config":{"url":"${A}"}}}`, "SendMessage"), "urls", [A], [], []],
  ] as const)("%s (1.0: @a2a-js/sdk, Go, first member)", (_name, body, pick, sdk, go, first) => {
    expect(taken(V1, body, pick)).toEqual({ "@a2a-js/sdk 1.3": sdk, "Go encoding/json": go, "first member wins": first });
  });

  it("0.3: pydantic takes the alias, else the snake_case name; a2a-js 0.3 the alias only; Go folds `ſ` to s", () => {
    const set = (params: string) => rpc(params, "tasks/pushNotificationConfig/set");
    expect(
      taken(V03, set(`{"taskId":"t","push_notification_config":{"url":"${B}"},"pushNotificationConfig":{"url":"${A}"}}`), "urls"),
    ).toMatchObject({
      "a2a-js 0.3": [A],
      "pydantic (a2a-python 0.3)": [A],
    });
    expect(taken(V03, set(`{"taskId":"t","push_notification_config":{"url":"${B}"}}`), "urls")).toMatchObject({
      "a2a-js 0.3": [],
      "pydantic (a2a-python 0.3)": [B],
    });
    expect(taken(V03, set(`{"taskId":"t","ta\u017fkId":"u","pushNotificationConfig":{"url":"${A}"}}`), "ids")).toMatchObject({
      "a2a-js 0.3": { taskId: "t" },
      "Go encoding/json": { taskId: "u" },
    });
  });
});

describe("one reading: what the edge forwards, every origin reader reads as the edge did", () => {
  it(
    "each reader takes only checked URLs and tokens, the admitted operation, and the ids the edge read",
    async ({ annotate }) => {
      captureConsole();
      const tally = new Tally();
      const origins = fc.constantFrom(...ORIGINS);
      await fc.assert(
        fc.asyncProperty(caseArb, origins, async (c, o) => {
          seen.length = 0;
          answering = o.name;
          const { method, headers, body } = c.request;
          const response = await callVia(origin, `${HOST}${c.request.path}`, { method, headers, ...(body ? { body } : {}) }, envs.get(o));
          const text = await response.text();
          const carrier = `${c.carrier.binding} ${c.carrier.generation}`;
          const received = seen[0];
          const verdict = received ? "admitted" : "refused";
          const labels = [`${carrier} ${verdict}`, `to ${o.name} ${verdict}`, verdict, ...c.labels.map((label) => `${verdict}: ${label}`)];
          expect(seen.length, explain(c, o, received, [])).toBeLessThanOrEqual(1);
          if (mustAdmit(c)) expect(verdict, `${text}\n${explain(c, o, received, [])}`).toBe("admitted");
          if (!received) {
            // A refusal is the edge's answer: a JSON-RPC error, or a REST status of 400 and above.
            if (c.carrier.binding === "jsonrpc") expect(text, explain(c, o, received, [])).toContain('"error"');
            else expect(response.status, `${text}\n${explain(c, o, received, [])}`).toBeGreaterThanOrEqual(400);
            tally.add(...new Set(labels));
            return;
          }
          tally.add(...new Set([...labels, ...checkReadings(c, o, received)]));
        }),
        RUNS,
      );
      await annotate(tally.toString(), "shares");
      expect(tally.share("admitted"), tally.toString()).toBeGreaterThanOrEqual(0.3);
      for (const carrier of ["jsonrpc 1.0", "jsonrpc 0.3", "http+json 1.0", "http+json 0.3"]) {
        const admitted = tally.count(`${carrier} admitted`);
        expect(admitted / (admitted + tally.count(`${carrier} refused`)), `${carrier}: ${tally}`).toBeGreaterThanOrEqual(0.3);
      }
      for (const spelling of [
        "proto name",
        "case variant",
        "case duplicate",
        "two spellings",
        "duplicate key",
        "unknown member",
        "other place",
      ])
        expect(tally.count(`refused: ${spelling}`) + tally.count(`admitted: ${spelling}`), spelling).toBeGreaterThanOrEqual(20);
      expect(tally.count("a reader took a push URL"), tally.toString()).toBeGreaterThanOrEqual(50);
    },
    TIMEOUT_MS,
  );
});
