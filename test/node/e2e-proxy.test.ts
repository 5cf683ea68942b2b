// End to end, real processes: an @a2a-js/sdk origin agent on 127.0.0.1 that
// requires its own credential and a verified A2A-Caller-Assertion, the worker
// (the built bundle in workerd) fronting it and enforcing the card's security schemes
// with keys from a real OpenID provider (oidc-provider), and the @a2a-js/sdk
// client, with an authentication handler, talking only to the worker.
import { randomUUID } from "node:crypto";
import { SendMessageRequest, type StreamResponse, TaskState } from "@a2a-js/sdk";
import {
  type AuthenticationHandler,
  type Client,
  ClientFactory,
  ClientFactoryOptions,
  createAuthenticatingFetchWithRetry,
  type HttpHeaders,
  JsonRpcTransportFactory,
} from "@a2a-js/sdk/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Served, startWorker } from "../support/e2e";
import { type OidcIssuer, startOidcIssuer } from "../support/oidc-issuer";
import { EXTENDED_SKILL_ID, messageText, ORIGIN_AGENT_NAME, type OriginAgent, startOriginAgent } from "../support/origin-agent";
import { schemaErrors } from "../support/schemas";
import { latch, until, within } from "../support/wait";

const ORIGIN_CREDENTIAL = "Bearer e2e-origin-credential-7f3a";
const DELAY = 50;
const AUDIENCE = "https://agent.example/";

/** A P-256 private JWK for AUTH_ASSERTION_KEY, as `npm run keys` makes one. */
async function assertionKey(): Promise<JsonWebKey & { kid: string }> {
  const pair = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])) as CryptoKeyPair;
  return { ...((await crypto.subtle.exportKey("jwk", pair.privateKey)) as JsonWebKey), kid: "e2e-assertion" };
}

function request(text: string): SendMessageRequest {
  return SendMessageRequest.fromJSON({ message: { messageId: randomUUID(), role: "ROLE_USER", parts: [{ text }] } });
}

function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
}

