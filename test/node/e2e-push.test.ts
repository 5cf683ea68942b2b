// Push notification webhooks end to end, real processes: an @a2a-js/sdk 1.3 origin agent that supports push
// notifications (its InMemoryPushNotificationStore and DefaultPushNotificationSender), the worker
// (the built bundle in workerd) in front of it with PUSH_ALLOW_HTTP_LOOPBACK=true, and a webhook receiver on loopback.
// Refused configs, in every binding and version, inline and separate, never reach the origin (it records
// every call); the https rule is proved by refusals (the receiver is reached over plain http only through
// the development exception). Deliveries go from the origin to the receiver directly: there is no relay.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureConsole } from "../support/console";
import { type Served, startWorker } from "../support/e2e";
import { type OriginAgent, startOriginAgent } from "../support/origin-agent";
import { until } from "../support/wait";
import { startReceiver } from "../support/webhook-receiver";

type Binding = "jsonrpc-1.0" | "jsonrpc-0.3" | "rest-1.0" | "rest-0.3";
const BINDINGS: readonly Binding[] = ["jsonrpc-1.0", "jsonrpc-0.3", "rest-1.0", "rest-0.3"];

const MESSAGE = {
  "1.0": () => ({ messageId: randomUUID(), role: "ROLE_USER", parts: [{ text: "hi" }] }),
  "0.3": () => ({ kind: "message", messageId: randomUUID(), role: "user", parts: [{ kind: "text", text: "hi" }] }),
};

/** The request that carries `config` in `binding`: inline in a send, or as a create of its own. */
function pushCall(binding: Binding, inline: boolean, config: Record<string, unknown>): { path: string; body: unknown; version: string } {
  const [wire, version] = binding.split("-") as ["jsonrpc" | "rest", "1.0" | "0.3"];
  const message = MESSAGE[version]();
  if (wire === "jsonrpc") {
    const method = inline
      ? version === "1.0"
        ? "SendMessage"
        : "message/send"
      : version === "1.0"
        ? "CreateTaskPushNotificationConfig"
        : "tasks/pushNotificationConfig/set";
    const place = version === "1.0" ? "taskPushNotificationConfig" : "pushNotificationConfig";
    const params = inline
      ? { message, configuration: { [place]: config } }
      : version === "1.0"
        ? { taskId: "t1", ...config }
        : { taskId: "t1", pushNotificationConfig: config };
    return { path: "/", body: { jsonrpc: "2.0", id: 7, method, params }, version };
  }
  const prefix = version === "1.0" ? "/rest" : "/rest/v1";
  if (inline) {
    const place = version === "1.0" ? "taskPushNotificationConfig" : "pushNotification";
    return { path: `${prefix}/message:send`, body: { message, configuration: { [place]: config } }, version };
  }
  const body = version === "1.0" ? config : { name: "tasks/t1/pushNotificationConfigs/c1", pushNotificationConfig: config };
  return { path: `${prefix}/tasks/t1/pushNotificationConfigs`, body, version };
}

describe("push webhooks through the edge, to an @a2a-js/sdk origin that delivers notifications", () => {
  let origin: OriginAgent;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let worker: { dev: Served; base: string };

  const post = (path: string, body: unknown, version: string) =>
    fetch(`${worker.base}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", "A2A-Version": version },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    receiver = await startReceiver();
    origin = await startOriginAgent({ push: true, streamDelayMs: 20 });
    worker = await startWorker({ ORIGIN_URL: origin.url, EDGE_AUTH: "off", REST_PATH: "/rest", PUSH_ALLOW_HTTP_LOOPBACK: "true" });
  });

  afterAll(async () => {
    await worker?.dev.stop();
    await origin?.stop();
    await receiver?.stop();
  });

  const REFUSED: readonly (readonly [string, string])[] = [
    ["http://hooks.example.com/a2a", "https:"],
    ["https://10.0.0.5/admin", "private (10.0.0.0/8)"],
    ["https://0xa9fea9fe/latest/meta-data/", "link-local"],
    ["https://[::ffff:10.0.0.5]/", "IPv4-mapped"],
    ["https://metadata.google.internal/", ".internal"],
    ["https://user:pass@hooks.example.com/", "userinfo"],
  ];

  it("refuses each rule in every binding and version, inline and separate; the origin receives none of them", async () => {
    const before = origin.requests.length;
    for (const binding of BINDINGS)
      for (const inline of [true, false])
        for (const [url, rule] of REFUSED) {
          const { path, body, version } = pushCall(binding, inline, { url, token: "client-token" });
          const response = await post(path, body, version);
          const text = await response.text();
          const what = `${binding} ${inline ? "inline" : "separate"} ${url}`;
          expect(response.status, `${what}: ${text}`).toBe(binding.startsWith("rest") ? 400 : 200);
          expect(text, what).toContain("push notification config refused");
          expect(text, what).toContain(rule);
          if (binding.startsWith("jsonrpc")) expect(JSON.parse(text).error.code, what).toBe(-32602);
        }
    expect(origin.requests.slice(before), "calls the origin received").toEqual([]);
  });

  it("a loopback receiver through the development exception: the SDK origin stores the config and delivers to it", async () => {
    // The SDK's sender logs each delivery: taken and checked, so the suite stays quiet.
    const console = captureConsole();
    const before = origin.requests.length;
    const { path, body, version } = pushCall("jsonrpc-1.0", true, { url: receiver.url, token: "client-token" });
    const response = await post(path, body, version);
    expect(response.status).toBe(200);
    const reply = (await response.json()) as { result?: { task?: { id: string } } };
    const taskId = reply.result?.task?.id;
    expect(taskId, JSON.stringify(reply)).toBeDefined();
    expect(origin.requests.slice(before).map((r) => r.method)).toEqual(["SendMessage"]);
    // The origin got the client's URL and token as sent (no relay) ...
    expect(origin.requests.at(-1)?.rawBody).toContain(receiver.url);
    // ... and POSTs the task's updates there itself, with the client's token.
    const ofTask = () => receiver.deliveries.filter((d) => d.body.includes(String(taskId)));
    await until(() => ofTask().some((d) => d.body.includes("TASK_STATE_COMPLETED")), "the task's last notification at the receiver");
    for (const delivery of ofTask()) expect(delivery.headers["x-a2a-notification-token"]).toBe("client-token");
    // Every delivery was logged by the sender, once it had been made.
    await until(() => console.lines.length >= ofTask().length, "the sender's log of each delivery");
    for (const line of console.lines) expect(line).toBe(`Push notification sent for task_id=${taskId} to URL: ${receiver.url}`);
  });
});
