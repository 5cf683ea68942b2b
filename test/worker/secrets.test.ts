// With every secret set (ORIGIN_HEADERS, ADMIN_TOKEN, CARD_SIGNING_KEY), a run
// through every path, good and bad, never shows a secret in any response
// (status line, headers, body) or in any log line.
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createWorker } from "../../src/app";
import { captureConsole } from "../support/console";
import { fakeOrigin, makeEnv } from "../support/worker";

const ORIGIN_TOKEN = "Bearer origin-credential-Zq81mX0";
const ACCESS_SECRET = "cf-access-secret-Qw7e5r3t1y9u";
const ADMIN_TOKEN = "admin-token-Lp0oKi9uJy8hGt7f";

afterEach(() => vi.restoreAllMocks());

describe("secrets", () => {
  it("never appear in a response or a log line", async () => {
    const pair = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])) as CryptoKeyPair;
    const jwk = (await crypto.subtle.exportKey("jwk", pair.privateKey)) as JsonWebKey;
    const signingKey = JSON.stringify({ kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y, d: jwk.d, kid: "secret-test" });
    const secrets = [ORIGIN_TOKEN, "origin-credential-Zq81mX0", ACCESS_SECRET, ADMIN_TOKEN, jwk.d!, signingKey];

    const { lines: logs } = captureConsole();

    // An origin that tries to hand its credentials back in headers, and misbehaves by method.
    const origin = fakeOrigin(async (req) => {
      const { method } = (await req
        .clone()
        .json()
        .catch(() => ({}))) as { method?: string };
      const echo = {
        "x-echo-auth": req.headers.get("authorization") ?? "",
        "www-authenticate": `Bearer error="${req.headers.get("cf-access-client-secret")}"`,
      };
      switch (method) {
        case "unreachable":
          throw new TypeError(`connect failed with ${req.headers.get("authorization")}`);
        case "crash":
          return new Response(`<pre>${req.headers.get("authorization")}</pre>`, {
            status: 500,
            headers: { "content-type": "text/html", ...echo },
          });
        case "garbage":
          return new Response(`token=${req.headers.get("authorization")}`, {
            status: 200,
            headers: { "content-type": "text/plain", ...echo },
          });
        case "GetExtendedAgentCard":
          return Response.json(
            {
              jsonrpc: "2.0",
              id: 1,
              result: {
                name: "x",
                description: "d",
                version: "1",
                supportedInterfaces: [{ url: "http://10.0.0.1/", protocolBinding: "JSONRPC", protocolVersion: "1.0" }],
                capabilities: {},
                defaultInputModes: ["text/plain"],
                defaultOutputModes: ["text/plain"],
                skills: [],
              },
            },
            { headers: echo },
          );
        default:
          return Response.json({ jsonrpc: "2.0", id: 1, result: {} }, { headers: echo });
      }
    });
    const worker = createWorker({ fetch: origin.fetch });
    const env = makeEnv({
      ORIGIN_URL: "http://10.0.0.1/",
      EDGE_AUTH: "off",
      ORIGIN_HEADERS: JSON.stringify({ Authorization: ORIGIN_TOKEN, "CF-Access-Client-Secret": ACCESS_SECRET }),
      ADMIN_TOKEN,
      CARD_SIGNING_KEY: signingKey,
      HOST_ALLOWLIST: "agents.example.com,secret-run.example.com",
      REGISTRY_WEBHOOKS: "https://registry.example/hook",
    });
    const seen: string[] = [];
    const send = async (path: string, init: RequestInit = {}) => {
      const ctx = createExecutionContext();
      const response = await worker.fetch!(new Request(`https://agents.example.com${path}`, init) as never, env, ctx);
      await waitOnExecutionContext(ctx);
      seen.push(`${response.status} ${response.statusText}`, JSON.stringify([...response.headers]), await response.text());
    };
    const rpc = (method: string, extra: Record<string, string> = {}) =>
      send("/", {
        method: "POST",
        headers: { "content-type": "application/json", authorization: "Bearer client", ...extra },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: {} }),
      });

    for (const version of ["1.0", "0.3", ""]) await send("/.well-known/agent-card.json", { headers: { "A2A-Version": version } });
    await send("/.well-known/agent.json");
    await send("/", { headers: { accept: "text/html" } });
    await send("/.well-known/jwks.json");
    for (const method of ["SendMessage", "unreachable", "crash", "garbage", "GetExtendedAgentCard", "agent/getAuthenticatedExtendedCard"])
      await rpc(method);
    await send("/", { method: "POST", headers: { "content-type": "application/json" }, body: "{ broken" });
    await send("/", { method: "POST", headers: { "content-type": "text/plain" }, body: "x" });
    for (const auth of ["", "Bearer wrong", `Bearer ${ADMIN_TOKEN.slice(0, -1)}`])
      await send("/_admin/hosts", { headers: auth ? { authorization: auth } : {} });
    const admin = { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" };
    await send("/_admin/hosts", { headers: admin });
    await send("/_admin/documents/secret-run.example.com", { method: "PUT", headers: admin, body: JSON.stringify({ name: "Secret Run" }) });
    await send("/_admin/documents/secret-run.example.com", { method: "PUT", headers: admin, body: JSON.stringify({ name: "" }) });
    await send("/_admin/documents/secret-run.example.com/rollback", { method: "POST", headers: admin });
    await send("/_admin/documents/secret-run.example.com", { method: "DELETE", headers: admin });
    await send("/nowhere");

    expect(origin.requests.length).toBeGreaterThan(5); // the run did reach the origin
    expect(logs.length).toBeGreaterThan(3); // and did log (failures, admin changes)
    const everything = [...seen, ...logs].join("\n");
    for (const secret of secrets) expect(everything.includes(secret), `leaked: ${secret.slice(0, 12)}…`).toBe(false);
    // The credential did reach the origin, where it belongs.
    expect(origin.requests[0]!.headers.get("authorization")).toBe(ORIGIN_TOKEN);
  });
});
