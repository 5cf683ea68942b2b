// The push-config stage through the worker (src/call/admit.ts, src/push/guard-stage.ts): the hosts a webhook
// may not name come from the deployment (the request's own host, HOST_ALLOWLIST, PUBLIC_BASE_URL, every
// configured origin), and the development exception is the operator's to turn on. The rules of each URL
// class are test/worker/push-guard.test.ts; every binding and version, test/worker/parity.test.ts.
import { describe, expect, it } from "vitest";
import { captureConsole } from "../support/console";
import { callVia, documentsKv, fakeOrigin, makeEnv } from "../support/worker";

const ORIGIN = "https://agent-origin.example.net/rpc";
const answer = () => Response.json({ jsonrpc: "2.0", id: 1, result: { taskId: "t1", id: "c1", url: "https://hooks.example.com/" } });

async function create(url: string, vars: Record<string, string> = {}, host = "https://agents.example.com") {
  const origin = fakeOrigin(answer);
  const env = makeEnv({ ORIGIN_URL: ORIGIN, SKILLS: documentsKv({ default: { name: "Push Agent" } }), ...vars });
  const body = { jsonrpc: "2.0", id: 1, method: "CreateTaskPushNotificationConfig", params: { taskId: "t1", url } };
  const response = await callVia(
    origin,
    `${host}/`,
    { method: "POST", headers: { "content-type": "application/json", "A2A-Version": "1.0" }, body: JSON.stringify(body) },
    env,
  );
  return { response, text: await response.text(), reached: origin.requests.length };
}

describe("push webhook hosts of the deployment", () => {
  it("refuses the request's own host, the origin's host, HOST_ALLOWLIST and PUBLIC_BASE_URL hosts", async () => {
    const vars = { HOST_ALLOWLIST: "agents.example.com,eu.agents.example.com" };
    for (const url of [
      "https://agents.example.com/",
      "https://eu.agents.example.com/",
      "https://agent-origin.example.net/other",
      "https://AGENT-ORIGIN.example.net./",
    ]) {
      const { text, reached } = await create(url, vars);
      expect(reached, url).toBe(0);
      expect(JSON.parse(text).error, url).toMatchObject({ code: -32602, message: expect.stringContaining("own host") });
      // The refusal names the rule, never the origin's address.
      expect(text).not.toContain("agent-origin.example.net");
    }
    // Without HOST_ALLOWLIST: the host the request came to.
    expect((await create("https://any.example.com/", {}, "https://any.example.com")).text).toContain("own host");
    const based = await create(
      "https://public.example.org/",
      { PUBLIC_BASE_URL: "https://public.example.org" },
      "https://public.example.org",
    );
    expect(based.reached).toBe(0);
    const regional = await create("https://fra.origin.example.net/", { ORIGIN_REGIONS: '{"EU":"https://fra.origin.example.net/rpc"}' });
    expect(regional.text).toContain("own host");
  });

  it("admits a public host, and a loopback http: webhook only with PUSH_ALLOW_HTTP_LOOPBACK", async () => {
    expect((await create("https://hooks.example.com/a2a")).reached).toBe(1);
    const refused = await create("http://127.0.0.1:9999/hook");
    expect(refused.reached).toBe(0);
    expect(refused.text).toContain("https:");
    expect((await create("http://127.0.0.1:9999/hook", { PUSH_ALLOW_HTTP_LOOPBACK: "true" })).reached).toBe(1);
  });

  it("PUSH_URL_ALLOWLIST narrows the hosts", async () => {
    const vars = { PUSH_URL_ALLOWLIST: "*.partner.example.org" };
    expect((await create("https://a.partner.example.org/", vars)).reached).toBe(1);
    const other = await create("https://hooks.example.com/", vars);
    expect(other.reached).toBe(0);
    expect(other.text).toContain("PUSH_URL_ALLOWLIST");
  });

  it("a REST 1.0 refusal is google.rpc.Status INVALID_ARGUMENT with the field in a BadRequest", async () => {
    const origin = fakeOrigin(answer);
    const env = makeEnv({ ORIGIN_URL: ORIGIN, REST_PATH: "/rest", SKILLS: documentsKv({ default: { name: "Push Agent" } }) });
    const response = await callVia(
      origin,
      "https://agents.example.com/rest/tasks/t1/pushNotificationConfigs",
      {
        method: "POST",
        headers: { "content-type": "application/json", "A2A-Version": "1.0" },
        body: JSON.stringify({ url: "https://10.0.0.5/" }),
      },
      env,
    );
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as { error: { status: string; message: string; details: Record<string, unknown>[] } };
    expect(error.status).toBe("INVALID_ARGUMENT");
    expect(error.message).toContain("push notification config refused: params.url refused");
    const badRequest = error.details.find((detail) => detail["@type"] === "type.googleapis.com/google.rpc.BadRequest");
    expect(badRequest?.fieldViolations).toEqual([{ field: "params.url", description: expect.stringContaining("private (10.0.0.0/8)") }]);
    expect(origin.requests).toHaveLength(0);
  });

  it("a bad PUSH_URL_ALLOWLIST is a configuration error naming the variable", async () => {
    const console = captureConsole();
    const { response, text } = await create("https://hooks.example.com/", { PUSH_URL_ALLOWLIST: "https://hooks.example.com/" });
    expect(response.status).toBe(500);
    expect(text).toContain("PUSH_URL_ALLOWLIST");
    expect(console.events("config_invalid")).toHaveLength(1);
  });
});
