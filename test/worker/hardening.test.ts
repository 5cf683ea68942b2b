// Holes found from outside, each guarded where the worker decides:
// documents and replies too deep to walk, reserved key names, response-header
// leaks, redirects, duplicate keys, version truth in cards and calls. The
// raw-socket side of the same holes is in test/node/edge-sockets.test.ts.
import { afterEach, describe, expect, it, vi } from "vitest";
import { requestVersion } from "../../src/call/version";
import { buildCard } from "../../src/card/build-card";
import { parseCardSource, parseCardSourceText } from "../../src/card/source";
import { CARD_VARIANTS } from "../../src/card/variant";
import { exceedsDepth, hasDuplicateKey } from "../../src/json";
import { captureConsole } from "../support/console";
import { schemaErrors } from "../support/schemas";
import { apiKeyCaller, CARD, call, callVia, documentsKv, fakeOrigin, LEGACY, makeEnv } from "../support/worker";

const PUBLIC = "https://agents.example.com";
const PRIVATE = "http://10.1.2.3:8080";

afterEach(() => vi.restoreAllMocks());

const rpc = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/json", ...headers },
  body: typeof body === "string" ? body : JSON.stringify(body),
});
const json = (value: unknown, init: ResponseInit = {}) =>
  new Response(JSON.stringify(value), {
    ...init,
    headers: { "content-type": "application/json", ...(init.headers as Record<string, string>) },
  });
const okOrigin = () =>
  fakeOrigin(async (req) => json({ jsonrpc: "2.0", id: ((await req.clone().json()) as { id: unknown }).id, result: { ok: true } }));
const env = (overrides: Record<string, unknown> = {}) => makeEnv({ ORIGIN_URL: `${PRIVATE}/rpc`, EDGE_AUTH: "off", ...overrides });

/** `{"a":{"a":...{"a":1}}}`, `depth` objects deep, as text (JSON.stringify of it would recurse). */
const nestedText = (depth: number) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;

describe("deeply nested documents and replies", () => {
  it("bounds depth without recursion, at any depth", () => {
    expect(exceedsDepth(JSON.parse(nestedText(64)))).toBe(false);
    expect(exceedsDepth(JSON.parse(nestedText(65)))).toBe(true);
    expect(exceedsDepth(JSON.parse(nestedText(100_000)))).toBe(true);
  });

  it("never serves a KV document nested 5,000 levels deep: one log line, 503 on the card and page, the RPC refused (its security is unknown)", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const deep = `{"capabilities":{"extensions":[{"uri":"https://x.example/e","params":${nestedText(5_000)}}]}}`;
    const kv = documentsKv({ default: deep });
    const workerEnv = env({ SKILLS: kv });
    const rpcEnv = env({ SKILLS: kv }); // its own isolate state: a runtime keeps the fetch it was built with
    for (const host of ["a.example.com", "b.example.com"]) {
      const card = await call(`https://${host}${CARD}`, {}, workerEnv);
      expect(card.status).toBe(503);
      expect(await card.text()).not.toContain("Acme Travel Concierge");
      expect((await call(`https://${host}/`, { headers: { accept: "text/html" } }, workerEnv)).status).toBe(503);
      const origin = okOrigin();
      const answered = await callVia(origin, `https://${host}/`, rpc({ jsonrpc: "2.0", id: 1, method: "GetTask" }), rpcEnv);
      expect(await answered.json()).toMatchObject({
        jsonrpc: "2.0",
        id: 1,
        error: { code: -32603, message: expect.stringContaining("Agent card unavailable") },
      });
      expect(origin.requests).toHaveLength(0);
    }
    const lines = warn.mock.calls.map((c) => JSON.parse(String(c[0])));
    // Once per isolate and TTL (two isolates here: the card's and the RPC's).
    expect(lines.filter((l) => l.event === "kv_document_invalid")).toHaveLength(2);
    expect(lines[0].issues).toContain("deeper than 64");
  });

  it("refuses such a document in the schema itself (the admin API answers 422 from it)", () => {
    const parsed = parseCardSourceText(`{"capabilities":{"extensions":[{"uri":"https://x.example/e","params":${nestedText(5_000)}}]}}`);
    expect(parsed).toEqual({ ok: false, issues: [{ path: "", message: "nested deeper than 64 levels" }] });
  });

  it("answers a 5,000-level GetExtendedAgentCard reply with a JSON-RPC envelope carrying the id", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const origin = fakeOrigin(
      () =>
        new Response(`{"jsonrpc":"2.0","id":"deep","result":${nestedText(5_000)}}`, { headers: { "content-type": "application/json" } }),
    );
    const caller = await apiKeyCaller();
    const response = await callVia(
      origin,
      `${PUBLIC}/`,
      rpc({ jsonrpc: "2.0", id: "deep", method: "GetExtendedAgentCard" }, caller.headers),
      env(caller.env),
    );
    expect(response.status).toBe(502);
    expect(await response.json()).toMatchObject({ jsonrpc: "2.0", id: "deep", error: { code: -32603 } });
  });
});

