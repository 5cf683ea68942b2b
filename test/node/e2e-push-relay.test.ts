// The push relay end to end, real processes: an @a2a-js/sdk 1.3 origin agent that supports push notifications
// (its InMemoryPushNotificationStore and DefaultPushNotificationSender), the built bundle in workerd with
// PUSH_RELAY=on in front of it (its PushRelay Durable Object, alarms and all), and a webhook receiver on
// loopback (through the development exception, PUSH_ALLOW_HTTP_LOOPBACK=true). The origin only ever sees the
// edge's URL; the receiver gets each notification from the edge with the client's token and a JWT that jose
// verifies against the worker's JWKS; a 0.3 client bridged to the 1.0 origin gets 0.3-shaped notifications; a
// forged notification is refused; a receiver that is down is retried, then the loss is logged.
import { createHash, randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createRemoteJWKSet, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureConsole, logEvents } from "../support/console";
import { type Served, startWorker } from "../support/e2e";
import { outlastClients } from "../support/keep-alive";
import { type OriginAgent, startOriginAgent } from "../support/origin-agent";
import { freePort } from "../support/processes";
import { schemaErrors } from "../support/schemas";
import { until } from "../support/wait";
import { startReceiver } from "../support/webhook-receiver";

/** A receiver that answers every POST with a redirect to `location`. */
async function startRedirector(location: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => res.writeHead(307, { location }).end());
  });
  await new Promise<void>((resolve) => outlastClients(server).listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hook`, stop: () => new Promise((resolve) => server.close(() => resolve())) };
}

async function assertionKey(): Promise<JsonWebKey & { kid: string }> {
  const pair = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])) as CryptoKeyPair;
  return { ...((await crypto.subtle.exportKey("jwk", pair.privateKey)) as JsonWebKey), kid: "relay-e2e" };
}

const RELAY_URL = /http:\/\/127\.0\.0\.1:\d+\/_push\/[A-Za-z0-9_-]{22}/;

describe("the push relay in workerd, in front of an @a2a-js/sdk origin that sends notifications", () => {
  let origin: OriginAgent;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let worker: { dev: Served; base: string };

  const send = (version: "1.0" | "0.3", config: Record<string, unknown>) => {
    const v1 = version === "1.0";
    const message = v1
      ? { messageId: randomUUID(), role: "ROLE_USER", parts: [{ text: "hi" }] }
      : { kind: "message", messageId: randomUUID(), role: "user", parts: [{ kind: "text", text: "hi" }] };
    const configuration = v1 ? { taskPushNotificationConfig: config } : { pushNotificationConfig: config };
    const body = { jsonrpc: "2.0", id: 1, method: v1 ? "SendMessage" : "message/send", params: { message, configuration } };
    return fetch(`${worker.base}/`, {
      method: "POST",
      headers: { "content-type": "application/json", "A2A-Version": version },
      body: JSON.stringify(body),
    });
  };
  const taskOf = async (response: Response): Promise<string> => {
    const reply = (await response.json()) as { result?: { task?: { id: string }; id?: string } };
    const id = reply.result?.task?.id ?? reply.result?.id;
    expect(id, JSON.stringify(reply)).toBeTypeOf("string");
    return String(id);
  };
  const ofTask = (taskId: string) => receiver.deliveries.filter((d) => d.body.includes(taskId));

  beforeAll(async () => {
    receiver = await startReceiver();
    origin = await startOriginAgent({ push: true, streamDelayMs: 20 });
    worker = await startWorker(
      {
        ORIGIN_URL: origin.url,
        EDGE_AUTH: "off",
        PUSH_ALLOW_HTTP_LOOPBACK: "true",
        PUSH_RELAY: "on",
        PUSH_RELAY_ATTEMPTS: "3",
        PUSH_RELAY_RETRY_MS: "50",
        AUTH_ASSERTION_KEY: JSON.stringify(await assertionKey()),
        PROTOCOL_VERSIONS: "1.0,0.3",
        ORIGIN_PROTOCOL_VERSIONS: "1.0",
      },
      {},
    );
  });

  afterAll(async () => {
    await worker?.dev.stop();
    await origin?.stop();
    await receiver?.stop();
  });

  it("delivers the origin's notifications through the edge, with the client's token and a JWT verified against the JWKS", async () => {
    const console = captureConsole(); // the SDK sender's line per delivery (to the relay URL)
    const before = origin.requests.length;
    const taskId = await taskOf(await send("1.0", { url: receiver.url, token: "client-token" }));
    // The origin was given the edge's URL and a token of the edge's, never the client's.
    const seen = origin.requests[before]?.rawBody ?? "";
    expect(seen).toMatch(RELAY_URL);
    expect(seen).not.toContain(receiver.url);
    expect(seen).not.toContain("client-token");
    await until(() => ofTask(taskId).some((d) => d.body.includes("TASK_STATE_COMPLETED")), "the task's last notification");
    const jwks = createRemoteJWKSet(new URL(`${worker.base}/.well-known/jwks.json`));
    for (const delivery of ofTask(taskId)) {
      expect(delivery.headers["x-a2a-notification-token"]).toBe("client-token");
      const jwt = String(delivery.headers.authorization).replace(/^Bearer /, "");
      expect(delivery.headers["a2a-notification-jwt"]).toBe(jwt);
      const { payload } = await jwtVerify(jwt, jwks, { issuer: worker.base, audience: receiver.url });
      expect(payload.request_body_sha256).toBe(createHash("sha256").update(delivery.body).digest("hex"));
      expect(schemaErrors.v1("StreamResponse")(JSON.parse(delivery.body)), delivery.body).toEqual([]);
    }
    expect(
      console.lines.every((line) => RELAY_URL.test(line)),
      console.lines.join("\n"),
    ).toBe(true);
  });

  it("a 0.3 client bridged to the 1.0 origin receives 0.3-shaped notifications", async () => {
    captureConsole();
    const taskId = await taskOf(await send("0.3", { url: receiver.url, token: "legacy-token" }));
    await until(() => ofTask(taskId).some((d) => d.body.includes('"completed"')), "the 0.3 task's last notification");
    for (const delivery of ofTask(taskId)) {
      const body = JSON.parse(delivery.body) as { kind?: string };
      const definition = { task: "Task", "status-update": "TaskStatusUpdateEvent", "artifact-update": "TaskArtifactUpdateEvent" }[
        String(body.kind)
      ];
      expect(definition, delivery.body).toBeDefined();
      expect(schemaErrors.v03(String(definition))(body), delivery.body).toEqual([]);
      expect(delivery.headers["content-type"]).toBe("application/json");
      expect(delivery.headers["x-a2a-notification-token"]).toBe("legacy-token");
    }
  });

  it("refuses a notification that does not come from the origin: an unknown ref, a relay URL without its token", async () => {
    captureConsole();
    const before = receiver.deliveries.length;
    const forged = JSON.stringify({ statusUpdate: { taskId: "t", contextId: "c", status: { state: "TASK_STATE_COMPLETED" } } });
    const headers = { "content-type": "application/a2a+json", "x-a2a-notification-token": "guess" };
    const unknown = await fetch(`${worker.base}/_push/${"A".repeat(22)}`, { method: "POST", headers, body: forged });
    expect(unknown.status).toBe(401);
    // A real relay URL (as the origin holds it), without the token the origin was given.
    const at = origin.requests.length;
    await send("1.0", { url: receiver.url, token: "t" }).then((r) => r.text());
    const relayUrl = origin.requests[at]?.rawBody.match(RELAY_URL)?.[0];
    expect(relayUrl).toBeDefined();
    const wrong = await fetch(String(relayUrl), { method: "POST", headers, body: forged });
    expect(wrong.status).toBe(401);
    await until(() => logEvents(worker.dev.output(), "push_notification_refused").length >= 2, "the refusals in the worker's log");
    expect(receiver.deliveries.slice(before).filter((d) => d.body === forged)).toEqual([]);
  });

  it("retries a receiver that is down, then logs the loss", async () => {
    captureConsole();
    const down = `http://127.0.0.1:${await freePort()}/hook`;
    const taskId = await taskOf(await send("1.0", { url: down, token: "t" }));
    const failed = () => logEvents(worker.dev.output(), "push_delivery_failed").filter((e) => e.task === taskId);
    await until(() => failed().length > 0, "the lost notification in the worker's log", 60_000);
    const retries = logEvents(worker.dev.output(), "push_delivery_retry").filter((e) => e.task === taskId);
    expect(retries.length).toBeGreaterThanOrEqual(2);
    expect(failed()[0]).toMatchObject({ attempts: 3, status: 0, webhook: new URL(down).host });
    expect(worker.dev.output()).not.toContain("client-token");
  });

  it("does not follow a webhook's redirect: a 307 is a failed delivery", async () => {
    captureConsole();
    const redirector = await startRedirector(receiver.url);
    try {
      const taskId = await taskOf(await send("1.0", { url: redirector.url, token: "t" }));
      const failed = () => logEvents(worker.dev.output(), "push_delivery_failed").filter((e) => e.task === taskId);
      await until(() => failed().length > 0, "the redirected notification's loss in the worker's log", 60_000);
      expect(failed()[0]).toMatchObject({ attempts: 3, status: 307 });
      expect(ofTask(taskId), "what reached the redirect's target").toEqual([]);
    } finally {
      await redirector.stop();
    }
  });
});
