// Agents where framework clients look (MASTRA_API_PREFIX): Mastra's client reads
// `<prefix>/.well-known/<agentId>/agent-card.json` and calls `<prefix>/a2a/<agentId>`. Inside workerd, with the
// real KV, DocumentLog and AgentIndex: each path is the same agent as its well-known paths (the same bytes,
// ETag, cache headers and variants; the same origin, credentials and edge authentication), an unknown or
// ill-formed agentId is 404, the prefix is no agent path, and nothing answers there while the prefix is unset.
import { describe, expect, it } from "vitest";
import { parseConfig } from "../../src/config";
import { TOKEN, useHosts } from "../support/admin";
import { callVia, fakeOrigin, makeEnv } from "../support/worker";

const ROOT_ORIGIN = "https://root-origin.example.net/rpc";
const TRAVEL_ORIGIN = "https://travel-origin.example.net/rpc";
const KEY = "mastra-partner-key-0123456789";

async function sha256Hex(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
}

async function setUp(extra: Record<string, string> = {}) {
  const origin = fakeOrigin(async (request) => {
    const { id, method } = (await request.clone().json()) as { id?: unknown; method?: string };
    return Response.json({ jsonrpc: "2.0", id, result: { method } });
  });
  const env = makeEnv({
    ADMIN_TOKEN: TOKEN,
    ORIGIN_URL: ROOT_ORIGIN,
    DOCUMENT_ORIGINS: TRAVEL_ORIGIN,
    ORIGIN_CREDENTIALS: JSON.stringify({ travel: { authorization: "Bearer travel-secret" } }),
    AUTH_API_KEYS: JSON.stringify({ partner: `sha256:${await sha256Hex(KEY)}` }),
    MASTRA_API_PREFIX: "/api",
    MASTRA_HOST_AGENT_ID: "rootAgent",
    EDGE_AUTH: "enforce",
    ...extra,
  });
  const call = (url: string, init: RequestInit = {}) => callVia(origin, url, init, env);
  const admin = (url: string, document: unknown) =>
    call(url, {
      method: "PUT",
      body: JSON.stringify(document),
      headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
    });
  return { origin, call, admin };
}

/** A card that asks for the API key: the edge enforces it (EDGE_AUTH=enforce by default). */
const guarded = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  securitySchemes: { partnerKey: { type: "apiKey", in: "header", name: "X-API-Key" } },
  security: [{ partnerKey: [] }],
  ...extra,
});

/** A send in the method's generation: 0.3's `message/send` parts have a `kind`, 1.0's `SendMessage` a role enum. */
const rpc = (method: string, headers: Record<string, string> = {}) => {
  const message =
    method === "message/send"
      ? { messageId: "m", role: "user", parts: [{ kind: "text", text: "hi" }] }
      : { messageId: "m", role: "ROLE_USER", parts: [{ text: "hi" }] };
  return {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ jsonrpc: "2.0", id: 7, method, params: { message } }),
  };
};

