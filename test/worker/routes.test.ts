// The route table (src/routes.ts): every (method, path) the worker answers, for
// a configuration with its own RPC and admin paths, and what answers it.
import { createExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { callVia, fakeOrigin, makeEnv } from "../support/worker";

const HOST = "https://agents.example.com";
const TOKEN = "admin-token-0123456789abcdef";
const env = (overrides: Record<string, unknown> = {}) =>
  makeEnv({ ORIGIN_URL: "http://10.0.0.9/rpc", RPC_PATH: "/a2a", ADMIN_PATH: "/ops", ADMIN_TOKEN: TOKEN, EDGE_AUTH: "off", ...overrides });
const origin = () => fakeOrigin(() => Response.json({ jsonrpc: "2.0", id: 1, result: { ok: true } }));
const rpcBody = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "GetTask", params: {} });

interface Expected {
  status: number;
  /** What answered: the card (or another JSON document: the JWKS, a catalog), the page, the origin (through the RPC pipeline), CORS, or an error shape. */
  kind: "card" | "page" | "origin" | "preflight" | "error" | "empty";
  allow?: string;
}

function kindOf(response: Response, text: string): Expected["kind"] {
  const type = response.headers.get("content-type") ?? "";
  if (response.status === 204) return response.headers.has("access-control-allow-methods") ? "preflight" : "empty";
  if (type.startsWith("text/html")) return "page";
  if (text === "") return "empty";
  const body = JSON.parse(text) as Record<string, unknown>;
  if ("error" in body && !("jsonrpc" in body)) return "error";
  if ("result" in body) return "origin";
  return "card";
}

const TABLE: Array<[string, string, Expected]> = [
  ["GET", "/.well-known/agent-card.json", { status: 200, kind: "card" }],
  ["GET", "/.well-known/agent.json", { status: 200, kind: "card" }],
  ["HEAD", "/.well-known/agent-card.json", { status: 200, kind: "empty" }],
  ["OPTIONS", "/.well-known/agent-card.json", { status: 204, kind: "preflight" }],
  ["POST", "/.well-known/agent-card.json", { status: 405, kind: "error", allow: "GET, HEAD, OPTIONS" }],
  ["DELETE", "/.well-known/agent.json", { status: 405, kind: "error", allow: "GET, HEAD, OPTIONS" }],
  ["GET", "/", { status: 200, kind: "page" }],
  ["GET", "/.well-known/jwks.json", { status: 404, kind: "error" }],
  ["GET", "/.well-known/api-catalog", { status: 200, kind: "card" }],
  ["GET", "/.well-known/ai-catalog.json", { status: 200, kind: "card" }],
  ["GET", "/.well-known/ard.json", { status: 200, kind: "card" }],
  ["HEAD", "/.well-known/ard.json", { status: 200, kind: "empty" }],
  ["POST", "/a2a", { status: 200, kind: "origin" }],
  ["POST", "/a2a/", { status: 200, kind: "origin" }],
  ["OPTIONS", "/a2a", { status: 204, kind: "preflight" }],
  ["PUT", "/a2a", { status: 405, kind: "error", allow: "POST, OPTIONS" }],
  ["GET", "/a2a", { status: 404, kind: "error" }],
  ["POST", "/", { status: 404, kind: "error" }],
  ["GET", "/ops/hosts", { status: 401, kind: "error" }],
  ["GET", "/ops/nowhere", { status: 401, kind: "error" }],
  ["GET", "/_admin/hosts", { status: 404, kind: "error" }],
  ["GET", "/nowhere", { status: 404, kind: "error" }],
];

