// The origin reached through a Workers VPC Service (docs/front-a-private-agent.md): a stand-in Fetcher under
// the binding's name shows what the private service receives. Workers VPC routes by the service's own
// configuration; the URL's host is only the Host header and TLS name, its port is ignored
// (developers.cloudflare.com/workers-vpc/api/): so each test asserts the URL the edge sends, which a
// deployed Worker's service receives as its Host and path. The policies every origin kind gets (credentials,
// caller assertion, faults, bounds; a JSON-RPC origin of the caller's version, of another version, a REST
// origin) are rows here, not columns of the parity table (test/support/parity.ts builds its origins as fetch
// stand-ins, run in workerd and over raw sockets to the built bundle and wrangler dev, where no binding can
// be given).
import { importJWK, jwtVerify } from "jose";
import { describe, expect, it } from "vitest";
import { adminWorker, put, useHosts } from "../support/admin";
import { captureConsole } from "../support/console";
import { apiKeyCaller, call, callVia, documentsKv, type FakeOrigin, fakeOrigin, makeEnv } from "../support/worker";

const PUBLIC = "https://agents.example.com";
const PRIVATE_URL = "http://agent.internal:8080/a2a";
const ORIGIN_SECRET = "Bearer vpc-origin-secret-0123";

const rpc = (id: number, headers: Record<string, string> = {}): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/json", "A2A-Version": "1.0", ...headers },
  body: JSON.stringify({ jsonrpc: "2.0", id, method: "GetTask", params: { id: "t1" } }),
});

const answering = () =>
  fakeOrigin(async (req) => Response.json({ jsonrpc: "2.0", id: ((await req.clone().json()) as { id: number }).id, result: { id: "t1" } }));

/** Fetch to the internet: a VPC origin must never be called this way. */
const noFetch = () => fakeOrigin(() => new Response("fetched", { status: 500 }));

const vpcEnv = (vpc: FakeOrigin, overrides: Record<string, unknown> = {}) =>
  makeEnv({ ORIGIN_VPC: { fetch: vpc.fetch }, EDGE_AUTH: "off", ACCESS_LOG: "off", ...overrides });

async function assertionKey() {
  const pair = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign"])) as CryptoKeyPair;
  return { ...((await crypto.subtle.exportKey("jwk", pair.privateKey)) as JsonWebKey), kid: "vpc" };
}

/** The caller assertion a request carries, verified with the worker's JWKS for `audience`. */
async function verifiedAssertion(request: Request, workerEnv: Env, audience: string) {
  const jwks = (await (await call(`${PUBLIC}/.well-known/jwks.json`, {}, workerEnv)).json()) as { keys: JsonWebKey[] };
  const key = await importJWK(jwks.keys.find((k) => (k as { kid?: string }).kid === "vpc")!, "ES256");
  return (await jwtVerify(request.headers.get("a2a-caller-assertion") ?? "", key, { issuer: PUBLIC, audience })).payload;
}