describe("framework paths (MASTRA_API_PREFIX)", () => {
  const { host, used } = useHosts();

  it("answers a path agent's and the host agent's cards at Mastra's card path: the same bytes, ETag, cache headers and variants", async () => {
    const { call, admin } = await setUp();
    const h = host("mastra");
    used.push(`${h}/travel`, `agents:${h}`);
    expect((await admin(`https://${h}/_admin/documents/${h}`, guarded("Root Agent"))).status).toBe(200);
    expect((await admin(`https://${h}/_admin/documents/${h}/travel`, guarded("Travel Agent", { originUrl: TRAVEL_ORIGIN }))).status).toBe(
      200,
    );
    for (const [mastra, own] of [
      [`/api/.well-known/travel/agent-card.json`, `/travel/.well-known/agent-card.json`],
      [`/api/.well-known/Travel/agent-card.json`, `/travel/.well-known/agent-card.json`],
      [`/api/.well-known/rootAgent/agent-card.json`, `/.well-known/agent-card.json`],
    ]) {
      for (const version of ["0.3", "1.0"]) {
        const [a, b] = await Promise.all([mastra, own].map((path) => call(`https://${h}${path}`, { headers: { "A2A-Version": version } })));
        expect(a?.status, mastra).toBe(200);
        expect(await a?.text(), `${mastra} ${version}`).toBe(await b?.text());
        for (const name of ["etag", "cache-control", "content-type", "link", "vary", "access-control-allow-origin"]) {
          expect(a?.headers.get(name), `${mastra} ${name}`).toBe(b?.headers.get(name));
        }
      }
    }
    // A conditional GET revalidates there too.
    const etag = (await call(`https://${h}/api/.well-known/travel/agent-card.json`)).headers.get("etag") ?? "";
    expect((await call(`https://${h}/api/.well-known/travel/agent-card.json`, { headers: { "if-none-match": etag } })).status).toBe(304);
  });

  it("sends Mastra's calls to the agent's own origin with its credentials, after the agent's own edge authentication", async () => {
    const { origin, call, admin } = await setUp();
    const h = host("mastra-rpc");
    used.push(`${h}/travel`, `agents:${h}`);
    await admin(`https://${h}/_admin/documents/${h}`, guarded("Root Agent"));
    await admin(
      `https://${h}/_admin/documents/${h}/travel`,
      guarded("Travel Agent", { originUrl: TRAVEL_ORIGIN, originCredentials: "travel" }),
    );
    // Without the card's API key: refused at the edge, in both generations (Mastra's getA2A sends 0.3, getA2AV1 1.0).
    for (const [method, headers] of [
      ["message/send", {}],
      ["SendMessage", { "A2A-Version": "1.0" }],
    ] as const) {
      const refused = await call(`https://${h}/api/a2a/travel`, rpc(method, headers));
      expect(refused.status, method).toBe(401);
      expect(await refused.json(), method).toMatchObject({ jsonrpc: "2.0", id: 7, error: {} });
    }
    expect(origin.requests.filter((r) => r.url.startsWith(TRAVEL_ORIGIN))).toHaveLength(0);
    const admitted = await call(`https://${h}/api/a2a/travel`, rpc("message/send", { "X-API-Key": KEY }));
    expect(await admitted.json()).toMatchObject({ jsonrpc: "2.0", id: 7, result: { method: "message/send" } });
    const seen = origin.requests.filter((r) => r.url.startsWith(TRAVEL_ORIGIN));
    expect(seen).toHaveLength(1);
    expect(seen[0]?.headers.get("authorization")).toBe("Bearer travel-secret");
    expect(seen[0]?.headers.get("a2a-caller")).toBe("partnerKey:partner");
    expect(seen[0]?.headers.get("x-forwarded-host")).toBe(h);
    // The host's own agent under MASTRA_HOST_AGENT_ID goes to ORIGIN_URL.
    await call(`https://${h}/api/a2a/rootAgent`, rpc("SendMessage", { "A2A-Version": "1.0", "X-API-Key": KEY }));
    expect(origin.requests.filter((r) => r.url.startsWith(ROOT_ORIGIN))).toHaveLength(1);
  });

  it("answers 404 for an agentId that names no agent or is no path segment, and never leaks an origin", async () => {
    const { origin, call, admin } = await setUp();
    const h = host("mastra-404");
    used.push(`agents:${h}`);
    await admin(`https://${h}/_admin/documents/${h}`, guarded("Root Agent"));
    for (const path of [
      "/api/.well-known/nobody/agent-card.json",
      "/api/.well-known/a.b/agent-card.json",
      "/api/.well-known/travel/x/agent-card.json",
      "/api/.well-known/%2e%2e/agent-card.json",
      "/api/.well-known//agent-card.json",
      "/api/.well-known/rootagent/agent-card.json", // MASTRA_HOST_AGENT_ID is matched as written
      "/api/a2a",
      "/api/other",
    ]) {
      const response = await call(`https://${h}${path}`);
      expect(response.status, path).toBe(404);
      expect(await response.text(), path).not.toContain("origin.example.net");
    }
    const before = origin.requests.length;
    expect((await call(`https://${h}/api/a2a/nobody`, rpc("message/send", { "X-API-Key": KEY }))).status).toBe(404);
    expect(origin.requests.length).toBe(before);
  });

  it("answers 404 at Mastra's paths on a host HOST_ALLOWLIST does not name, as on every path", async () => {
    const { origin, call } = await setUp({ HOST_ALLOWLIST: "listed.example.com" });
    const before = origin.requests.length;
    for (const [path, init] of [
      ["/api/.well-known/rootAgent/agent-card.json", {}],
      ["/api/a2a/rootAgent", rpc("message/send", { "X-API-Key": KEY })],
    ] as const) {
      expect((await call(`https://unlisted.example.net${path}`, init)).status, path).toBe(404);
    }
    expect(origin.requests.length).toBe(before);
  });

  it("keeps the prefix from agents by path, and answers nothing there while MASTRA_API_PREFIX is unset", async () => {
    const { admin } = await setUp();
    const h = host("mastra-reserved");
    for (const key of [`${h}/api`, `${h}/api/travel`]) {
      const response = await admin(`https://${h}/_admin/documents/${key}`, { name: "Squatter" });
      expect(response.status, key).toBe(400);
      expect(await response.text(), key).toContain("/api");
    }
    const off = await setUp({ MASTRA_API_PREFIX: "", MASTRA_HOST_AGENT_ID: "" });
    expect((await off.call(`https://${h}/api/.well-known/rootAgent/agent-card.json`)).status).toBe(404);
  });

  it("refuses a prefix that is one of the edge's own paths, and an agentId without a prefix, naming the variable", () => {
    for (const [vars, name] of [
      [{ MASTRA_API_PREFIX: "/" }, "MASTRA_API_PREFIX"],
      [{ MASTRA_API_PREFIX: "/.well-known" }, "MASTRA_API_PREFIX"],
      [{ MASTRA_API_PREFIX: "/_admin" }, "MASTRA_API_PREFIX"],
      [{ MASTRA_API_PREFIX: "/rest", REST_PATH: "/rest" }, "MASTRA_API_PREFIX"],
      [{ MASTRA_API_PREFIX: "/api", RPC_PATH: "/api/a2a" }, "MASTRA_API_PREFIX"],
      [{ MASTRA_HOST_AGENT_ID: "rootAgent" }, "MASTRA_HOST_AGENT_ID"],
      [{ MASTRA_API_PREFIX: "/api", MASTRA_HOST_AGENT_ID: "a/b" }, "MASTRA_HOST_AGENT_ID"],
    ] as const) {
      const parsed = parseConfig({ ORIGIN_URL: ROOT_ORIGIN, ...vars });
      expect(parsed.ok ? [] : parsed.issues.map((issue) => issue.path), JSON.stringify(vars)).toContain(name);
    }
    const parsed = parseConfig({ ORIGIN_URL: ROOT_ORIGIN, MASTRA_API_PREFIX: "/api/" });
    expect(parsed.ok && parsed.value.mastraApiPrefix).toBe("/api");
  });
});