describe("reserved names", () => {
  it.each(["__proto__", "constructor", "prototype"])("refuses a security scheme named %s instead of dropping it", (name) => {
    const text = `{"securitySchemes":{"${name}":{"type":"http","scheme":"bearer"}},"security":[{"${name}":[]}]}`;
    const parsed = parseCardSourceText(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.issues.map((i) => i.message).join()).toContain("not allowed");
  });

  it("refuses reserved keys anywhere in extension params and scope maps", () => {
    for (const text of [
      '{"capabilities":{"extensions":[{"uri":"https://x.example/e","params":{"a":{"__proto__":{"b":1}}}}]}}',
      '{"securitySchemes":{"o":{"type":"oauth2","flows":{"clientCredentials":{"tokenUrl":"https://t.example/","scopes":{"__proto__":"x"}}}}}}',
    ]) {
      expect(parseCardSourceText(text).ok).toBe(false);
    }
  });

  it("never renders a requirement that lost its scheme: every card states what the document requires", () => {
    const parsed = parseCardSource({ securitySchemes: { bearer: { type: "http", scheme: "bearer" } }, security: [{ bearer: [] }] });
    if (!parsed.ok) throw new Error("valid document refused");
    for (const variant of CARD_VARIANTS) {
      const card = buildCard(parsed.value, { rpcUrl: `${PUBLIC}/`, protocolVersions: ["1.0", "0.3"] }, variant);
      const requirements = "url" in card ? card.security : card.securityRequirements;
      expect(requirements).toHaveLength(1);
      for (const requirement of requirements ?? []) expect(JSON.stringify(requirement)).toContain("bearer");
    }
  });
});

describe("response headers", () => {
  it("drops a header that repeats any token of an origin credential, in any case, or names a private host in any case", async () => {
    const logs = captureConsole();
    const origin = fakeOrigin(() =>
      json(
        { jsonrpc: "2.0", id: 1, result: {} },
        {
          headers: {
            "cache-control": "private, SUPERSECRET-origin-token-123",
            "content-language": "HTTP://LOCALHOST:32100",
            "retry-after": "5",
          },
        },
      ),
    );
    const headers = JSON.stringify({ Authorization: "Bearer supersecret-ORIGIN-token-123" });
    const response = await callVia(
      origin,
      `${PUBLIC}/`,
      rpc({ jsonrpc: "2.0", id: 1, method: "GetTask" }),
      makeEnv({ ORIGIN_URL: "http://localhost:32100/", ORIGIN_HEADERS: headers, EDGE_AUTH: "off" }),
    );
    expect(response.headers.get("cache-control")).toBeNull();
    expect(response.headers.get("content-language")).toBeNull();
    expect(response.headers.get("retry-after")).toBe("5");
    expect(logs.events()).toEqual([{ level: "warn", event: "edge_auth_off", lends: "ORIGIN_HEADERS Authorization" }]);
  });
});

describe("origin redirects", () => {
  it.each([301, 302, 303, 307, 308])("turns a %i with a JSON body and no Location into 502 with the request id", async (status) => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const origin = fakeOrigin(() => json({ jsonrpc: "2.0", id: 1, result: {} }, { status }));
    const response = await callVia(origin, `${PUBLIC}/`, rpc({ jsonrpc: "2.0", id: "r", method: "GetTask" }), env());
    expect(response.status).toBe(502);
    expect(await response.json()).toMatchObject({ id: "r", error: { code: -32603 } });
  });
});

describe("one meaning per request", () => {
  it("refuses duplicate keys (decoded, at any depth) with -32600 before the method allowlist", async () => {
    for (const body of [
      '{"jsonrpc":"2.0","id":1,"method":"CancelTask","method":"SendMessage","params":{}}',
      '{"jsonrpc":"2.0","id":1,"method":"SendMessage","\\u006dethod":"CancelTask"}',
      '{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"role":"user","role":"agent"}}}',
    ]) {
      const origin = okOrigin();
      const response = await callVia(origin, `${PUBLIC}/`, rpc(body), env({ METHOD_ALLOWLIST: "SendMessage" }));
      expect(await response.json()).toMatchObject({ jsonrpc: "2.0", id: 1, error: { code: -32600 } });
      expect(origin.requests).toHaveLength(0);
    }
  });

  it("tells duplicate keys from equal keys in other objects, in arrays and inside strings", () => {
    expect(hasDuplicateKey('{"a":1,"b":{"a":2},"c":[{"a":3},{"a":4}],"d":"\\"a\\":1,\\"a\\":2"}')).toBe(false);
    expect(hasDuplicateKey('{"a":[{"x":1,"x":2}]}')).toBe(true);
    expect(hasDuplicateKey('{"a\\\\":1,"a\\\\":2}')).toBe(true);
    expect(hasDuplicateKey('{"a\\\\":1,"a":2}')).toBe(false);
  });

  it("forwards a BOM-prefixed request without its BOM", async () => {
    const origin = okOrigin();
    const text = '{"jsonrpc":"2.0","id":1,"method":"GetTask"}';
    const body = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(text)]);
    await callVia(origin, `${PUBLIC}/`, { method: "POST", headers: { "content-type": "application/json" }, body }, env());
    expect(new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(origin.bodies[0])).toBe(text);
  });
});

