// Holes found from outside on the surfaces added last (the REST binding,
// REST-only origins, the bridge), each checked here through the worker in
// workerd with an injected origin; the same holes over raw sockets to the
// built bundle and under `wrangler dev` are in test/node/surface-holes.test.ts.

import { env as baseEnv } from "cloudflare:workers";
import { createLocalJWKSet, decodeJwt, jwtVerify } from "jose";
import { describe, expect, it } from "vitest";
import { underBase } from "../../src/origins/rest-origin";
import { captureConsole } from "../support/console";
import { inOneRateWindow } from "../support/rate-window";
import { CARD, callVia, fakeOrigin, makeEnv, sha256Hex } from "../support/worker";

const HOST = "https://agents.example.com";
const REST_BASE = "http://10.0.0.9/a2a/rest";
const RPC_ORIGIN = "http://10.0.0.1/rpc";
const json = (body: unknown, init: ResponseInit = {}) => Response.json(body, init);
const task = { id: "t1", contextId: "c1", status: { state: "TASK_STATE_COMPLETED" } };

/** An origin that answers anything: JSON-RPC with a result naming the method, REST with a task. */
function anyOrigin() {
  return fakeOrigin(async (req) => {
    const text = await req.clone().text();
    if (req.method === "POST" && text.includes('"jsonrpc"')) {
      const { id, method } = JSON.parse(text) as { id: unknown; method: string };
      return json({ jsonrpc: "2.0", id, result: { method } });
    }
    return json(task);
  });
}

