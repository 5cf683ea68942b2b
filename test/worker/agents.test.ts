// Agents by path inside workerd, with the real KV, DocumentLog and AgentIndex of wrangler.toml: documents
// written through the admin API under `<host>/<path>` keys are served at `<host>/<path>/...` with every URL
// under their path, each with its own origin and origin credentials; the host's own agent stays at the root;
// a path agent never answers for another path; agent paths that collide with the edge's own are refused.
import { describe, expect, it } from "vitest";
import { TOKEN, useHosts } from "../support/admin";
import { captureConsole } from "../support/console";
import { linksetErrors } from "../support/linkset";
import { callVia, fakeOrigin, makeEnv } from "../support/worker";

const TRAVEL_ORIGIN = "https://travel-origin.example.net/rpc";
const BILLING_ORIGIN = "https://billing-origin.example.net/rpc";
const ROOT_ORIGIN = "https://root-origin.example.net/rpc";

function setUp() {
  const origin = fakeOrigin(async (request) => {
    const { id } = (await request
      .clone()
      .json()
      .catch(() => ({ id: 1 }))) as { id?: unknown };
    return Response.json({ jsonrpc: "2.0", id, result: { task: { id: "t", contextId: "c", status: { state: "TASK_STATE_COMPLETED" } } } });
  });
  const vars = {
    ADMIN_TOKEN: TOKEN,
    EDGE_AUTH: "off",
    REST_PATH: "/rest",
    ORIGIN_URL: ROOT_ORIGIN,
    ORIGIN_HEADERS: JSON.stringify({ authorization: "Bearer root-secret" }),
    DOCUMENT_ORIGINS: `${TRAVEL_ORIGIN},${BILLING_ORIGIN}`,
    ORIGIN_CREDENTIALS: JSON.stringify({ travel: { authorization: "Bearer travel-secret" } }),
  };
  const env = makeEnv(vars);
  const call = (url: string, init: RequestInit = {}) => callVia(origin, url, init, env);
  /** Another isolate's view (its own caches), of the same KV and Durable Objects. */
  const fresh = () => {
    const other = makeEnv({ ...vars });
    return (url: string, init: RequestInit = {}) => callVia(origin, url, init, other);
  };
  const admin = (url: string, init: RequestInit = {}) =>
    call(url, { ...init, headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json", ...init.headers } });
  return { origin, call, admin, fresh };
}

const rpc = (id: number) => ({
  method: "POST",
  headers: { "content-type": "application/json", "A2A-Version": "1.0" },
  body: JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "SendMessage",
    params: { message: { messageId: "m", role: "ROLE_USER", parts: [{ text: "hi" }] } },
  }),
});