describe("ORIGIN_VPC: the deployment's origin through a VPC Service", () => {
  it("sends ORIGIN_URL through the binding with the origin's credentials, and the assertion names it", async () => {
    const vpc = answering();
    const fetched = noFetch();
    const caller = await apiKeyCaller();
    const workerEnv = vpcEnv(vpc, {
      ...caller.env,
      EDGE_AUTH: "enforce",
      ORIGIN_URL: PRIVATE_URL,
      ORIGIN_HEADERS: JSON.stringify({ Authorization: ORIGIN_SECRET }),
      AUTH_ASSERTION_KEY: JSON.stringify(await assertionKey()),
    });
    const response = await callVia(fetched, `${PUBLIC}/?trace=1`, rpc(3, caller.headers), workerEnv);
    expect(await response.json()).toEqual({ jsonrpc: "2.0", id: 3, result: { id: "t1" } });
    expect(fetched.requests).toHaveLength(0);
    const [seen] = vpc.requests;
    const url = new URL(seen!.url);
    expect([url.protocol, url.host, url.pathname, url.search]).toEqual(["http:", "agent.internal:8080", "/a2a", "?trace=1"]);
    expect(seen!.headers.get("authorization")).toBe(ORIGIN_SECRET);
    expect(seen!.headers.get("x-api-key")).toBeNull();
    expect(seen!.headers.get("x-forwarded-host")).toBe("agents.example.com");
    expect(seen!.headers.get("a2a-caller")).toBe("partnerKey:partner");
    const payload = await verifiedAssertion(seen!, workerEnv, PRIVATE_URL);
    expect(payload).toMatchObject({ sub: "partnerKey:partner", htu: PRIVATE_URL, a2a_operation: "GetTask" });
  });

  it("sends http://origin.invalid/ without ORIGIN_URL, and ORIGIN (a Worker origin) wins when both are bound", async () => {
    const vpc = answering();
    await callVia(noFetch(), `${PUBLIC}/`, rpc(1), vpcEnv(vpc));
    expect(vpc.requests.map((r) => r.url)).toEqual(["http://origin.invalid/"]);
    const worker = answering();
    await callVia(noFetch(), `${PUBLIC}/`, rpc(2), vpcEnv(vpc, { ORIGIN: { fetch: worker.fetch } }));
    expect([vpc.requests.length, worker.requests.map((r) => r.url)]).toEqual([1, ["https://origin.invalid/"]]);
  });

  it("takes a REST origin's calls too (ORIGIN_BINDING=http+json): ORIGIN_REST_URL's host and paths through the binding", async () => {
    const vpc = fakeOrigin(() => Response.json({ id: "t1", contextId: "c", status: { state: "TASK_STATE_COMPLETED" } }));
    const rest = { ORIGIN_BINDING: "http+json", ORIGIN_REST_URL: "http://agent.internal:8080/rest" };
    const response = await callVia(noFetch(), `${PUBLIC}/`, rpc(9), vpcEnv(vpc, rest));
    expect(await response.json()).toMatchObject({ id: 9, result: { id: "t1" } });
    expect(vpc.requests.map((r) => `${r.method} ${r.url}`)).toEqual(["GET http://agent.internal:8080/rest/tasks/t1"]);
  });

  it.each([
    ["unreachable", 502, () => Promise.reject(new TypeError("Network connection lost")), "unreachable"],
    ["silent past ORIGIN_TIMEOUT_MS", 504, () => new Promise<Response>(() => undefined), "timeout"],
    [
      "a redirect to its private address",
      502,
      () => new Response(null, { status: 302, headers: { location: `${PRIVATE_URL}/x` } }),
      "redirect",
    ],
  ] as const)("an origin %s is a %i naming neither the binding nor the private host", async (_name, status, answer, kind) => {
    const logs = captureConsole();
    const vpc = fakeOrigin(answer);
    const response = await callVia(noFetch(), `${PUBLIC}/`, rpc(4), vpcEnv(vpc, { ORIGIN_URL: PRIVATE_URL, ORIGIN_TIMEOUT_MS: "150" }));
    const text = await response.text();
    expect(response.status).toBe(status);
    expect(JSON.parse(text)).toMatchObject({ id: 4, error: { code: -32603 } });
    expect(text).not.toMatch(/agent\.internal|ORIGIN_VPC/);
    expect(logs.events("origin_failed")).toMatchObject([{ kind }]);
    if (kind === "unreachable") expect(logs.events("origin_failed")[0]).toMatchObject({ origin: "vpc-service:ORIGIN_VPC" });
  });

  it("bounds what it reads of a reply it translates (ORIGIN_REPLY_MAX_BYTES)", async () => {
    const logs = captureConsole();
    const big = { jsonrpc: "2.0", id: 5, result: { id: "t1", contextId: "c", status: { state: "completed" }, note: "x".repeat(4096) } };
    const vpc = fakeOrigin(() => Response.json(big));
    // A 0.3 client of a 1.0 origin: the reply is read to be translated.
    const workerEnv = vpcEnv(vpc, { ORIGIN_PROTOCOL_VERSIONS: "1.0", ORIGIN_REPLY_MAX_BYTES: "2048" });
    const init = {
      ...rpc(5, { "A2A-Version": "0.3" }),
      body: JSON.stringify({ jsonrpc: "2.0", id: 5, method: "tasks/get", params: { id: "t1" } }),
    };
    const response = await callVia(noFetch(), `${PUBLIC}/`, init, workerEnv);
    expect(response.status).toBe(502);
    expect(logs.events("origin_failed")).toMatchObject([{ kind: "invalid_response" }]);
  });
});