describe("the SDK client, authenticated at the edge by the card's own schemes, through the worker to the origin agent", () => {
  let idp: OidcIssuer;
  let origin: OriginAgent;
  let worker: { dev: Served; base: string };
  let client: Client;
  const held = latch();
  /** Every response the client's fetch saw, and the token its authentication handler holds. */
  const statuses: number[] = [];
  let token: string | undefined;
  const bearer = () => ({ Authorization: `Bearer ${token}` });

  beforeAll(async () => {
    idp = await startOidcIssuer({ resources: [AUDIENCE, "https://other.example/"] });
    origin = await startOriginAgent({
      streamDelayMs: DELAY,
      requiredAuthorization: ORIGIN_CREDENTIAL,
      hold: (text) => (text === "stream me" ? held.promise : undefined),
    });
    // The bundled skills.json requires `acmeBearer` (any valid token) or `acmeOAuth` with travel:read.
    worker = await startWorker({
      ORIGIN_URL: origin.url,
      ORIGIN_HEADERS: JSON.stringify({ Authorization: ORIGIN_CREDENTIAL }),
      AUTH_JWT_ISSUER: idp.issuer,
      AUTH_JWT_AUDIENCE: AUDIENCE,
      AUTH_ASSERTION_KEY: JSON.stringify(await assertionKey()),
    });
    origin.trustEdge({ jwksUrl: `${worker.base}/.well-known/jwks.json`, issuer: worker.base });
    // An OAuth client as the SDK has it: no token until the edge asks for one (401 + Bearer challenge).
    const handler: AuthenticationHandler = {
      headers: async (): Promise<HttpHeaders> => (token ? { authorization: `Bearer ${token}` } : {}),
      shouldRetryWithHeaders: async (_request, response) => {
        if (response.status !== 401 || !response.headers.get("www-authenticate")?.startsWith("Bearer ")) return undefined;
        token = await idp.token(idp.clients.agent);
        return { authorization: `Bearer ${token}` };
      },
    };
    const observed: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      statuses.push(response.status);
      return response;
    };
    const fetchImpl = createAuthenticatingFetchWithRetry(observed, handler);
    const options = ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl })],
    });
    client = await new ClientFactory(options).createFromUrl(worker.base);
  });
  afterAll(async () => {
    await worker?.dev.stop();
    await origin?.stop();
    await idp?.stop();
  });

  it("resolves the worker's card, whose interfaces point at the worker", async () => {
    expect(client.protocolVersion).toBe("1.0");
    const card = (await (await fetch(`${worker.base}/.well-known/agent-card.json`, { headers: { "A2A-Version": "1.0" } })).json()) as any;
    expect(schemaErrors.v1Card(card)).toEqual([]);
    expect(card.supportedInterfaces[0].url).toBe(`${worker.base}/`);
    expect(JSON.stringify(card)).not.toContain(String(origin.port));
  });

  it("sendMessage: the edge challenges, the client's handler gets a token, and the origin learns who called from a verified assertion", async () => {
    const before = origin.requests.length;
    const result = await client.sendMessage(request("hello edge"));
    expect("id" in result && result.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(statuses.slice(0, 2)).toEqual([401, 200]); // challenged once, then through with the token
    const seen = origin.requests.slice(before);
    expect(seen.map((r) => r.method)).toEqual(["SendMessage"]); // the anonymous try never reached it
    expect(seen[0]!.headers.authorization).toBe(ORIGIN_CREDENTIAL); // its own credential, not the caller's token
    expect(JSON.stringify(seen[0]!.headers)).not.toContain(token!);
    expect(seen[0]!.headers["a2a-caller"]).toBe("acmeBearer:agent-client");
    expect(seen[0]!.assertion).toMatchObject({
      iss: worker.base,
      aud: origin.url,
      sub: "acmeBearer:agent-client",
      scope: "a2a.read a2a.write",
    });
    expect(seen[0]!.assertion!.exp! - seen[0]!.assertion!.iat!).toBeLessThanOrEqual(60);
    expect(seen[0]!.headers["a2a-version"]).toBe("1.0");
    expect(seen[0]!.headers["x-forwarded-host"]).toBe(new URL(worker.base).host);
  });

  it("sendMessageStream delivers events in order, the first while the origin still holds the rest", async () => {
    const stream = client.sendMessageStream(request("stream me"))[Symbol.asyncIterator]();
    // The origin sends nothing after the Task until the Task has reached the client: a buffering edge never delivers it.
    const first = await within(stream.next(), "the first event through the worker while the origin holds the rest");
    held.open();
    const events: StreamResponse[] = [first.value as StreamResponse];
    for await (const event of { [Symbol.asyncIterator]: () => stream }) events.push(event);
    expect(events.map((e) => e.payload?.$case)).toEqual(["task", "statusUpdate", "artifactUpdate", "statusUpdate"]);
    const last = events.at(-1)!.payload;
    expect(last?.$case === "statusUpdate" && last.value.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const artifact = events[2]!.payload;
    expect(artifact?.$case === "artifactUpdate" && messageText(artifact.value.artifact)).toBe("echo: stream me");
    expect(origin.requests.at(-1)!.assertion?.sub).toBe("acmeBearer:agent-client");
  });

  it("getTask works through the worker", async () => {
    const result = await client.sendMessage(request("remember me"));
    if (!("id" in result)) throw new Error("expected a task");
    const task = await client.getTask({ tenant: "", id: result.id });
    expect(task.id).toBe(result.id);
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it("the extended card goes to the authenticated client, with the worker's URLs, never the origin's", async () => {
    const card = await client.transport.getExtendedAgentCard({ tenant: "" }); // the bundled card does not advertise it, so Client.getAgentCard() would not ask
    expect(card.name).toBe(ORIGIN_AGENT_NAME);
    expect(card.skills.map((s) => s.id)).toContain(EXTENDED_SKILL_ID);
    expect(JSON.stringify(card)).not.toContain(`127.0.0.1:${origin.port}`);
    for (const [method, headers] of [
      ["GetExtendedAgentCard", { "A2A-Version": "1.0" }],
      ["agent/getAuthenticatedExtendedCard", {}],
    ] as const) {
      const text = await (await post(`${worker.base}/`, { jsonrpc: "2.0", id: 5, method }, { ...headers, ...bearer() })).text();
      expect(text).not.toContain(`127.0.0.1:${origin.port}`);
      expect(JSON.parse(text).result.name).toBe(ORIGIN_AGENT_NAME);
      expect(text).toContain(`${worker.base}/`);
    }
  });

  it("refuses anonymous and forged calls at the edge: 401 with the challenge and the id, nothing reaches the origin", async () => {
    const before = origin.requests.length;
    const otherAudience = await idp.token(idp.clients.agent, { resource: "https://other.example/" });
    for (const [id, method, headers, challenge] of [
      ["anon-ext", "GetExtendedAgentCard", { "A2A-Version": "1.0" }, `Bearer realm="${new URL(worker.base).host}"`],
      ["anon-ext-03", "agent/getAuthenticatedExtendedCard", {}, `Bearer realm="${new URL(worker.base).host}"`],
      ["anon-send", "SendMessage", { "A2A-Version": "1.0" }, `Bearer realm="${new URL(worker.base).host}"`],
      [
        "wrong-aud",
        "GetTask",
        { "A2A-Version": "1.0", Authorization: `Bearer ${otherAudience}` },
        `Bearer realm="${new URL(worker.base).host}", error="invalid_token"`,
      ],
    ] as const) {
      const response = await post(`${worker.base}/`, { jsonrpc: "2.0", id, method, params: {} }, headers);
      expect(response.status, id).toBe(401);
      expect(response.headers.get("www-authenticate"), id).toBe(challenge);
      expect(await response.json(), id).toMatchObject({ jsonrpc: "2.0", id, error: { code: -32600 } });
    }
    expect(origin.requests.length).toBe(before);
  });

  it("a raw 0.3 message/send works with a token (no A2A-Version header)", async () => {
    const response = await post(
      `${worker.base}/`,
      {
        jsonrpc: "2.0",
        id: "legacy-1",
        method: "message/send",
        params: { message: { kind: "message", messageId: randomUUID(), role: "user", parts: [{ kind: "text", text: "old school" }] } },
      },
      bearer(),
    );
    expect(response.status).toBe(200);
    const body = (await response.json()) as any;
    expect(body.id).toBe("legacy-1");
    expect(JSON.stringify(body.result)).toContain("echo: old school");
  });

  it("edge validation answers bad requests without reaching the origin", async () => {
    const before = origin.requests.length;
    const response = await fetch(`${worker.base}/`, { method: "POST", headers: { "content-type": "application/json" }, body: "{ nope" });
    expect(await response.json()).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32700 } });
    expect(origin.requests.length).toBe(before);
  });

  it("stopping the origin gives 502 with the request id", async () => {
    await origin.stop();
    const response = await post(
      `${worker.base}/`,
      { jsonrpc: "2.0", id: "after-stop", method: "GetTask", params: { id: "x" } },
      { "A2A-Version": "1.0", ...bearer() },
    );
    expect(response.status).toBe(502);
    const text = await response.text();
    expect(JSON.parse(text)).toMatchObject({ jsonrpc: "2.0", id: "after-stop", error: { code: -32603 } });
    expect(text).not.toContain(String(origin.port));
    await until(() => worker.dev.output().includes('"event":"origin_failed"'), "an origin_failed line in the worker's log");
  });
});