describe("agents by path", () => {
  const { host, used } = useHosts();

  it("serves each path agent's card, RPC and REST under its path, to its own origin with its own credentials", async () => {
    const { origin, call, admin, fresh } = setUp();
    const h = host("agents");
    used.push(`${h}/travel`, `${h}/billing/eu`, `agents:${h}`);
    const put = (key: string, document: unknown) =>
      admin(`https://${h}/_admin/documents/${key}`, { method: "PUT", body: JSON.stringify(document) });
    expect((await put(h, { name: "Root Agent" })).status).toBe(200);
    expect((await put(`${h}/travel`, { name: "Travel Agent", originUrl: TRAVEL_ORIGIN, originCredentials: "travel" })).status).toBe(200);
    expect((await put(`${h}/billing/eu`, { name: "Billing Agent", originUrl: BILLING_ORIGIN })).status).toBe(200);
    used.push(`${h}/billing`);
    expect((await put(`${h}/billing`, { name: "Billing Root" })).status).toBe(200);

    const card = async (path: string) =>
      (await call(`https://${h}${path}/.well-known/agent-card.json`)).json() as Promise<Record<string, unknown>>;
    const travel = await card("/travel");
    expect(travel.name).toBe("Travel Agent");
    const urls = JSON.stringify(travel).match(/https?:\/\/[^"]+/g) ?? [];
    expect(urls.length).toBeGreaterThan(0);
    for (const url of urls) expect(url.startsWith(`https://${h}/travel`), url).toBe(true);
    expect((await card("/billing/eu")).name).toBe("Billing Agent");
    expect((await card("")).name).toBe("Root Agent");
    // The longest agent path wins: /billing/eu is not /billing's.
    expect((await card("/billing")).name).toBe("Billing Root");
    // Never another path's agent: a lookalike, a path under an agent that is no agent.
    for (const path of ["/travelers", "/billing/us", "/trave"]) {
      expect((await call(`https://${h}${path}/.well-known/agent-card.json`)).status, path).toBe(404);
    }

    const sent = async (url: string, init: RequestInit) => {
      const before = origin.requests.length;
      const response = await call(url, init);
      expect(response.status, url).toBe(200);
      const request = origin.requests[before];
      return { url: request?.url, authorization: request?.headers.get("authorization") };
    };
    expect(await sent(`https://${h}/travel`, rpc(1))).toEqual({ url: TRAVEL_ORIGIN, authorization: "Bearer travel-secret" });
    expect(await sent(`https://${h}/travel/`, rpc(2))).toEqual({ url: TRAVEL_ORIGIN, authorization: "Bearer travel-secret" });
    // A document without credentials of its own gets none: ORIGIN_HEADERS are ORIGIN_URL's.
    expect(await sent(`https://${h}/billing/eu/`, rpc(3))).toEqual({ url: BILLING_ORIGIN, authorization: null });
    expect(await sent(`https://${h}/`, rpc(4))).toEqual({ url: ROOT_ORIGIN, authorization: "Bearer root-secret" });
    const rest = {
      method: "POST",
      headers: { "content-type": "application/json", "A2A-Version": "1.0" },
      body: JSON.stringify({ message: { messageId: "m", role: "ROLE_USER", parts: [{ text: "hi" }] } }),
    };
    expect((await sent(`https://${h}/travel/rest/message:send`, rest)).url).toBe(TRAVEL_ORIGIN);

    // The host's catalogs list all three, and the cards and page point to them.
    const apiCatalog = await call(`https://${h}/.well-known/api-catalog`);
    expect(apiCatalog.headers.get("content-type")).toBe('application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"');
    const linkset = await apiCatalog.json();
    expect(linksetErrors(linkset)).toEqual([]);
    const items = (linkset as { linkset: { anchor: string; item?: { href: string }[] }[] }).linkset[0];
    expect(items?.anchor).toBe(`https://${h}/.well-known/api-catalog`);
    expect(items?.item?.map((i) => i.href).sort()).toEqual(
      ["", "/billing", "/billing/eu", "/travel"].map((path) => `https://${h}${path}/.well-known/agent-card.json`).sort(),
    );
    const ai = (await (await call(`https://${h}/.well-known/ai-catalog.json`)).json()) as {
      specVersion: string;
      entries: Record<string, unknown>[];
    };
    expect(ai.specVersion).toBe("1.0");
    expect(ai.entries.map((e) => e.displayName).sort()).toEqual(["Billing Agent", "Billing Root", "Root Agent", "Travel Agent"]);
    for (const entry of ai.entries) {
      expect(entry).toMatchObject({ mediaType: "application/a2a-agent-card+json", identifier: expect.stringMatching(/^https:\/\//) });
      expect(entry.url).toBe(`${entry.identifier}/.well-known/agent-card.json`);
    }
    const etag = apiCatalog.headers.get("etag") ?? "";
    expect((await call(`https://${h}/.well-known/api-catalog`, { headers: { "if-none-match": etag } })).status).toBe(304);
    const link = (await call(`https://${h}/travel/.well-known/agent-card.json`)).headers.get("link");
    expect(link).toBe(
      `<https://${h}/.well-known/api-catalog>; rel="api-catalog", <https://${h}/.well-known/ai-catalog.json>; rel="ai-catalog", <https://${h}/.well-known/ard.json>; rel="ard"`,
    );
    expect((await call(`https://${h}/travel/`, { headers: { accept: "text/html" } })).headers.get("link")).toBe(link);
    expect((await call(`https://${h}/travel/.well-known/api-catalog`)).status, "a path agent has no catalog of its own").toBe(404);

    // Deleted: gone from its path, the others stay.
    expect((await admin(`https://${h}/_admin/documents/${h}/travel`, { method: "DELETE" })).status).toBe(200);
    expect((await call(`https://${h}/travel/.well-known/agent-card.json`)).status).toBe(404);
    expect((await card("/billing/eu")).name).toBe("Billing Agent");
    const after = (await (await call(`https://${h}/.well-known/ai-catalog.json`)).json()) as { entries: { displayName: string }[] };
    expect(after.entries.map((e) => e.displayName).sort()).toEqual(["Billing Agent", "Billing Root", "Root Agent"]);

    // A document gone from KV behind the index's back (a stale index): that path is no agent, never the host's.
    const { kv } = await import("../support/admin");
    await kv.delete(`${h}/billing/eu`);
    const stale = await fresh()(`https://${h}/billing/eu/.well-known/agent-card.json`);
    expect(stale.status).toBe(404);
    expect(await stale.text()).not.toContain("Root Agent");
  });

  it("checks each agent's callers with its own verifiers (AUTH_PROFILES), never another agent's", async () => {
    const h = host("auth");
    used.push(`${h}/travel`, `agents:${h}`);
    const hash = async (key: string) =>
      `sha256:${[...new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(key)))].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
    const origin = fakeOrigin(() =>
      Response.json({ jsonrpc: "2.0", id: 1, result: { task: { id: "t", contextId: "c", status: { state: "TASK_STATE_COMPLETED" } } } }),
    );
    const env = makeEnv({
      ADMIN_TOKEN: TOKEN,
      ORIGIN_URL: ROOT_ORIGIN,
      DOCUMENT_ORIGINS: TRAVEL_ORIGIN,
      AUTH_API_KEYS: JSON.stringify({ root: await hash("root-key-0123456789") }),
      AUTH_PROFILES: JSON.stringify({ travel: { AUTH_API_KEYS: { traveller: await hash("travel-key-0123456789") } } }),
    });
    const call = (url: string, init: RequestInit = {}) => callVia(origin, url, init, env);
    const keyed = { securitySchemes: { key: { type: "apiKey", in: "header", name: "X-Api-Key" } }, security: [{ key: [] }] };
    const put = (key: string, document: unknown) =>
      call(`https://${h}/_admin/documents/${key}`, {
        method: "PUT",
        headers: { authorization: `Bearer ${TOKEN}` },
        body: JSON.stringify(document),
      });
    expect((await put(h, { name: "Root", ...keyed })).status).toBe(200);
    expect((await put(`${h}/travel`, { name: "Travel", originUrl: TRAVEL_ORIGIN, authProfile: "travel", ...keyed })).status).toBe(200);
    const status = async (path: string, key: string) => {
      const init = rpc(1);
      return (await call(`https://${h}${path}`, { ...init, headers: { ...init.headers, "x-api-key": key } })).status;
    };
    captureConsole();
    expect(await status("/travel/", "travel-key-0123456789")).toBe(200);
    expect(await status("/travel/", "root-key-0123456789")).toBe(401);
    expect(await status("/", "root-key-0123456789")).toBe(200);
    expect(await status("/", "travel-key-0123456789")).toBe(401);
    const unknown = await put(`${h}/travel`, { name: "Travel", authProfile: "nobody" });
    expect(unknown.status).toBe(422);
  });

  it("rebuilds a host's index from KV, for documents written there without the admin API", async () => {
    const { admin, fresh } = setUp();
    const h = host("rebuild");
    used.push(`${h}/by-hand`, `agents:${h}`);
    const { kv } = await import("../support/admin");
    await kv.put(`${h}/by-hand`, JSON.stringify({ name: "Written By Hand" }));
    expect((await fresh()(`https://${h}/by-hand/.well-known/agent-card.json`)).status, "not in the index yet").toBe(404);
    const rebuilt = await admin(`https://${h}/_admin/index/${h}/rebuild`, { method: "POST" });
    expect(rebuilt.status).toBe(200);
    expect(await rebuilt.json()).toEqual({
      host: h,
      agents: [{ path: "/by-hand", name: "Written By Hand", description: expect.any(String) }],
    });
    const card = await fresh()(`https://${h}/by-hand/.well-known/agent-card.json`);
    expect(((await card.json()) as { name: string }).name).toBe("Written By Hand");
  });

  it("refuses agent paths the edge answers itself, and names no credentials it lacks", async () => {
    const { admin } = setUp();
    const h = host("reserved");
    for (const path of ["rest", "rest/x", "_admin", "_push", ".well-known", "Travel", "a/b/c/d/e", "x/versions"]) {
      const response = await admin(`https://${h}/_admin/documents/${h}/${path}`, { method: "PUT", body: JSON.stringify({ name: "X" }) });
      expect(response.status, path).toBeGreaterThanOrEqual(400);
      expect(response.status, path).toBeLessThan(500);
    }
    captureConsole();
    const unknown = await admin(`https://${h}/_admin/documents/${h}/travel`, {
      method: "PUT",
      body: JSON.stringify({ name: "X", originUrl: TRAVEL_ORIGIN, originCredentials: "nobody" }),
    });
    expect(unknown.status).toBe(422);
    expect(await unknown.text()).toContain("ORIGIN_CREDENTIALS");
  });
});
