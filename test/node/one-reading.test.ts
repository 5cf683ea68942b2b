// One reading end to end (DESIGN "One reading", "Push notifications"), real processes over raw sockets: the
// built bundle in workerd and `wrangler dev`, the push relay off and on, in front of an @a2a-js/sdk 1.3 origin
// that keeps push configs in its InMemoryPushNotificationStore and POSTs task updates with its
// DefaultPushNotificationSender. A loopback receiver stands for a private service: the edge has no
// PUSH_ALLOW_HTTP_LOOPBACK, so no caller may make anything call it (A2A 1.0 §13.2, push notification security). Each attack spells a config to it the way
// some other reader takes it (test/support/one-reading-attacks.ts) and is refused before the origin sees it,
// or admitted with the config dropped (the origin's own store then holds none); a control gives the same
// origin the first attack's body directly, and the receiver gets that task's updates, so the sender and the
// receiver were live all along. Then the spellings that must now work: the A2A TCK's (a2a-tck 1.0-dev) `task_id`
// on Get, List and Delete in front of a REST origin, and a 1.0 client's proto names reaching a 0.3 origin through the bridge.
import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureConsole, type LogEvent } from "../support/console";
import { type Edge, RUNTIMES, startEdge } from "../support/edge-runtimes";
import { type Attack, attacks, rpcText, sendCall } from "../support/one-reading-attacks";
import { type OriginAgent, startOriginAgent } from "../support/origin-agent";
import { type OriginAgentV03, startOriginAgentV03 } from "../support/origin-agent-v03";
import { type BoundedCall, exchange } from "../support/raw-bounded";
import { until } from "../support/wait";
import { startReceiver } from "../support/webhook-receiver";

/** What the replies here are read for (tasks, push configs, errors), parsed JSON read loosely. */
interface Answer {
  result?: Answer;
  error?: Answer;
  task?: Answer;
  id?: string;
  code?: number;
  status?: string;
  message?: string;
  url?: string;
  configs?: Answer[];
  history?: { messageId?: string }[];
}

let origin: OriginAgent;
let origin03: OriginAgentV03;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
/** PUSH_RELAY=on signs what it delivers: AUTH_ASSERTION_KEY. */
let relayKey: string;
/** The tasks the controls started: the only ones whose updates the private service may ever get. */
const controlTasks = new Set<string>();

beforeAll(async () => {
  receiver = await startReceiver();
  origin = await startOriginAgent({ push: true, streamDelayMs: 1, restPath: "/rest" });
  origin03 = await startOriginAgentV03({ streamDelayMs: 1 });
  const pair = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])) as CryptoKeyPair;
  relayKey = JSON.stringify({ ...(await crypto.subtle.exportKey("jwk", pair.privateKey)), kid: "one-reading" });
});
afterAll(async () => {
  await origin?.stop();
  await origin03?.stop();
  await receiver?.stop();
});

/** One call over a raw socket, its body parsed; a trace of its own (W3C Trace Context) finds its access line. */
async function send(edge: Edge, call: BoundedCall): Promise<{ status: number; body: Answer; text: string; trace: string }> {
  const trace = randomBytes(16).toString("hex");
  const traceparent = `00-${trace}-${randomBytes(8).toString("hex")}-01`;
  const reply = await exchange(edge.port, { ...call, headers: { ...call.headers, traceparent } }, 15_000, 1024 * 1024, { host: edge.host });
  expect(reply.ended, `the whole reply to ${call.path}`).toBe(true);
  return { status: reply.status, body: reply.body === "" ? {} : (JSON.parse(reply.body) as Answer), text: reply.body, trace };
}

/** The worker's access line of the call with this trace (a line may trail its reply). */
async function accessOf(edge: Edge, mark: number, trace: string): Promise<LogEvent> {
  const line = await until(() => edge.events(mark, "access").find((event) => event.traceId === trace), `the access line of trace ${trace}`);
  if (!line) throw new Error(`no access line of trace ${trace}`); // until resolves with a line, or throws
  return line;
}

/** The error of a JSON-RPC reply, a 1.0 REST one (google.rpc.Status) or a 0.3 REST one (the JSON-RPC error). */
function errorOf(body: Answer): { code: unknown; message: string } {
  const error = body.error ?? body;
  return { code: error.code, message: String(error.message) };
}

/** The task of a send's answer (1.0 `{task}`, REST `{task}`, 0.3 JSON-RPC the Task itself). */
const taskOf = (body: Answer): string => String(body.result?.task?.id ?? body.result?.id ?? body.task?.id);

