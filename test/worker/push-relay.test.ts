// The push relay inside workerd, with its real Durable Object (PUSH_RELAYS, SQLite storage): with PUSH_RELAY=on
// the origin receives the edge's URL and token in place of the client's, in every binding and version the
// config can travel in; Create, Get and List give the client its own webhook back; Delete ends the relay; the
// relay endpoint takes a notification only with the config's token, of the config's task. Delivery to a real
// receiver, retries and the JWT: test/node/e2e-push-relay.test.ts.
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { exportJWK, generateKeyPair } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { captureConsole } from "../support/console";
import { until } from "../support/wait";
import { call, callVia, documentsKv, fakeOrigin, makeEnv } from "../support/worker";

const ORIGIN = "https://agent-origin.example.net/rpc";
const HOST = "https://agents.example.com";
const CLIENT = { url: "https://hooks.example.com/a2a", token: "client-token" };
let key: string;

beforeAll(async () => {
  const pair = await generateKeyPair("ES256", { extractable: true });
  key = JSON.stringify({ ...(await exportJWK(pair.privateKey)), kid: "relay-test" });
});

/** An origin that stores the last config it was given and echoes it, as an SDK origin does. */
function storingOrigin() {
  let stored: Record<string, unknown> | undefined;
  const origin = fakeOrigin(async (request) => {
    const { id, method, params } = (await request.json()) as { id: unknown; method: string; params: Record<string, unknown> };
    if (method === "CreateTaskPushNotificationConfig") {
      stored = { ...params, id: params.id ?? "c1" };
      return Response.json({ jsonrpc: "2.0", id, result: stored });
    }
    if (method === "GetTaskPushNotificationConfig") return Response.json({ jsonrpc: "2.0", id, result: stored });
    if (method === "ListTaskPushNotificationConfigs") return Response.json({ jsonrpc: "2.0", id, result: { configs: [stored] } });
    if (method === "DeleteTaskPushNotificationConfig") return Response.json({ jsonrpc: "2.0", id, result: {} });
    const taskId = (params.message as { taskId?: string } | undefined)?.taskId ?? "t-new";
    return Response.json({
      jsonrpc: "2.0",
      id,
      result: { task: { id: taskId, contextId: "c", status: { state: "TASK_STATE_SUBMITTED" } } },
    });
  });
  return { origin, stored: () => stored };
}

const relayEnv = (vars: Record<string, unknown> = {}) =>
  makeEnv({
    ORIGIN_URL: ORIGIN,
    EDGE_AUTH: "off",
    SKILLS: documentsKv({ default: { name: "Relay Agent" } }),
    PUSH_RELAY: "on",
    AUTH_ASSERTION_KEY: key,
    ...vars,
  });

/** The relay object of the host the tests call (agents.example.com). */
function relayOf(env: object) {
  const relays = (env as { PUSH_RELAYS: DurableObjectNamespace }).PUSH_RELAYS;
  return relays.get(relays.idFromName("agents.example.com"));
}

/**
 * The relay's one attempt at the notification it accepted, as logged. The alarm is run now (inside the test
 * runner it may also run by itself, set for "now"; under wrangler dev it does: e2e-push-relay), so its log line
 * lands in this test and not after it.
 */
async function attempted(env: object, console: ReturnType<typeof captureConsole>) {
  await runDurableObjectAlarm(relayOf(env));
  return until(() => console.events("push_delivery_failed")[0], "the accepted notification's one attempt");
}

const rpc = (method: string, params: unknown) => ({
  method: "POST",
  headers: { "content-type": "application/json", "A2A-Version": method.includes("/") ? "0.3" : "1.0" },
  body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
});