const rpc = (method: string, params: unknown, headers: Record<string, string> = {}) => ({
  method: "POST",
  headers: { "content-type": "application/json", ...headers },
  body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
});
const rest = (method: string, headers: Record<string, string> = {}, body?: unknown) => ({
  method,
  headers: { ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
  ...(body === undefined ? {} : { body: JSON.stringify(body) }),
});
const message = { messageId: "m1", role: "ROLE_USER", parts: [{ text: "hi" }] };

describe("caller path segments never climb out of a REST origin's base", () => {
  const env = () =>
    makeEnv({
      ORIGIN_BINDING: "http+json",
      ORIGIN_REST_URL: REST_BASE,
      ORIGIN_PROTOCOL_VERSIONS: "1.0",
      ORIGIN_HEADERS: JSON.stringify({ Authorization: "Bearer origin-secret-0123" }),
      EDGE_AUTH: "off",
      REST_PATH: "/rest",
    });
  const refusedRpc: [string, string, unknown][] = [
    ["GetTask, tenant ..", "GetTask", { tenant: "..", id: "x" }],
    ["GetTask, tenant .", "GetTask", { tenant: ".", id: "x" }],
    ["GetTask, id ..", "GetTask", { id: ".." }],
    ["CancelTask, id .", "CancelTask", { id: "." }],
    [
      "DeleteTaskPushNotificationConfig, tenant and task ..",
      "DeleteTaskPushNotificationConfig",
      { tenant: "..", taskId: "..", id: "users" },
    ],
    ["GetTaskPushNotificationConfig, config ..", "GetTaskPushNotificationConfig", { taskId: "t1", id: ".." }],
  ];
  it.each(refusedRpc)("JSON-RPC %s: -32602, nothing reaches the origin", async (_name, method, params) => {
    const origin = anyOrigin();
    const response = await callVia(origin, `${HOST}/`, rpc(method, params, { "A2A-Version": "1.0" }), env());
    expect(await response.json()).toMatchObject({ id: 1, error: { code: -32602 } });
    expect(origin.requests).toHaveLength(0);
  });

  it.each([
    ["tenant .. in the query", "/rest/tasks/x?tenant=.."],
    ["a %2e%2e tenant segment", "/rest/%2e%2e/tasks/x"],
    ["a .%2E tenant segment", "/rest/.%2E/tasks/x"],
    ["a %2e%2e task id", "/rest/tasks/%2e%2e"],
    ["a %2F in a task id", "/rest/tasks/a%2F..%2F..%2Fx"],
  ])("REST GET with %s: refused, nothing reaches the origin", async (_name, path) => {
    const origin = anyOrigin();
    const response = await callVia(origin, `${HOST}${path}`, rest("GET"), env());
    expect([400, 404]).toContain(response.status);
    expect(origin.requests).toHaveLength(0);
  });

  it("still reaches every route under the base (the control)", async () => {
    const origin = anyOrigin();
    for (const path of ["/rest/tasks/t1", "/rest/acme/tasks/t1", "/rest/tasks/a%3Ab"])
      expect((await callVia(origin, `${HOST}${path}`, rest("GET"), env())).status, path).toBe(200);
    expect(origin.requests.map((r) => new URL(r.url).pathname)).toEqual([
      "/a2a/rest/tasks/t1",
      "/a2a/rest/acme/tasks/t1",
      "/a2a/rest/tasks/a%3Ab",
    ]);
  });
});

describe("METHOD_ALLOWLIST names operations, on every binding and origin kind", () => {
  const origins = [
    ["a JSON-RPC origin", { ORIGIN_URL: RPC_ORIGIN }],
    ["a REST origin", { ORIGIN_BINDING: "http+json", ORIGIN_REST_URL: REST_BASE }],
  ] as const;
  const refused: [string, string, string, unknown?][] = [
    ["GetTask", "GET", "/rest/tasks/t1"],
    ["ListTasks", "GET", "/rest/tasks"],
    ["CancelTask", "POST", "/rest/tasks/t1:cancel", {}],
    ["CreateTaskPushNotificationConfig", "POST", "/rest/tasks/t1/pushNotificationConfigs", { url: "https://hooks.example.com/x" }],
    ["DeleteTaskPushNotificationConfig", "DELETE", "/rest/tasks/t1/pushNotificationConfigs/c1"],
    ["SendStreamingMessage", "POST", "/rest/message:stream", { message }],
    ["0.3 tasks/get", "GET", "/rest/v1/tasks/t1"],
    ["a tenant's GetTask", "GET", "/rest/acme/tasks/t1"],
  ];
  describe.each(origins)("%s", (_kind, originVars) => {
    const env = (allowlist: string) =>
      makeEnv({ ...originVars, EDGE_AUTH: "off", REST_PATH: "/rest", METHOD_ALLOWLIST: allowlist, ORIGIN_PROTOCOL_VERSIONS: "1.0,0.3" });

    it.each(refused)("REST %s outside the list: refused as -32601 (501), nothing reaches the origin", async (_op, method, path, body) => {
      const origin = anyOrigin();
      const response = await callVia(
        origin,
        `${HOST}${path}`,
        rest(method, { "A2A-Version": path.startsWith("/rest/v1/") ? "0.3" : "1.0" }, body),
        env("SendMessage,message/send"),
      );
      expect(response.status).toBe(501);
      expect(origin.requests).toHaveLength(0);
    });

    it("lets the listed operation through under either version's name, on both bindings", async () => {
      for (const allowlist of ["SendMessage", "message/send"]) {
        const origin = anyOrigin();
        const viaRest = await callVia(origin, `${HOST}/rest/message:send`, rest("POST", {}, { message }), env(allowlist));
        expect(viaRest.status, allowlist).toBe(200);
        const viaRpc = await callVia(origin, `${HOST}/`, rpc("SendMessage", { message }, { "A2A-Version": "1.0" }), env(allowlist));
        expect(await viaRpc.json(), allowlist).not.toHaveProperty("error");
        const refusedRpc = await callVia(origin, `${HOST}/`, rpc("GetTask", { id: "t1" }, { "A2A-Version": "1.0" }), env(allowlist));
        expect(await refusedRpc.json()).toMatchObject({ error: { code: -32601 } });
        expect(origin.requests, allowlist).toHaveLength(2);
      }
    });
  });

  it("passes an extension method only when it is listed as written (JSON-RPC)", async () => {
    const origin = anyOrigin();
    const env = (allowlist: string) => makeEnv({ ORIGIN_URL: RPC_ORIGIN, EDGE_AUTH: "off", METHOD_ALLOWLIST: allowlist });
    expect(await (await callVia(origin, `${HOST}/`, rpc("x/custom", {}), env("x/custom"))).json()).toMatchObject({ result: {} });
    expect(await (await callVia(origin, `${HOST}/`, rpc("x/custom", {}), env("SendMessage"))).json()).toMatchObject({
      error: { code: -32601 },
    });
    expect(origin.requests).toHaveLength(1);
  });
});

describe("the empty security requirement {} lets anonymous callers in as anonymous", () => {
  const KEY = "partner-key-0123456789";
  const setup = async (security: unknown) => {
    const hash = await sha256Hex(KEY);
    const document = {
      name: "Open Agent",
      capabilities: { extendedAgentCard: true },
      securitySchemes: { partnerKey: { type: "apiKey", in: "header", name: "X-API-Key" } },
      security,
    };
    await baseEnv.SKILLS.put("open.example.com", JSON.stringify(document));
    const pair = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign"])) as CryptoKeyPair;
    const assertionKey = { ...((await crypto.subtle.exportKey("jwk", pair.privateKey)) as JsonWebKey), kid: "a" };
    return makeEnv({
      ORIGIN_URL: RPC_ORIGIN,
      REST_PATH: "/rest",
      KV_CACHE_TTL: "0",
      AUTH_API_KEYS: JSON.stringify({ partner: `sha256:${hash}` }),
      AUTH_ASSERTION_KEY: JSON.stringify(assertionKey),
    });
  };
  const OPEN = "https://open.example.com";

  it.each([
    [[{ partnerKey: [] }, {}], true],
    [[{}], false],
    [[{}, { partnerKey: [] }], true],
  ])("security %j", async (security, namesKey) => {
    const env = await setup(security);
    const origin = anyOrigin();
    // Anonymous: let through as anonymous, never as an authenticated "unknown" caller.
    const sent = await callVia(origin, `${OPEN}/`, rpc("SendMessage", { message }, { "A2A-Version": "1.0" }), env);
    expect(await sent.json()).toMatchObject({ result: { method: "SendMessage" } });
    const seen = origin.requests.at(-1)!.headers;
    expect([seen.get("a2a-caller"), seen.get("a2a-caller-scopes"), seen.get("a2a-caller-assertion")]).toEqual([null, null, null]);
    // The extended card goes to an authenticated caller only, on both bindings.
    const card = await callVia(origin, `${OPEN}/`, rpc("GetExtendedAgentCard", {}, { "A2A-Version": "1.0" }), env);
    expect(card.status).toBe(401);
    expect((await callVia(origin, `${OPEN}/rest/extendedAgentCard`, rest("GET"), env)).status).toBe(401);
    expect(origin.requests).toHaveLength(1);
    // A credential of a scheme the requirements name, presented and refused, is refused, not downgraded to anonymous;
    // a header no requirement names is no credential at all.
    const wrong = await callVia(origin, `${OPEN}/`, rpc("SendMessage", { message }, { "X-API-Key": "not-the-key" }), env);
    expect(wrong.status).toBe(namesKey ? 401 : 200);
    if (namesKey) expect(wrong.headers.get("www-authenticate")).toContain('error="invalid_token"');
    expect(origin.requests).toHaveLength(namesKey ? 1 : 2);
  });

  it("still identifies a caller who meets the other alternative", async () => {
    const env = await setup([{ partnerKey: [] }, {}]);
    const origin = anyOrigin();
    await callVia(origin, `${OPEN}/`, rpc("SendMessage", { message }, { "X-API-Key": KEY }), env);
    expect(origin.requests[0]!.headers.get("a2a-caller")).toBe("partnerKey:partner");
  });
});

describe("the caller assertion is bound to the origin that receives it and to its request", () => {
  const KEY = "partner-key-0123456789";
  /** The env, and the worker's JWKS (fetched through `origin`: an env's runtime keeps the first fetch it was given). */
  async function setup(vars: Record<string, string>, origin: { fetch: (input: string, init?: RequestInit) => Promise<Response> }) {
    const hash = await sha256Hex(KEY);
    const pair = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign"])) as CryptoKeyPair;
    const assertionKey = { ...((await crypto.subtle.exportKey("jwk", pair.privateKey)) as JsonWebKey), kid: "a" };
    const document = {
      name: "Keyed",
      originUrl: "http://10.0.0.2/b",
      securitySchemes: { partnerKey: { type: "apiKey", in: "header", name: "X-API-Key" } },
      security: [{ partnerKey: [] }],
    };
    await baseEnv.SKILLS.put("b.example.com", JSON.stringify(document));
    await baseEnv.SKILLS.put("a.example.com", JSON.stringify({ ...document, originUrl: undefined }));
    const env = makeEnv({
      ORIGIN_URL: RPC_ORIGIN,
      DOCUMENT_ORIGINS: "http://10.0.0.2",
      KV_CACHE_TTL: "0",
      AUTH_API_KEYS: JSON.stringify({ partner: `sha256:${hash}` }),
      AUTH_ASSERTION_KEY: JSON.stringify(assertionKey),
      ...vars,
    });
    const jwks = createLocalJWKSet(await (await callVia(origin, "https://a.example.com/.well-known/jwks.json", {}, env)).json());
    return { env, jwks };
  }
  const sha256 = async (bytes: Uint8Array) => {
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
    return btoa(String.fromCharCode(...digest))
      .replace(/\+/g, "-")
      .replace(/\//g, "_")
      .replace(/=+$/, "");
  };

  it("names the document's origin as aud (so origin A refuses what B received), with jti, htm, htu, operation and body hash", async () => {
    const origin = anyOrigin();
    const { env, jwks } = await setup({}, origin);
    await callVia(
      origin,
      "https://b.example.com/",
      rpc("message/send", { message: { messageId: "m", role: "user", parts: [] } }, { "X-API-Key": KEY }),
      env,
    );
    await callVia(
      origin,
      "https://b.example.com/",
      rpc("message/send", { message: { messageId: "m", role: "user", parts: [] } }, { "X-API-Key": KEY }),
      env,
    );
    expect(origin.requests.map((r) => r.url)).toEqual(["http://10.0.0.2/b", "http://10.0.0.2/b"]);
    const [first, second] = origin.requests.map((r) => r.headers.get("a2a-caller-assertion")!);
    await expect(jwtVerify(first!, jwks, { issuer: "https://b.example.com", audience: RPC_ORIGIN })).rejects.toThrow(/aud/);
    const { payload } = await jwtVerify(first!, jwks, { issuer: "https://b.example.com", audience: "http://10.0.0.2/b" });
    expect(payload).toMatchObject({ sub: "partnerKey:partner", htm: "POST", htu: "http://10.0.0.2/b", a2a_operation: "SendMessage" });
    expect(payload.body_sha256).toBe(await sha256(origin.bodies[0]!));
    expect(typeof payload.jti).toBe("string");
    expect(decodeJwt(second!).jti).not.toBe(payload.jti);
  });

  it("signs each failover attempt for the origin it goes to", async () => {
    const origin = fakeOrigin(async (req) => {
      if (req.url.startsWith("http://10.0.0.3/")) throw new TypeError("connection refused");
      return json({ jsonrpc: "2.0", id: 1, result: {} });
    });
    const { env } = await setup({ ORIGIN_REGIONS: JSON.stringify({ EU: ["http://10.0.0.3/eu"] }) }, origin);
    await callVia(origin, "https://a.example.com/", { ...rpc("GetTask", { id: "t" }, { "X-API-Key": KEY }), cf: { continent: "EU" } }, env);
    expect(origin.requests.map((r) => r.url)).toEqual(["http://10.0.0.3/eu", RPC_ORIGIN]);
    expect(origin.requests.map((r) => decodeJwt(r.headers.get("a2a-caller-assertion")!).aud)).toEqual(["http://10.0.0.3/eu", RPC_ORIGIN]);
  });

  it("names ORIGIN_REST_URL as aud and the REST request as htm/htu for a REST origin (no body hash on a GET)", async () => {
    const origin = anyOrigin();
    const { env } = await setup({ ORIGIN_BINDING: "http+json", ORIGIN_REST_URL: REST_BASE, ORIGIN_PROTOCOL_VERSIONS: "1.0" }, origin);
    await callVia(
      origin,
      "https://a.example.com/",
      rpc("GetTask", { id: "t1", historyLength: 2 }, { "X-API-Key": KEY, "A2A-Version": "1.0" }),
      env,
    );
    const claims = decodeJwt(origin.requests[0]!.headers.get("a2a-caller-assertion")!);
    expect(claims).toMatchObject({ aud: REST_BASE, htm: "GET", htu: `${REST_BASE}/tasks/t1`, a2a_operation: "GetTask" });
    expect(claims).not.toHaveProperty("body_sha256");
  });
});

describe("a REST route's version is its route's", () => {
  const env = () => makeEnv({ ORIGIN_URL: RPC_ORIGIN, EDGE_AUTH: "off", REST_PATH: "/rest" });

  it.each([
    ["an unknown version", "/rest/message:send", "9.9"],
    ["0.3 on a 1.0-only route", "/rest/tasks", "0.3"],
    ["an unreadable version", "/rest/message:send", "latest"],
  ])("refuses %s in A2A-Version (-32009), nothing reaches the origin", async (_name, path, version) => {
    const origin = anyOrigin();
    const method = path.endsWith("tasks") ? "GET" : "POST";
    const response = await callVia(
      origin,
      `${HOST}${path}`,
      rest(method, { "A2A-Version": version }, method === "POST" ? { message } : undefined),
      env(),
    );
    expect(response.status).toBe(400);
    expect(JSON.stringify(await response.json())).toContain("VERSION_NOT_SUPPORTED");
    expect(origin.requests).toHaveLength(0);
  });

  it("sends the origin the route's version, whatever the client wrote", async () => {
    const origin = anyOrigin();
    await callVia(origin, `${HOST}/rest/message:send`, rest("POST", { "A2A-Version": "1.0.7" }, { message }), env());
    await callVia(origin, `${HOST}/rest/message:send`, rest("POST", {}, { message }), env());
    const old = { message: { kind: "message", messageId: "m1", role: "user", parts: [{ kind: "text", text: "hi" }] } };
    await callVia(origin, `${HOST}/rest/v1/message:send`, rest("POST", {}, old), env());
    // With A2A-Version: 1.0, /v1/... is 1.0's route of tenant "v1" (A2A 1.0 §3.6), never a 0.3 call labelled 1.0.
    await callVia(origin, `${HOST}/rest/v1/message:send`, rest("POST", { "A2A-Version": "1.0" }, { message }), env());
    const seen = await Promise.all(
      origin.requests.map(async (r) => [r.headers.get("a2a-version"), ((await r.clone().json()) as { method: string }).method]),
    );
    expect(seen).toEqual([
      ["1.0", "SendMessage"],
      ["1.0", "SendMessage"],
      ["0.3", "message/send"],
      ["1.0", "SendMessage"],
    ]);
    expect(((await origin.requests[3]!.clone().json()) as { params: { tenant?: string } }).params.tenant).toBe("v1");
  });
});

describe("signatures only for a host[:port] the operator named", () => {
  const key = async () => {
    const pair = (await crypto.subtle.generateKey({ name: "Ed25519" }, true, ["sign"])) as CryptoKeyPair;
    return JSON.stringify({ ...((await crypto.subtle.exportKey("jwk", pair.privateKey)) as JsonWebKey), kid: "k" });
  };
  const signed = async (url: string, allowlist: string, signingKey: string) => {
    const response = await callVia(
      anyOrigin(),
      url,
      { headers: { "A2A-Version": "1.0" } },
      makeEnv({ CARD_SIGNING_KEY: signingKey, HOST_ALLOWLIST: allowlist }),
    );
    expect(response.status, url).toBe(200);
    const card = (await response.json()) as { signatures?: unknown[]; supportedInterfaces: { url: string }[] };
    return { signed: (card.signatures ?? []).length > 0, url: card.supportedInterfaces[0]!.url };
  };

  it("signs agents.example.com, not agents.example.com:9999, unless the entry names that port", async () => {
    const k = await key();
    expect(await signed(`${HOST}${CARD}`, "agents.example.com", k)).toEqual({ signed: true, url: `${HOST}/` });
    expect(await signed(`https://agents.example.com:9999${CARD}`, "agents.example.com", k)).toEqual({
      signed: false,
      url: "https://agents.example.com:9999/",
    });
    expect((await signed(`https://agents.example.com:9999${CARD}`, "agents.example.com:9999", k)).signed).toBe(true);
    expect((await signed(`${HOST}${CARD}`, "agents.example.com:9999", k)).signed).toBe(false);
  });
});

describe("an issuer without usable keys is asked at most once a minute", () => {
  const ISSUER = "https://idp.example";
  const two = {
    name: "Two JWT schemes",
    securitySchemes: {
      bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" },
      sso: { type: "openIdConnect", openIdConnectUrl: `${ISSUER}/.well-known/openid-configuration` },
    },
    security: [{ bearer: [] }, { sso: [] }],
  };
  // A well-formed JWT the edge must try to verify (the keys it would need are what is missing).
  const token = "eyJhbGciOiJSUzI1NiIsImtpZCI6ImsxIn0.eyJzdWIiOiJ4In0.c2ln";

  it.each([
    [
      "discovery answering 503",
      1,
      (url: string) => (url.endsWith("openid-configuration") ? new Response("down", { status: 503 }) : undefined),
    ],
    [
      'a JWKS of {"keys":"not-a-list"}',
      2,
      (url: string) =>
        url.endsWith("openid-configuration")
          ? Response.json({ issuer: ISSUER, jwks_uri: `${ISSUER}/jwks` })
          : url.endsWith("/jwks")
            ? Response.json({ keys: "not-a-list" })
            : undefined,
    ],
  ])("%s: 20 calls, two JWT schemes each, make %d issuer request(s), each call refused", async (_name, expected, issuer) => {
    await runCalls(two, expected, issuer);
  });

  it("verifies a token once per request when one alternative names two JWT schemes (checked together)", async () => {
    const both = { ...two, security: [{ bearer: [], sso: [] }] };
    await runCalls(both, 1, (url) => (url.endsWith("openid-configuration") ? new Response("down", { status: 503 }) : undefined));
  });

  async function runCalls(document: object, expected: number, issuer: (url: string) => Response | undefined) {
    const logs = captureConsole();
    await baseEnv.SKILLS.put("jwt.example.com", JSON.stringify(document));
    const seen: string[] = [];
    const origin = fakeOrigin(async (req) => {
      const answer = issuer(req.url);
      if (answer) {
        seen.push(req.url);
        return answer;
      }
      return json({ jsonrpc: "2.0", id: 1, result: {} });
    });
    const env = makeEnv({
      ORIGIN_URL: RPC_ORIGIN,
      AUTH_JWT_ISSUER: ISSUER,
      AUTH_JWT_AUDIENCE: "https://agent.example/",
      KV_CACHE_TTL: "0",
    });
    const statuses = new Set<number>();
    for (let i = 0; i < 20; i++) {
      const response = await callVia(
        origin,
        "https://jwt.example.com/",
        rpc("GetTask", { id: "t" }, { authorization: `Bearer ${token}` }),
        env,
      );
      statuses.add(response.status);
    }
    expect([...statuses]).toEqual([401]);
    expect(seen).toHaveLength(expected);
    expect(origin.requests.filter((r) => r.url === RPC_ORIGIN)).toHaveLength(0);
    // The one failed fetch of the keys is said once, as an error; the calls that wait out the minute say nothing.
    expect(logs.events("auth_jwks_unavailable")).toMatchObject([{ level: "error", error: "TypeError" }]);
  }
});

describe("refused credentials count against the client's address", () => {
  it("turns 401s into 429 once the address is over the RATE_LIMITER limit; the origin sees none of them", async () => {
    const hash = await sha256Hex("partner-key-0123456789");
    const document = { name: "Keyed", securitySchemes: { k: { type: "apiKey", in: "header", name: "X-API-Key" } }, security: [{ k: [] }] };
    await baseEnv.SKILLS.put("limited.example.com", JSON.stringify(document));
    const env = makeEnv({
      ORIGIN_URL: RPC_ORIGIN,
      KV_CACHE_TTL: "0",
      AUTH_API_KEYS: JSON.stringify({ partner: `sha256:${hash}` }),
      RATE_LIMITER: (baseEnv as unknown as { TEST_RATE_LIMITER: RateLimit }).TEST_RATE_LIMITER,
    });
    const origin = anyOrigin();
    const statuses: number[] = [];
    await inOneRateWindow(60);
    for (let i = 0; i < 5; i++) {
      const headers = { "X-API-Key": `wrong-${i}`, "cf-connecting-ip": "203.0.113.77" };
      statuses.push((await callVia(origin, "https://limited.example.com/", rpc("GetTask", { id: "t" }, headers), env)).status);
    }
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
    expect(origin.requests).toHaveLength(0);
  });
});

describe("every URL built for a REST origin is checked after it is built", () => {
  it.each([
    ["/tasks/t1", `${REST_BASE}/tasks/t1`],
    ["/acme/tasks/a%3Ab", `${REST_BASE}/acme/tasks/a%3Ab`],
    ["/../tasks/x", undefined],
    ["/%2e%2e/tasks/x", undefined],
    ["/tasks/..", `${REST_BASE}/`], // the base itself: still under it
    ["/..", undefined],
    ["/x/../../..", undefined],
  ])("%s -> %s", (path, expected) => {
    expect(underBase(REST_BASE, path)).toBe(expected);
    expect(underBase(`${REST_BASE}/`, path)).toBe(expected);
  });
});