describe("a document's VPC Service (DOCUMENT_VPC_SERVICES)", () => {
  const HOST = "https://b.example.com";
  const documentEnv = (
    originVpc: string,
    listed: string,
    bound: Record<string, FakeOrigin>,
    credentials: { originCredentials?: string } = { originCredentials: "b" },
  ) =>
    makeEnv({
      SKILLS: documentsKv({ "b.example.com": { name: "Agent B", originVpc, originUrl: "http://b.internal/rpc", ...credentials } }),
      KV_CACHE_TTL: "0",
      EDGE_AUTH: "off",
      ACCESS_LOG: "off",
      ORIGIN_URL: "http://10.9.9.9/rpc",
      ORIGIN_HEADERS: JSON.stringify({ Authorization: ORIGIN_SECRET }),
      ORIGIN_CREDENTIALS: JSON.stringify({ b: { Authorization: "Bearer b-own" } }),
      DOCUMENT_VPC_SERVICES: listed,
      ...Object.fromEntries(Object.entries(bound).map(([name, origin]) => [name, { fetch: origin.fetch }])),
    });

  it("goes through the listed binding with the document's URL and its own credentials only", async () => {
    const [b, other, fetched] = [answering(), answering(), noFetch()];
    const response = await callVia(
      fetched,
      `${HOST}/`,
      rpc(6),
      documentEnv("AGENT_B_VPC", "AGENT_B_VPC", { AGENT_B_VPC: b, OTHER_VPC: other }),
    );
    expect(response.status).toBe(200);
    expect([fetched.requests.length, other.requests.length]).toEqual([0, 0]);
    expect(b.requests.map((r) => [r.url, r.headers.get("authorization")])).toEqual([["http://b.internal/rpc", "Bearer b-own"]]);
    // Naming no ORIGIN_CREDENTIALS entry: no credential at all, never ORIGIN_HEADERS (ORIGIN_URL's).
    const bare = answering();
    await callVia(fetched, `${HOST}/`, rpc(8), documentEnv("AGENT_B_VPC", "AGENT_B_VPC", { AGENT_B_VPC: bare }, {}));
    expect(bare.requests.map((r) => r.headers.get("authorization"))).toEqual([null]);
  });

  const { host } = useHosts();
  it("the admin API refuses a document naming a binding the list does not", async () => {
    const admin = adminWorker({ DOCUMENT_VPC_SERVICES: "AGENT_B_VPC" });
    const h = host("vpc");
    captureConsole();
    const refused = await admin(`https://${h}/_admin/documents/${h}`, put({ name: "X", originVpc: "OTHER_VPC" }));
    expect(refused.status).toBe(422);
    expect(await refused.text()).toContain("DOCUMENT_VPC_SERVICES");
    expect((await admin(`https://${h}/_admin/documents/${h}`, put({ name: "X", originVpc: "AGENT_B_VPC" }))).status).toBe(200);
  });

  it.each([
    ["a bound binding the list does not name", "OTHER_VPC", "AGENT_B_VPC", "not_in_DOCUMENT_VPC_SERVICES"],
    ["the deployment's own ORIGIN_VPC, unlisted", "ORIGIN_VPC", "AGENT_B_VPC", "not_in_DOCUMENT_VPC_SERVICES"],
    ["a listed name the Worker lacks", "GONE_VPC", "GONE_VPC,AGENT_B_VPC", "not_bound"],
  ])("refuses %s: no origin at all, never the deployment's", async (_name, named, listed, reason) => {
    const logs = captureConsole();
    const [b, other, deployment, fetched] = [answering(), answering(), answering(), noFetch()];
    const workerEnv = documentEnv(named, listed, { AGENT_B_VPC: b, OTHER_VPC: other, ORIGIN_VPC: deployment });
    const response = await callVia(fetched, `${HOST}/`, rpc(7), workerEnv);
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ id: 7, error: { code: -32603 } });
    expect([b, other, deployment, fetched].map((origin) => origin.requests.length)).toEqual([0, 0, 0, 0]);
    expect(logs.events("document_vpc_refused")).toEqual([expect.objectContaining({ host: "b.example.com", binding: named, reason })]);
  });

  it.each([["ORIGIN"], ["not-a-binding"]])("DOCUMENT_VPC_SERVICES=%s is a configuration error", async (value) => {
    const logs = captureConsole();
    const response = await call(`${PUBLIC}/.well-known/agent-card.json`, {}, makeEnv({ DOCUMENT_VPC_SERVICES: value }));
    expect(response.status).toBe(500);
    expect(logs.events("config_invalid")[0]).toMatchObject({ issues: expect.stringContaining("DOCUMENT_VPC_SERVICES") });
  });
});