describe("cards that tell the truth to every client", () => {
  const doc = {
    capabilities: { extendedAgentCard: true },
    securitySchemes: { bearer: { type: "http", scheme: "bearer" } },
    security: [{ bearer: [] }],
    skills: [{ name: "S", security: [{ bearer: ["read"] }] }],
  };

  it("adds capabilities.extendedAgentCard and securityRequirements to the hybrid and agent.json cards, schema-valid", () => {
    const parsed = parseCardSource(doc);
    if (!parsed.ok) throw new Error("valid document refused");
    for (const variant of ["hybrid", "legacy"] as const) {
      const card = buildCard(parsed.value, { rpcUrl: `${PUBLIC}/`, protocolVersions: ["1.0", "0.3"] }, variant) as Record<string, any>;
      expect(card.supportsAuthenticatedExtendedCard).toBe(true);
      expect(card.capabilities.extendedAgentCard).toBe(true);
      expect(card.security).toEqual([{ bearer: [] }]);
      expect(card.securityRequirements).toEqual([{ schemes: { bearer: {} } }]);
      expect(card.skills[0].securityRequirements).toEqual([{ schemes: { bearer: { list: ["read"] } } }]);
      expect(schemaErrors.v03Card(card)).toEqual([]);
      expect(schemaErrors.v026Card(card)).toEqual([]);
    }
  });

  it("serves the 1.0 card on every variant and path when 0.3 is not served", async () => {
    const workerEnv = env({ PROTOCOL_VERSIONS: "1.0" });
    for (const [path, version] of [
      [CARD, undefined],
      [CARD, "0.3"],
      [CARD, "1.0"],
      [LEGACY, undefined],
    ] as const) {
      const card = (await (
        await call(`${PUBLIC}${path}`, { headers: version ? { "A2A-Version": version } : {} }, workerEnv)
      ).json()) as Record<string, unknown>;
      expect(card).not.toHaveProperty("url");
      expect(card).not.toHaveProperty("protocolVersion");
      expect(schemaErrors.v1Card(card)).toEqual([]);
      expect(card.supportedInterfaces).toEqual([{ url: `${PUBLIC}/`, protocolBinding: "JSONRPC", protocolVersion: "1.0" }]);
    }
  });

  it("answers a call in a version the edge does not serve with -32009 and the supported versions, at the edge", async () => {
    for (const [headers, method] of [
      [{}, "message/send"],
      [{ "A2A-Version": "0.3" }, "SendMessage"],
      [{ "A2A-Version": "" }, "SendMessage"],
      [{ "A2A-Version": "2.0" }, "SendMessage"],
      [{ "A2A-Version": "garbage" }, "SendMessage"],
    ] as const) {
      const origin = okOrigin();
      const response = await callVia(
        origin,
        `${PUBLIC}/`,
        rpc({ jsonrpc: "2.0", id: 9, method, params: {} }, headers),
        env({ PROTOCOL_VERSIONS: "1.0" }),
      );
      const body = (await response.json()) as { error: { code: number; data: { metadata: Record<string, string> }[] } };
      expect(body).toMatchObject({ jsonrpc: "2.0", id: 9, error: { code: -32009 } });
      expect(body.error.data[0]!.metadata.supportedVersions).toBe("1.0");
      expect(origin.requests).toHaveLength(0);
    }
    const served = okOrigin();
    await callVia(
      served,
      `${PUBLIC}/?A2A-Version=1.0`,
      rpc({ jsonrpc: "2.0", id: 1, method: "message/send" }),
      env({ PROTOCOL_VERSIONS: "1.0" }),
    );
    await callVia(served, `${PUBLIC}/`, rpc({ jsonrpc: "2.0", id: 1, method: "SendMessage" }), env({ PROTOCOL_VERSIONS: "1.0" }));
    expect(served.requests).toHaveLength(2);
  });

  it("reads a request's version from the header, then the method's generation, else 0.3 (A2A 1.0 §3.6)", () => {
    expect(requestVersion("1.0", "message/send")).toBe("1.0");
    expect(requestVersion(" 0.3.2 ", "SendMessage")).toBe("0.3");
    expect(requestVersion("", "SendMessage")).toBe("0.3");
    expect(requestVersion(null, "SendMessage")).toBe("1.0");
    expect(requestVersion(null, "tasks/get")).toBe("0.3");
    expect(requestVersion(null, "custom")).toBe("0.3");
  });
});