describe("passthrough card mode (CARD_SOURCE=origin) end to end", () => {
  let origin: OriginAgent;
  let worker: { dev: Served; base: string };

  beforeAll(async () => {
    origin = await startOriginAgent({ streamDelayMs: 10 });
    worker = await startWorker({ ORIGIN_URL: origin.url, CARD_SOURCE: "origin" });
  });
  afterAll(async () => {
    await worker?.dev.stop();
    await origin?.stop();
  });

  it("serves the origin's own card in every variant, with public URLs only", async () => {
    for (const [headers, validate] of [
      [{ "A2A-Version": "1.0" }, schemaErrors.v1Card],
      [{ "A2A-Version": "0.3" }, schemaErrors.v03Card],
      [{}, schemaErrors.v03Card],
    ] as const) {
      const response = await fetch(`${worker.base}/.well-known/agent-card.json`, { headers });
      const text = await response.text();
      const card = JSON.parse(text);
      expect(card.name).toBe(ORIGIN_AGENT_NAME);
      expect(validate(card)).toEqual([]);
      expect(text).not.toContain(`127.0.0.1:${origin.port}`);
      expect(text).toContain(`${worker.base}/`);
    }
    const client = await new ClientFactory().createFromUrl(worker.base);
    const result = await client.sendMessage(request("via passthrough"));
    expect("id" in result && result.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });
});