/** The push configs the origin holds for a task, asked of the origin itself. */
async function originConfigs(taskId: string): Promise<Answer[]> {
  const response = await fetch(origin.url, {
    method: "POST",
    headers: { "content-type": "application/json", "A2A-Version": "1.0" },
    body: rpcText("ListTaskPushNotificationConfigs", JSON.stringify({ taskId })),
  });
  const body = (await response.json()) as Answer;
  expect(body.result, JSON.stringify(body)).toBeDefined();
  return body.result?.configs ?? []; // ProtoJSON leaves an empty list out
}

/** One attack through the edge: its verdict, what the origin received, the worker's access line; the task a dropped one started. */
async function run(edge: Edge, attack: Attack): Promise<string | undefined> {
  const before = origin.requests.length;
  const mark = edge.mark();
  const reply = await send(edge, attack.call);
  const seen = origin.requests.slice(before);
  const what = `${attack.carrier}, ${attack.name}: ${reply.status} ${reply.text}`;
  const rest = attack.carrier.startsWith("rest");
  const access = await accessOf(edge, mark, reply.trace);
  if (attack.verdict === "dropped") {
    expect(reply.status, what).toBe(attack.carrier === "rest 0.3" ? 201 : 200);
    expect(reply.body.error, what).toBeUndefined();
    // The origin got the send without any config: its canonical serialization, the foreign member gone.
    expect(
      seen.map((r) => JSON.parse(r.rawBody).params.configuration),
      what,
    ).toEqual([{}]);
    expect(access.reason, what).toBeUndefined();
    return taskOf(reply.body);
  }
  expect(seen, `what the origin received of ${what}`).toEqual([]);
  const error = errorOf(reply.body);
  expect(reply.status, what).toBe(rest ? 400 : 200);
  if (!rest) expect(error.code, what).toBe(attack.verdict.refused);
  expect(error.message, what).toContain(attack.verdict.says);
  // The access line records the refusal as answered (1.0 REST: its google.rpc.Status name).
  const code = attack.carrier === "rest 1.0" ? reply.body.error?.status : error.code;
  expect([access.status, access.errorCode], `${what} ${JSON.stringify(access)}`).toEqual([reply.status, code]);
  return undefined;
}

const V1 = { "content-type": "application/json", "A2A-Version": "1.0" };
const CONFIGURATIONS = RUNTIMES.flatMap((runtime) => (["off", "on"] as const).map((relay) => [runtime, relay] as const));