describe("the push relay (PUSH_RELAY=on)", () => {
  it("gives the origin the edge's URL and token, never the client's, and the client its own webhook back", async () => {
    const { origin, stored } = storingOrigin();
    const env = relayEnv();
    const params = { taskId: "t1", ...CLIENT, authentication: { scheme: "Bearer", credentials: "client-secret" } };
    const created = await callVia(origin, `${HOST}/`, rpc("CreateTaskPushNotificationConfig", params), env);
    const echoed = ((await created.json()) as { result: Record<string, unknown> }).result;
    expect(echoed).toMatchObject({ ...CLIENT, authentication: { scheme: "Bearer", credentials: "client-secret" }, id: "c1" });
    const seen = new TextDecoder().decode(origin.bodies[0]);
    for (const secret of [CLIENT.url, CLIENT.token, "client-secret", "hooks.example.com"]) expect(seen).not.toContain(secret);
    expect(stored()?.url).toMatch(/^https:\/\/agents\.example\.com\/_push\/[A-Za-z0-9_-]{22}$/);
    expect(stored()?.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(stored()?.authentication).toBeUndefined();
    for (const [method, pick] of [
      ["GetTaskPushNotificationConfig", (r: Record<string, unknown>) => r],
      ["ListTaskPushNotificationConfigs", (r: Record<string, unknown>) => (r.configs as Record<string, unknown>[])[0]],
    ] as const) {
      const response = await callVia(origin, `${HOST}/`, rpc(method, { taskId: "t1", id: "c1" }), env);
      const result = pick(((await response.json()) as { result: Record<string, unknown> }).result);
      expect(result, method).toMatchObject(CLIENT);
      expect(JSON.stringify(result), method).not.toContain("_push");
    }
  });

  it("relays configs inline in a send and in 0.3 and REST calls alike", async () => {
    const cases: [string, RequestInit][] = [
      [
        "/",
        rpc("SendMessage", {
          message: { messageId: "m", role: "ROLE_USER", parts: [{ text: "hi" }] },
          configuration: { taskPushNotificationConfig: CLIENT },
        }),
      ],
      ["/", rpc("tasks/pushNotificationConfig/set", { taskId: "t1", pushNotificationConfig: CLIENT })],
      [
        "/rest/tasks/t1/pushNotificationConfigs",
        { method: "POST", headers: { "content-type": "application/json", "A2A-Version": "1.0" }, body: JSON.stringify(CLIENT) },
      ],
    ];
    for (const [path, init] of cases) {
      const { origin } = storingOrigin();
      const response = await callVia(origin, `${HOST}${path}`, init, relayEnv({ REST_PATH: "/rest", ORIGIN_PROTOCOL_VERSIONS: "1.0" }));
      expect(response.status, path).toBeLessThan(300);
      const seen = new TextDecoder().decode(origin.bodies[0]);
      expect(seen, path).toContain("/_push/");
      expect(seen, path).not.toContain(CLIENT.url);
      expect(seen, path).not.toContain(CLIENT.token);
    }
  });

  it("takes a notification only with the config's token, for the config's task; Delete ends the relay", async () => {
    const console = captureConsole();
    const { origin, stored } = storingOrigin();
    // One attempt, logged as lost: the relay object reads the deployment's own variables (wrangler.toml's, no
    // signing key here), and a relay that cannot sign does not deliver.
    const env = relayEnv({ PUSH_RELAY_ATTEMPTS: "1" });
    await callVia(origin, `${HOST}/`, rpc("CreateTaskPushNotificationConfig", { taskId: "t1", ...CLIENT }), env);
    const { url, token } = stored() as { url: string; token: string };
    const notify = (headers: Record<string, string>, body: unknown, to = url) =>
      call(to, { method: "POST", headers: { "content-type": "application/a2a+json", ...headers }, body: JSON.stringify(body) }, env);
    const update = (taskId: string) => ({ statusUpdate: { taskId, contextId: "c", status: { state: "TASK_STATE_WORKING" } } });
    expect((await notify({}, update("t1"))).status, "no token").toBe(401);
    expect((await notify({ "x-a2a-notification-token": "forged" }, update("t1"))).status, "forged token").toBe(401);
    const unknown = `${HOST}/_push/AAAAAAAAAAAAAAAAAAAAAA`;
    expect((await notify({ "x-a2a-notification-token": token }, update("t1"), unknown)).status, "unknown ref").toBe(401);
    expect((await notify({ "x-a2a-notification-token": token }, update("t2"))).status, "another task").toBe(403);
    const tooBig = { statusUpdate: { taskId: "t1", metadata: { pad: "x".repeat(1024 * 1024) } } };
    expect((await notify({ "x-a2a-notification-token": token }, tooBig)).status, "over the bound").toBe(413);
    expect((await notify({ "x-a2a-notification-token": token }, update("t1"))).status, "the origin's").toBe(202);
    const reasons = console.events("push_notification_refused").map((l) => l.reason);
    expect(reasons).toEqual(["no_token", "bad_token", "unknown_ref", "other_task", "too_large"]);
    expect(await attempted(env, console)).toMatchObject({
      task: "t1",
      attempts: 1,
      webhook: "hooks.example.com",
      status: 0,
      error: "no_signing_key",
    });
    await callVia(origin, `${HOST}/`, rpc("DeleteTaskPushNotificationConfig", { taskId: "t1", id: "c1" }), env);
    expect((await notify({ "x-a2a-notification-token": token }, update("t1"))).status, "after Delete").toBe(401);
  });

  it("wakes for a webhook's retry, not for the notification queued behind it", async () => {
    const console = captureConsole();
    const { origin, stored } = storingOrigin();
    const env = relayEnv({ PUSH_RELAY_ATTEMPTS: "3", PUSH_RELAY_RETRY_MS: "60000" });
    await callVia(origin, `${HOST}/`, rpc("CreateTaskPushNotificationConfig", { taskId: "t1", ...CLIENT }), env);
    const { url, token } = stored() as { url: string; token: string };
    const headers = { "content-type": "application/a2a+json", "x-a2a-notification-token": token };
    for (const state of ["TASK_STATE_WORKING", "TASK_STATE_COMPLETED"]) {
      const body = JSON.stringify({ statusUpdate: { taskId: "t1", contextId: "c", status: { state } } });
      expect((await call(url, { method: "POST", headers, body }, env)).status).toBe(202);
    }
    // The first fails (this relay cannot sign) and waits 60 s to retry; the second waits behind it, in order.
    const relay = relayOf(env);
    await runDurableObjectAlarm(relay);
    await until(() => console.events("push_delivery_retry")[0], "the first notification's retry");
    const alarm = await runInDurableObject(relay, (_instance, state) => state.storage.getAlarm());
    // Not "now" again and again (empty wake-ups that never came to the retry): the retry's own time.
    expect(alarm, "the relay's next alarm").toBeGreaterThan(Date.now() + 30_000);
    expect(console.events("push_delivery_retry")).toHaveLength(1);
  });

  it("reads a notification once: proto names taken, and every member that names a task must name the config's", async () => {
    const console = captureConsole();
    const { origin, stored } = storingOrigin();
    const env = relayEnv({ PUSH_RELAY_ATTEMPTS: "1" });
    await callVia(origin, `${HOST}/`, rpc("CreateTaskPushNotificationConfig", { taskId: "t1", ...CLIENT }), env);
    const { url, token } = stored() as { url: string; token: string };
    const notify = (body: string) =>
      call(url, { method: "POST", headers: { "content-type": "application/a2a+json", "x-a2a-notification-token": token }, body }, env);
    /** A status, its message naming `messageTask` when given. */
    const status = (messageTask?: string) => ({
      state: "TASK_STATE_WORKING",
      ...(messageTask ? { message: { messageId: "m", role: "ROLE_AGENT", parts: [{ text: "x" }], taskId: messageTask } } : {}),
    });
    const task = { id: "t1", contextId: "c", status: status() };
    const cases: [string, string, number][] = [
      // Two members of the StreamResponse oneof: ts-proto reads the first, Go's protojson refuses it.
      ["task and statusUpdate", JSON.stringify({ task, statusUpdate: { taskId: "t2", contextId: "c", status: status() } }), 400],
      ["another task in the status message", JSON.stringify({ task: { ...task, status: status("t2") } }), 403],
      [
        "another task in the history",
        JSON.stringify({ task: { ...task, history: [{ messageId: "h", role: "ROLE_USER", parts: [], taskId: "t2" }] } }),
        403,
      ],
      ["a key named twice", `{"statusUpdate":{"taskId":"t2","taskId":"t1","contextId":"c","status":{"state":"TASK_STATE_WORKING"}}}`, 400],
      [
        "a member in another case",
        JSON.stringify({ statusUpdate: { taskId: "t1", TaskId: "t2", contextId: "c", status: status("t1") } }),
        400,
      ],
      ["proto names, of its task", JSON.stringify({ status_update: { task_id: "t1", context_id: "c", status: { state: 2 } } }), 202],
    ];
    for (const [what, body, expected] of cases) expect((await notify(body)).status, what).toBe(expected);
    const reasons = console.events("push_notification_refused").map((l) => l.reason);
    expect(reasons).toEqual(["unreadable", "tasks_differ", "tasks_differ", "not_json", "unreadable"]);
    // The one it took is attempted within the test, not after it.
    expect(await attempted(env, console)).toMatchObject({ task: "t1", attempts: 1, error: "no_signing_key" });
  });

  it("is off by default: the origin gets the client's webhook, and no relay endpoint exists", async () => {
    const { origin, stored } = storingOrigin();
    const env = relayEnv({ PUSH_RELAY: "off" });
    await callVia(origin, `${HOST}/`, rpc("CreateTaskPushNotificationConfig", { taskId: "t1", ...CLIENT }), env);
    expect(stored()).toMatchObject(CLIENT);
    expect((await call(`${HOST}/_push/AAAAAAAAAAAAAAAAAAAAAA`, { method: "POST", body: "{}" }, env)).status).toBe(404);
  });

  it("the page says whether notifications are relayed", async () => {
    const documents = { default: { name: "Relay Agent", capabilities: { pushNotifications: true } } };
    const page = async (relay: string) => {
      const env = relayEnv({ PUSH_RELAY: relay, SKILLS: documentsKv(documents) });
      return (await call(`${HOST}/`, { headers: { accept: "text/html" } }, env)).text();
    };
    expect(await page("on")).toContain("Push notifications: yes (webhook URLs guarded at the edge; notifications relayed by the edge");
    expect(await page("off")).toContain("notifications sent by the agent, not relayed");
  });

  it("refuses to start without a key to sign deliveries with", async () => {
    const console = captureConsole();
    const response = await call(`${HOST}/.well-known/agent-card.json`, {}, relayEnv({ AUTH_ASSERTION_KEY: "" }));
    expect(response.status).toBe(500);
    expect(await response.text()).toContain("PUSH_RELAY");
    expect(console.lines.join("\n")).toContain("config_invalid");
  });
});