describe("the route table", () => {
  it.each(TABLE)("%s %s", async (method, path, expected) => {
    const headers: Record<string, string> = method === "POST" ? { "content-type": "application/json" } : {};
    if (method === "OPTIONS") Object.assign(headers, { Origin: "https://ui.example", "Access-Control-Request-Method": "POST" });
    if (path === "/") headers.accept = "text/html";
    const response = await callVia(
      origin(),
      HOST + path,
      { method, headers, body: method === "POST" || method === "PUT" ? rpcBody : undefined },
      env(),
    );
    const text = await response.text();
    expect({ status: response.status, kind: kindOf(response, text) }).toEqual({ status: expected.status, kind: expected.kind });
    if (expected.allow) expect(response.headers.get("allow")).toBe(expected.allow);
  });

  it("answers the same table under the PUBLIC_BASE_URL path (a route like host/team/*) and as a proxy stripped it", async () => {
    const workerEnv = env({ PUBLIC_BASE_URL: "https://agents.example.com/team" });
    const card = async (path: string) => {
      const response = await callVia(origin(), HOST + path, { headers: { "A2A-Version": "1.0" } }, workerEnv);
      return { status: response.status, url: response.ok ? ((await response.json()) as any).supportedInterfaces[0].url : undefined };
    };
    for (const path of ["/team/.well-known/agent-card.json", "/.well-known/agent-card.json"]) {
      expect(await card(path), path).toEqual({ status: 200, url: "https://agents.example.com/team/a2a" });
    }
    expect((await card("/teams/.well-known/agent-card.json")).status).toBe(404); // a longer segment is not the prefix
    for (const [method, path, expected] of TABLE) {
      const headers: Record<string, string> = method === "POST" ? { "content-type": "application/json" } : {};
      if (method === "OPTIONS") Object.assign(headers, { Origin: "https://ui.example", "Access-Control-Request-Method": "POST" });
      if (path === "/") headers.accept = "text/html";
      const body = method === "POST" || method === "PUT" ? rpcBody : undefined;
      const response = await callVia(origin(), `${HOST}/team${path}`, { method, headers, body }, workerEnv);
      const text = await response.text();
      expect({ status: response.status, kind: kindOf(response, text) }, `${method} /team${path}`).toEqual({
        status: expected.status,
        kind: expected.kind,
      });
    }
  });

  it("mounts the admin API at ADMIN_PATH only with ADMIN_TOKEN, and the RPC endpoint only at RPC_PATH", async () => {
    const withoutToken = env({ ADMIN_TOKEN: undefined });
    expect((await callVia(origin(), `${HOST}/ops/hosts`, {}, withoutToken)).status).toBe(404);
    const authorized = await callVia(origin(), `${HOST}/ops/hosts`, { headers: { authorization: `Bearer ${TOKEN}` } }, env());
    expect(authorized.status).toBe(200);
    const atRoot = await callVia(
      origin(),
      `${HOST}/`,
      { method: "POST", headers: { "content-type": "application/json" }, body: rpcBody },
      makeEnv({ ORIGIN_URL: "http://10.0.0.9/", EDGE_AUTH: "off" }),
    );
    expect(await atRoot.json()).toEqual({ jsonrpc: "2.0", id: 1, result: { ok: true } });
  });
});

describe("the JSON-RPC fast path", () => {
  const requests: Array<[string, Record<string, string>, string]> = [
    ["a call, no Origin", {}, rpcBody],
    ["a call from a listed origin", { Origin: "https://ui.example" }, rpcBody],
    ["a call from another origin", { Origin: "https://evil.example" }, rpcBody],
    ["a refused call", { Origin: "https://ui.example" }, "{ not json"],
  ];
  it.each(["*", "https://ui.example"])(
    "answers exactly as the route table does, CORS included (CORS_ALLOWED_ORIGINS=%s)",
    async (allowed) => {
      for (const [name, headers, body] of requests) {
        // One client trace for both, so that the trace id an error body names (google.rpc.RequestInfo) is the same.
        const traceparent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
        const init = (): RequestInit => ({
          method: "POST",
          headers: { "content-type": "application/json", traceparent, ...headers },
          body,
        });
        const workerEnv = env({ CORS_ALLOWED_ORIGINS: allowed });
        const routerEnv = env({ CORS_ALLOWED_ORIGINS: allowed });
        const viaFastPath = await callVia(origin(), `${HOST}/a2a`, init(), workerEnv);
        const routed = createApp({ fetch: origin().fetch });
        const viaRouter = await routed.fetch(new Request(`${HOST}/a2a`, init()), routerEnv, createExecutionContext());
        expect(await viaFastPath.text(), name).toBe(await viaRouter.text());
        expect([...viaFastPath.headers], name).toEqual([...viaRouter.headers]);
        expect(viaFastPath.status, name).toBe(viaRouter.status);
      }
    },
  );
});
