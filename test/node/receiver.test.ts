// `npm run receiver` as a real process: the webhook of the relay on one machine (docs/push-notifications.md).
// Notifications POSTed to it with JWTs signed by a stand-in for the edge's keys (test/support/jwks-server.ts):
// one line each, in order, saying the task and event, whether the token is --token, and whether the
// A2A-Notification-JWT verifies (issuer the edge or one of its agents by path, audience the receiver's URL,
// the body's digest); every one answered 200.
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type JwksServer, startJwksServer } from "../support/jwks-server";
import { type Started, startTs, waitForOutput } from "../support/processes";
import { until } from "../support/wait";

describe("npm run receiver", () => {
  let keys: JwksServer;
  let receiver: Started;
  let url: string;
  const sha256 = (body: string) => createHash("sha256").update(body).digest("hex");
  /** POSTs `body` as the edge's relay does, with a JWT of `claims` over it (unless `jwt: false`). */
  const deliver = async (body: string, options: { token?: string; claims?: Record<string, unknown>; jwt?: false } = {}) => {
    const claims = { iss: keys.base, aud: url, request_body_sha256: sha256(body), ...options.claims };
    const jwt = options.jwt === false ? undefined : await keys.sign(claims);
    const response = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/a2a+json",
        ...(options.token === undefined ? {} : { "X-A2A-Notification-Token": options.token }),
        ...(jwt === undefined ? {} : { "A2A-Notification-JWT": jwt, Authorization: `Bearer ${jwt}` }),
      },
      body,
    });
    expect(response.status).toBe(200);
  };
  const status = (taskId: string, state: string) => JSON.stringify({ statusUpdate: { taskId, contextId: "c", status: { state } } });

  beforeAll(async () => {
    keys = await startJwksServer();
    receiver = startTs("scripts/receiver.ts", ["--port", "0", "--token", "client-token", "--edge", keys.base]);
    url = await waitForOutput(receiver, /listening on (\S+)/, "npm run receiver's listening line");
  });
  afterAll(async () => {
    await receiver?.stop();
    await keys?.stop();
  });

  it("listens on 127.0.0.1 at / and says what it checks against which edge", () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(receiver.output()).toContain(
      `receiver: it checks each A2A-Notification-JWT against the edge at ${keys.base} (keys: ${keys.jwksUrl}), and X-A2A-Notification-Token against --token\n`,
    );
  });

  it("prints one line per notification, in order: the task and event, the token, the JWT verified or why not", async () => {
    const verified = (iss: string) => `A2A-Notification-JWT verified (iss ${iss}, aud ${url}, request_body_sha256 matches)`;
    const v03 = JSON.stringify({ kind: "status-update", taskId: "t-2", contextId: "c", status: { state: "completed" }, final: true });
    const artifact = JSON.stringify({ artifactUpdate: { taskId: "t-1", artifact: { artifactId: "a", name: "echo", parts: [] } } });
    const cases: Array<[string, Parameters<typeof deliver>[1], string]> = [
      [
        status("t-1", "TASK_STATE_WORKING"),
        { token: "client-token" },
        `task t-1: statusUpdate TASK_STATE_WORKING; X-A2A-Notification-Token matches; ${verified(keys.base)}`,
      ],
      [
        artifact,
        { token: "client-token" },
        `task t-1: artifactUpdate (artifact echo); X-A2A-Notification-Token matches; ${verified(keys.base)}`,
      ],
      // An agent by path of the edge signs as its own base, with the edge's keys.
      [
        v03,
        { token: "client-token", claims: { iss: `${keys.base}/travel` } },
        `task t-2: status-update completed; X-A2A-Notification-Token matches; ${verified(`${keys.base}/travel`)}`,
      ],
      [
        status("t-3", "TASK_STATE_WORKING"),
        { token: "other" },
        `task t-3: statusUpdate TASK_STATE_WORKING; X-A2A-Notification-Token does not match --token; ${verified(keys.base)}`,
      ],
      [
        status("t-4", "TASK_STATE_WORKING"),
        { token: "client-token", claims: { request_body_sha256: sha256("another body") } },
        "task t-4: statusUpdate TASK_STATE_WORKING; X-A2A-Notification-Token matches; A2A-Notification-JWT refused: its request_body_sha256 is not the body's",
      ],
      [
        status("t-5", "TASK_STATE_WORKING"),
        { claims: { iss: "http://127.0.0.1:9000" } },
        `task t-5: statusUpdate TASK_STATE_WORKING; no X-A2A-Notification-Token; A2A-Notification-JWT refused: issued by http://127.0.0.1:9000, not the edge at ${keys.base}`,
      ],
      [
        status("t-6", "TASK_STATE_WORKING"),
        { claims: { iss: `${keys.base}0/travel` } },
        `task t-6: statusUpdate TASK_STATE_WORKING; no X-A2A-Notification-Token; A2A-Notification-JWT refused: issued by ${keys.base}0/travel, not the edge at ${keys.base}`,
      ],
      [
        status("t-7", "TASK_STATE_WORKING"),
        { claims: { aud: "http://127.0.0.1:1/" } },
        `task t-7: statusUpdate TASK_STATE_WORKING; no X-A2A-Notification-Token; A2A-Notification-JWT refused: unexpected "aud" claim value (keys: ${keys.jwksUrl})`,
      ],
      [
        status("t-8", "TASK_STATE_WORKING"),
        { jwt: false },
        "task t-8: statusUpdate TASK_STATE_WORKING; no X-A2A-Notification-Token; no A2A-Notification-JWT (not delivered by the edge's relay)",
      ],
      [
        "not json",
        { jwt: false },
        "a body that is not JSON (8 bytes); no X-A2A-Notification-Token; no A2A-Notification-JWT (not delivered by the edge's relay)",
      ],
    ];
    for (const [body, options] of cases) await deliver(body, options);
    const lines = () =>
      receiver
        .output()
        .split("\n")
        .filter((line) => line.startsWith("receiver: task") || line.startsWith("receiver: a body"));
    await until(() => lines().length === cases.length, "a line for every notification");
    expect(lines()).toEqual(cases.map(([, , line]) => `receiver: ${line}`));
  });
});