describe.each(CONFIGURATIONS)("one reading over raw sockets, %s, relay %s", (runtime, relay) => {
  let edge: Edge;
  let restEdge: Edge;
  let bridgeEdge: Edge;

  beforeAll(async () => {
    const common = {
      EDGE_AUTH: "off",
      REST_PATH: "/rest",
      ACCESS_LOG: "all",
      ...(relay === "on" ? { PUSH_RELAY: "on", AUTH_ASSERTION_KEY: relayKey } : {}),
    };
    [edge, restEdge, bridgeEdge] = await Promise.all([
      startEdge(runtime, { ...common, ORIGIN_URL: origin.url }),
      startEdge(runtime, { ...common, ORIGIN_BINDING: "http+json", ORIGIN_REST_URL: `${origin.url}rest`, ORIGIN_PROTOCOL_VERSIONS: "1.0" }),
      startEdge(runtime, { ...common, ORIGIN_URL: origin03.url, ORIGIN_PROTOCOL_VERSIONS: "0.3" }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([edge?.stop(), restEdge?.stop(), bridgeEdge?.stop()]);
  });

  it("refuses every attack on the private service, or admits it without the config; the private service is never called", async () => {
    const console = captureConsole(); // the origin's sender logs each delivery of the control
    const plain = await send(edge, sendCall("jsonrpc 1.0", ""));
    const taskId = taskOf(plain.body);
    const tasks = [taskId];
    for (const attack of attacks({ privateUrl: receiver.url, taskId })) {
      const started = await run(edge, attack);
      if (started) tasks.push(started);
    }
    // Causally, not by waiting: the origin's store, which its sender reads, holds no config for any task touched.
    for (const id of tasks) expect(await originConfigs(id), `the origin's configs of task ${id}`).toEqual([]);
    expect(receiver.deliveries.filter((d) => ![...controlTasks].some((id) => d.body.includes(id)))).toEqual([]);

    // The control: the first attack's body sent to the origin directly. The SDK origin reads the proto name
    // and POSTs the task's updates to the private service: what the edge stands between.
    const direct = sendCall("jsonrpc 1.0", `"task_push_notification_config":{"url":${JSON.stringify(receiver.url)}}`);
    const response = await fetch(origin.url, { method: "POST", headers: direct.headers, body: direct.body });
    const control = taskOf((await response.json()) as Answer);
    controlTasks.add(control);
    // The store the checks above read holds the control's config: they asked the right store.
    expect((await originConfigs(control)).map((config) => config.url)).toEqual([receiver.url]);
    const ofControl = () => receiver.deliveries.filter((d) => d.body.includes(control));
    await until(() => ofControl().some((d) => d.body.includes("TASK_STATE_COMPLETED")), "the control's last update at the private service");
    expect(receiver.deliveries.filter((d) => ![...controlTasks].some((id) => d.body.includes(id)))).toEqual([]);
    await until(() => console.lines.length >= ofControl().length, "the sender's line of each delivery");
    for (const line of console.lines) expect(line).toBe(`Push notification sent for task_id=${control} to URL: ${receiver.url}`);
  });

  it("the A2A TCK's task_id (proto name) on Get, List and Delete reaches a REST origin, which answers with the config", async () => {
    const console = captureConsole();
    const rpc = (method: string, params: string) =>
      send(restEdge, { method: "POST", path: "/", headers: V1, body: rpcText(method, params) });
    // The origin gets a webhook as the guard serialized it (WHATWG URL), whoever reads it after.
    const hook = "https://hooks.example.com/tck";
    // A finished task: no update follows, so nobody ever calls the hook.
    const task = taskOf(
      (await rpc("SendMessage", `{"message":{"messageId":"${randomUUID()}","role":"ROLE_USER","parts":[{"text":"hi"}]}}`)).body,
    );
    const config = { taskId: task, id: "tck-1", url: hook };
    const created = await rpc(
      "CreateTaskPushNotificationConfig",
      JSON.stringify({ ...config, url: "https://HOOKS.example.com:443/a2a/../tck" }),
    );
    expect(created.body.result, created.text).toMatchObject(config);
    // The origin holds the client's hook, or with the relay on the edge's URL in its place (PUSH_RELAY).
    const held = (await originConfigs(task)).map((c) => c.url);
    expect(held).toEqual([relay === "on" ? expect.stringMatching(`^http://${restEdge.host}/_push/`) : hook]);
    const ids = `"task_id":${JSON.stringify(task)}`;
    const got = await rpc("GetTaskPushNotificationConfig", `{${ids},"id":"tck-1"}`);
    expect(got.body.result, got.text).toMatchObject(config);
    const listed = await rpc("ListTaskPushNotificationConfigs", `{${ids}}`);
    expect(listed.body.result?.configs, listed.text).toMatchObject([config]);
    const deleted = await rpc("DeleteTaskPushNotificationConfig", `{${ids},"id":"tck-1"}`);
    expect(deleted.body, deleted.text).toMatchObject({ result: {} });
    // The origin did delete it: the delete reached it with the task the TCK named.
    expect(await originConfigs(task)).toEqual([]);
    expect(console.lines).toEqual([]);
  });

  it("a 1.0 client's proto names (message_id, task_id) reach a 0.3 origin through the bridge as messageId and taskId", async () => {
    const console = captureConsole();
    const call = (rest: boolean, message: Record<string, string>): BoundedCall => {
      const body = JSON.stringify({ message: { ...message, role: "ROLE_USER", parts: [{ text: "hi" }] } });
      return rest
        ? { method: "POST", path: "/rest/message:send", headers: V1, body }
        : { method: "POST", path: "/", headers: V1, body: rpcText("SendMessage", body) };
    };
    for (const rest of [false, true]) {
      const what = rest ? "HTTP+JSON" : "JSON-RPC";
      const before = origin03.requests.length;
      const messageId = randomUUID();
      const sent = await send(bridgeEdge, call(rest, { message_id: messageId }));
      // The origin kept the client's message under the id it sent: the task's history names it.
      const history = (rest ? sent.body.task : sent.body.result?.task)?.history ?? [];
      expect(
        history.map((m) => m.messageId),
        `${what}: ${sent.text}`,
      ).toContain(messageId);
      // A task the origin does not have: its TaskNotFoundError shows it read task_id as the message's taskId.
      const taskId = `missing-${randomUUID()}`;
      const continued = await send(bridgeEdge, call(rest, { message_id: randomUUID(), task_id: taskId }));
      if (rest) expect(continued.status, `${what}: ${continued.text}`).toBe(404);
      else expect(continued.body.error?.code, `${what}: ${continued.text}`).toBe(-32001);
      const seen = origin03.requests.slice(before).map((r) => JSON.parse(r.rawBody).params.message);
      expect(seen, what).toMatchObject([{ messageId }, { taskId }]);
      expect(
        seen.map((m) => Object.keys(m).filter((key) => key.includes("_"))),
        what,
      ).toEqual([[], []]);
    }
    expect(console.lines).toEqual([]);
  });
});
