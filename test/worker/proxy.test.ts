import canonicalize from "canonicalize";
import * as jose from "jose";
import { afterEach, describe, expect, it, vi } from "vitest";
import { INVALID_UTF8 } from "../support/arbitraries";
import { captureConsole } from "../support/console";
import { until } from "../support/wait";
import { apiKeyCaller, callVia, fakeOrigin, makeEnv } from "../support/worker";

const PUBLIC = "https://agents.example.com";
const PRIVATE = "http://10.1.2.3:8080";
const ORIGIN_SECRET = "Bearer origin-secret-token-123";
// Forwarding, not authentication (auth.test.ts): the bundled sample card requires credentials, so edge auth is off here.
// The log lines asserted here are the faults' own; the access record of each call is telemetry.test.ts's.
const env = (overrides: Record<string, unknown> = {}) =>
  makeEnv({ ORIGIN_URL: `${PRIVATE}/rpc`, EDGE_AUTH: "off", ACCESS_LOG: "off", ...overrides });

function rpc(body: unknown, headers: Record<string, string> = {}): RequestInit {
  return {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  };
}

const json = (value: unknown, init: ResponseInit = {}) =>
  new Response(JSON.stringify(value), {
    ...init,
    headers: { "content-type": "application/json", ...(init.headers as Record<string, string>) },
  });

const okOrigin = () =>
  fakeOrigin(async (req) => json({ jsonrpc: "2.0", id: ((await req.clone().json()) as any).id, result: { ok: true } }));

afterEach(() => vi.restoreAllMocks());

describe("forwarding", () => {
  it("forwards the exact bytes to ORIGIN_URL with the query string, and returns the origin's answer", async () => {
    const origin = fakeOrigin(() => json({ jsonrpc: "2.0", id: 7, result: { kind: "task" } }, { headers: { "a2a-version": "1.0" } }));
    const raw =
      '{ "jsonrpc":"2.0",  "id":7, "method":"SendMessage", "params":{"message":{"messageId":"m1", "role":"ROLE_USER", "parts":[{"text":"héllo \\u00e9 🚀"}]}} }\n';
    const response = await callVia(origin, `${PUBLIC}/?A2A-Version=1.0&x=1`, rpc(raw), env());
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ jsonrpc: "2.0", id: 7, result: { kind: "task" } });
    expect(response.headers.get("a2a-version")).toBe("1.0");
    expect(origin.requests).toHaveLength(1);
    expect(origin.requests[0]!.method).toBe("POST");
    expect(origin.requests[0]!.url).toBe(`${PRIVATE}/rpc?A2A-Version=1.0&x=1`);
    expect(new TextDecoder().decode(origin.bodies[0])).toBe(raw);
  });

  it("forwards the A2A headers, Authorization and Accept; drops the rest; sets X-Forwarded-*", async () => {
    const origin = okOrigin();
    await callVia(
      origin,
      `${PUBLIC}/`,
      rpc(
        { jsonrpc: "2.0", id: 1, method: "message/send", params: {} },
        {
          "A2A-Version": "0.3",
          "A2A-Extensions": "https://ext.example/a",
          "X-A2A-Extensions": "https://ext.example/b",
          Authorization: "Bearer client-token",
          Accept: "text/event-stream",
          traceparent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
          Cookie: "session=secret",
          "X-Internal-Debug": "1",
          Connection: "keep-alive, X-Internal-Debug",
          "X-Forwarded-For": "6.6.6.6",
          "CF-Connecting-IP": "203.0.113.9",
        },
      ),
      env(),
    );
    const sent = Object.fromEntries(origin.requests[0]!.headers);
    expect(sent).toMatchObject({
      "a2a-version": "0.3",
      "a2a-extensions": "https://ext.example/a",
      "x-a2a-extensions": "https://ext.example/b",
      authorization: "Bearer client-token",
      accept: "text/event-stream",
      "content-type": "application/json",
      // The client's trace, with the edge as the origin's parent (W3C Trace Context §3.2.2.4).
      traceparent: expect.stringMatching(/^00-0af7651916cd43dd8448eb211c80319c-(?!b7ad6b7169203331)[0-9a-f]{16}-01$/),
      "x-forwarded-for": "203.0.113.9",
      "x-forwarded-host": "agents.example.com",
      "x-forwarded-proto": "https",
    });
    for (const name of ["cookie", "x-internal-debug", "connection", "cf-connecting-ip"]) expect(sent).not.toHaveProperty(name);
  });

  it("tells the origin the version the edge checked a call as, never the client's own text (A2A 1.0 §3.6)", async () => {
    const origin = okOrigin();
    const cases = [
      [{}, "SendMessage", "1.0"], // as @a2a-js/sdk 1.3 sends GetExtendedAgentCard: no A2A-Version
      [{}, "message/send", "0.3"],
      [{ "A2A-Version": "1.0.2" }, "SendMessage", "1.0"], // checked as Major.Minor (the patch is ignored), sent so
      [{ "A2A-Version": " 0.3 " }, "message/send", "0.3"],
    ] as const;
    for (const [headers, method] of cases) await callVia(origin, `${PUBLIC}/`, rpc({ jsonrpc: "2.0", id: 1, method }, headers), env());
    expect(origin.requests.map((r) => r.headers.get("a2a-version"))).toEqual(cases.map(([, , sent]) => sent));
    await callVia(origin, `${PUBLIC}/?A2A-Version=1.0`, rpc({ jsonrpc: "2.0", id: 1, method: "SendMessage" }), env());
    expect(origin.requests.at(-1)!.headers.get("a2a-version")).toBe("1.0");
  });

  it("adds ORIGIN_HEADERS, replacing the client's Authorization, and never echoes them", async () => {
    const logs = captureConsole();
    const origin = fakeOrigin(() =>
      json(
        { jsonrpc: "2.0", id: 1, result: {} },
        { headers: { "www-authenticate": `Bearer realm="x", error="${ORIGIN_SECRET}"`, "x-echo": ORIGIN_SECRET, "set-cookie": "a=b" } },
      ),
    );
    const headers = JSON.stringify({
      Authorization: ORIGIN_SECRET,
      "CF-Access-Client-Id": "id.access",
      "CF-Access-Client-Secret": "s3cr3t-access-secret",
    });
    const response = await callVia(
      origin,
      `${PUBLIC}/`,
      rpc({ jsonrpc: "2.0", id: 1, method: "GetTask" }, { Authorization: "Bearer client" }),
      env({ ORIGIN_HEADERS: headers }),
    );
    const sent = origin.requests[0]!.headers;
    expect(sent.get("authorization")).toBe(ORIGIN_SECRET);
    expect(sent.get("cf-access-client-id")).toBe("id.access");
    expect(sent.get("cf-access-client-secret")).toBe("s3cr3t-access-secret");
    const everything = JSON.stringify([...response.headers]) + (await response.text());
    expect(everything).not.toContain("origin-secret-token");
    expect(response.headers.get("set-cookie")).toBeNull();
    // EDGE_AUTH is off here: every caller now gets the origin's credential, which the log says (never the credential).
    expect(logs.events()).toEqual([{ level: "warn", event: "edge_auth_off", lends: "ORIGIN_HEADERS Authorization" }]);
    expect(logs.lines.join("\n")).not.toContain("origin-secret-token");
  });

  it("keeps the client's Authorization when ORIGIN_HEADERS does not set one", async () => {
    const origin = okOrigin();
    await callVia(
      origin,
      `${PUBLIC}/`,
      rpc({ jsonrpc: "2.0", id: 1, method: "GetTask" }, { Authorization: "Bearer client" }),
      env({ ORIGIN_HEADERS: '{"X-Api-Key":"k-123456789"}' }),
    );
    expect(origin.requests[0]!.headers.get("authorization")).toBe("Bearer client");
    expect(origin.requests[0]!.headers.get("x-api-key")).toBe("k-123456789");
  });

  it("returns only allowlisted response headers, without the private address", async () => {
    const origin = fakeOrigin(() =>
      json(
        { jsonrpc: "2.0", id: 1, result: {} },
        {
          headers: {
            location: `${PRIVATE}/x`,
            "content-location": `${PRIVATE}/y`,
            "x-powered-by": "express",
            "retry-after": "5",
            "www-authenticate": `Bearer realm="${PRIVATE}"`,
          },
        },
      ),
    );
    const response = await callVia(origin, `${PUBLIC}/`, rpc({ jsonrpc: "2.0", id: 1, method: "GetTask" }), env());
    expect(response.headers.get("retry-after")).toBe("5");
    for (const name of ["location", "content-location", "x-powered-by", "www-authenticate"]) expect(response.headers.get(name)).toBeNull();
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
  });

  it.each([
    ["/", ["/"]],
    ["/a2a", ["/a2a", "/a2a/"]],
  ])("answers POST at RPC_PATH %s with and without the trailing slash", async (rpcPath, paths) => {
    for (const path of paths) {
      const origin = okOrigin();
      const response = await callVia(origin, PUBLIC + path, rpc({ jsonrpc: "2.0", id: 1, method: "GetTask" }), env({ RPC_PATH: rpcPath }));
      expect(response.status).toBe(200);
      expect(origin.requests).toHaveLength(1);
    }
    const elsewhere = okOrigin();
    expect(
      (await callVia(elsewhere, `${PUBLIC}/other`, rpc({ jsonrpc: "2.0", id: 1, method: "GetTask" }), env({ RPC_PATH: rpcPath }))).status,
    ).toBe(404);
    expect(elsewhere.requests).toHaveLength(0);
  });

  it.each([
    "SendMessage",
    "SendStreamingMessage",
    "GetTask",
    "CancelTask",
    "SubscribeToTask",
    "ListTasks",
    "message/send",
    "message/stream",
    "tasks/get",
    "tasks/cancel",
    "tasks/resubscribe",
    "tasks/pushNotificationConfig/set",
  ])("passes the %s method", async (method) => {
    const origin = okOrigin();
    const response = await callVia(origin, `${PUBLIC}/`, rpc({ jsonrpc: "2.0", id: "x", method, params: {} }), env());
    expect(((await response.json()) as any).result).toEqual({ ok: true });
  });

  it("answers the CORS preflight of the RPC endpoint, and 405 for other writes", async () => {
    const origin = okOrigin();
    const preflight = await callVia(
      origin,
      `${PUBLIC}/`,
      { method: "OPTIONS", headers: { Origin: "https://ui.example", "Access-Control-Request-Method": "POST" } },
      env(),
    );
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-methods")).toBe("POST,OPTIONS");
    for (const h of ["Content-Type", "Authorization", "A2A-Version", "A2A-Extensions"])
      expect(preflight.headers.get("access-control-allow-headers")).toContain(h);
    expect(preflight.headers.get("access-control-allow-credentials")).toBeNull();
    const put = await callVia(origin, `${PUBLIC}/`, { method: "PUT", body: "{}" }, env());
    expect(put.status).toBe(405);
    expect(put.headers.get("allow")).toBe("POST, OPTIONS");
    expect(origin.requests).toHaveLength(0);
  });

  it("reflects only listed origins with CORS_ALLOWED_ORIGINS, never with credentials", async () => {
    const e = env({ CORS_ALLOWED_ORIGINS: "https://ui.example" });
    const allowed = await callVia(
      okOrigin(),
      `${PUBLIC}/`,
      rpc({ jsonrpc: "2.0", id: 1, method: "GetTask" }, { Origin: "https://ui.example" }),
      e,
    );
    expect(allowed.headers.get("access-control-allow-origin")).toBe("https://ui.example");
    expect(allowed.headers.get("vary")).toContain("Origin");
    const other = await callVia(
      okOrigin(),
      `${PUBLIC}/`,
      rpc({ jsonrpc: "2.0", id: 1, method: "GetTask" }, { Origin: "https://evil.example" }),
      e,
    );
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
    expect(other.headers.get("access-control-allow-credentials")).toBeNull();
  });
});

describe("edge validation (nothing reaches the origin)", () => {
  async function refused(init: RequestInit, overrides: Record<string, unknown> = {}) {
    const origin = okOrigin();
    const response = await callVia(origin, `${PUBLIC}/`, init, env(overrides));
    expect(origin.requests).toHaveLength(0);
    expect(response.headers.get("content-type")).toBe("application/json");
    return {
      status: response.status,
      body: (await response.json()) as { jsonrpc: string; id: unknown; error: { code: number; message: string } },
    };
  }

  it("refuses a body over MAX_BODY_BYTES with 413, by Content-Length or by counting", async () => {
    const big = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "SendMessage", params: { pad: "x".repeat(2000) } });
    const declared = await refused(rpc(big), { MAX_BODY_BYTES: "1000" });
    expect(declared).toMatchObject({ status: 413, body: { jsonrpc: "2.0", id: null, error: { code: -32600 } } });
    const stream = new ReadableStream({
      start(c) {
        c.enqueue(new TextEncoder().encode(big));
        c.close();
      },
    });
    const counted = await refused(
      { method: "POST", headers: { "content-type": "application/json" }, body: stream },
      { MAX_BODY_BYTES: "1000" },
    );
    expect(counted.status).toBe(413);
    const fits = okOrigin();
    expect((await callVia(fits, `${PUBLIC}/`, rpc(big), env())).status).toBe(200); // under the default 1 MiB
    expect(fits.requests).toHaveLength(1);
  });

  it("answers a body that does not arrive within BODY_TIMEOUT_MS with 408, forwarding nothing", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const stalled = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode('{"jsonrpc":"2.0","id":1,'));
      }, // ... and nothing more, ever
    });
    const result = await refused(
      { method: "POST", headers: { "content-type": "application/json" }, body: stalled },
      { BODY_TIMEOUT_MS: "100" },
    );
    expect(result).toMatchObject({ status: 408, body: { jsonrpc: "2.0", id: null, error: { code: -32600 } } });
  });

  it("refuses a non-JSON content type with 415", async () => {
    for (const type of ["text/plain", "application/x-www-form-urlencoded", ""]) {
      const result = await refused({ method: "POST", headers: type ? { "content-type": type } : {}, body: "{}" });
      expect(result).toMatchObject({ status: 415, body: { id: null, error: { code: -32600 } } });
    }
  });

  it.each([
    ["malformed JSON", "{ nope", -32700, null],
    ["invalid UTF-8", new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]), -32700, null],
    ["a batch", '[{"jsonrpc":"2.0","id":1,"method":"GetTask"}]', -32600, null],
    ["a bare string", '"hello"', -32600, null],
    ["no jsonrpc", '{"id":5,"method":"GetTask"}', -32600, 5],
    ["jsonrpc 1.0", '{"jsonrpc":"1.0","id":"a","method":"GetTask"}', -32600, "a"],
    ["a numeric method", '{"jsonrpc":"2.0","id":6,"method":42}', -32600, 6],
    ["an object id", '{"jsonrpc":"2.0","id":{"x":1},"method":"GetTask"}', -32600, null],
    ["no id (notification)", '{"jsonrpc":"2.0","method":"GetTask"}', -32600, null],
    ["string params", '{"jsonrpc":"2.0","id":8,"method":"GetTask","params":"x"}', -32600, 8],
  ])("answers %s with a JSON-RPC error envelope", async (_name, body, code, id) => {
    const result = await refused({ method: "POST", headers: { "content-type": "application/json" }, body });
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ jsonrpc: "2.0", id, error: { code } });
  });

  // Without the strict UTF-8 check these would decode to U+FFFD and reach the
  // origin as a request the edge never saw (the surrounding JSON is well-formed).
  it.each(INVALID_UTF8.map((seq) => [seq.map((b) => b.toString(16).padStart(2, "0")).join(" "), seq] as const))(
    "answers invalid UTF-8 (%s) inside a string of a well-formed request with -32700, forwarding nothing",
    async (_hex, seq) => {
      const encode = (s: string) => new TextEncoder().encode(s);
      const body = new Uint8Array([
        ...encode('{"jsonrpc":"2.0","id":7,"method":"SendMessage","params":{"text":"a'),
        ...seq,
        ...encode('b"}}'),
      ]);
      const result = await refused({ method: "POST", headers: { "content-type": "application/json" }, body });
      expect(result).toMatchObject({ status: 200, body: { jsonrpc: "2.0", id: null, error: { code: -32700 } } });
      // Control: the same request with valid UTF-8 there is forwarded.
      const origin = okOrigin();
      const ok = await callVia(
        origin,
        `${PUBLIC}/`,
        rpc('{"jsonrpc":"2.0","id":7,"method":"SendMessage","params":{"text":"a\u00e9b"}}'),
        env(),
      );
      expect(await ok.json()).toMatchObject({ id: 7, result: { ok: true } });
      expect(origin.requests).toHaveLength(1);
    },
  );

  it("answers a method outside METHOD_ALLOWLIST with -32601 and the request id", async () => {
    const result = await refused(rpc({ jsonrpc: "2.0", id: "q", method: "tasks/pushNotificationConfig/set", params: {} }), {
      METHOD_ALLOWLIST: "SendMessage,message/send",
    });
    expect(result.body).toMatchObject({ id: "q", error: { code: -32601, message: "Method not found" } });
    const origin = okOrigin();
    await callVia(
      origin,
      `${PUBLIC}/`,
      rpc({ jsonrpc: "2.0", id: 1, method: "message/send", params: {} }),
      env({ METHOD_ALLOWLIST: "SendMessage,message/send" }),
    );
    expect(origin.requests).toHaveLength(1);
  });
});

describe("streaming", () => {
  it("passes text/event-stream through unbuffered: the first event arrives before the origin sends the next", async () => {
    let push!: (text: string) => void;
    let end!: () => void;
    let canceled = false;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        push = (text) => controller.enqueue(new TextEncoder().encode(text));
        end = () => controller.close();
      },
      cancel() {
        canceled = true;
      },
    });
    const origin = fakeOrigin(() => new Response(body, { headers: { "content-type": "text/event-stream", "cache-control": "no-cache" } }));
    const response = await callVia(origin, `${PUBLIC}/`, rpc({ jsonrpc: "2.0", id: 1, method: "SendStreamingMessage", params: {} }), env());
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const reader = response.body!.getReader();
    const first = 'data: {"jsonrpc":"2.0","id":1,"result":{"task":{}}}\n\n';
    push(first);
    expect(new TextDecoder().decode((await reader.read()).value)).toBe(first);
    push("data: 2\n\n");
    expect(new TextDecoder().decode((await reader.read()).value)).toBe("data: 2\n\n");
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    await reader.cancel();
    await until(() => canceled, "the origin stream to be cancelled");
    // A client leaving is not an origin fault.
    expect(errors).not.toHaveBeenCalled();
    void end;
  });

  it("ends a stream the origin broke with an SSE error event carrying the request id", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    let fail!: (e: Error) => void;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('data: {"jsonrpc":"2.0","id":"s1","result":{"task":{}}}\n\ndata: {"partial'));
        fail = (e) => controller.error(e);
      },
    });
    const origin = fakeOrigin(() => new Response(body, { headers: { "content-type": "text/event-stream" } }));
    const response = await callVia(
      origin,
      `${PUBLIC}/`,
      rpc({ jsonrpc: "2.0", id: "s1", method: "SendStreamingMessage", params: {} }),
      env(),
    );
    const reader = response.body!.getReader();
    await reader.read();
    fail(new Error("connection reset"));
    let rest = "";
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      rest += new TextDecoder().decode(value);
    }
    const event = rest.split("\n\n").find((e) => e.startsWith("event: error"));
    expect(event).toBeDefined();
    expect(JSON.parse(event!.split("data: ")[1]!)).toMatchObject({ jsonrpc: "2.0", id: "s1", error: { code: -32603 } });
    expect(errors.mock.calls.map((c) => JSON.parse(c[0] as string))).toEqual([
      expect.objectContaining({ event: "origin_failed", kind: "stream_broken" }),
    ]);
  });
});

describe("extended card", () => {
  const originCard = {
    name: "Origin",
    description: "d",
    version: "1",
    url: `${PRIVATE}/rpc`,
    preferredTransport: "JSONRPC",
    additionalInterfaces: [
      { url: `${PRIVATE}/rpc`, transport: "JSONRPC" },
      { url: "grpc://10.1.2.3:50051", transport: "GRPC" },
    ],
    supportedInterfaces: [
      { url: `${PRIVATE}/rpc`, protocolBinding: "JSONRPC", protocolVersion: "1.0" },
      { url: "10.1.2.3:50051", protocolBinding: "GRPC", protocolVersion: "1.0" },
      { url: "http://localhost:9999/", protocolBinding: "JSONRPC", protocolVersion: "0.3" },
    ],
    documentationUrl: `${PRIVATE}/docs`,
    description2: `See http://localhost:9999/help for help`,
    signatures: [{ protected: "x", signature: "y" }],
  };

  it.each(["GetExtendedAgentCard", "agent/getAuthenticatedExtendedCard"])("rewrites every origin URL in the %s result", async (method) => {
    const origin = fakeOrigin(() => json({ jsonrpc: "2.0", id: 3, result: originCard }));
    const caller = await apiKeyCaller();
    const response = await callVia(
      origin,
      `${PUBLIC}/a2a`,
      rpc({ jsonrpc: "2.0", id: 3, method }, caller.headers),
      env({ RPC_PATH: "/a2a", ...caller.env }),
    );
    const text = await response.text();
    expect(text).not.toContain("10.1.2.3");
    expect(text).not.toContain("localhost");
    const { result } = JSON.parse(text);
    expect(result.url).toBe(`${PUBLIC}/a2a`);
    expect(result.supportedInterfaces).toEqual([
      { url: `${PUBLIC}/a2a`, protocolBinding: "JSONRPC", protocolVersion: "1.0" },
      { url: `${PUBLIC}/a2a`, protocolBinding: "JSONRPC", protocolVersion: "0.3" },
    ]);
    expect(result.additionalInterfaces).toEqual([{ url: `${PUBLIC}/a2a`, transport: "JSONRPC" }]);
    expect(result.documentationUrl).toBe(`${PUBLIC}/docs`);
    expect(result.description2).toBe(`See ${PUBLIC}/help for help`);
    expect(result).not.toHaveProperty("signatures");
  });

  it("leaves out of the extended card every URL a card never publishes, as card intake does", async () => {
    const unsafe = {
      ...originCard,
      documentationUrl: "javascript:alert(document.cookie)",
      iconUrl: "  DATA:image/svg+xml,<svg onload=alert(1)>",
      provider: { organization: "Origin Inc.", url: "vbscript:msgbox(1)" },
      capabilities: { extensions: [{ uri: "javascript:alert(1)" }, { uri: "urn:example:ext" }, { uri: "https://ext.example/x" }] },
    };
    const origin = fakeOrigin(() => json({ jsonrpc: "2.0", id: 3, result: unsafe }));
    const caller = await apiKeyCaller();
    const response = await callVia(
      origin,
      `${PUBLIC}/`,
      rpc({ jsonrpc: "2.0", id: 3, method: "GetExtendedAgentCard" }, caller.headers),
      env(caller.env),
    );
    const text = await response.text();
    expect(text.toLowerCase()).not.toMatch(/javascript:|data:|vbscript:/);
    const { result } = JSON.parse(text);
    expect(result).not.toHaveProperty("documentationUrl");
    expect(result).not.toHaveProperty("iconUrl");
    expect(result.provider).toEqual({ organization: "Origin Inc." });
    expect(result.capabilities.extensions).toEqual([{ uri: "urn:example:ext" }, { uri: "https://ext.example/x" }]);
  });
});

describe("extended card signatures", () => {
  // Verified independently of src/sign: RFC 8785 by the `canonicalize` package, the JWS by jose.
  it("re-signs the rewritten extended card at the edge when a signing key is set", async () => {
    const pair = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])) as CryptoKeyPair;
    const jwk = (await crypto.subtle.exportKey("jwk", pair.privateKey)) as JsonWebKey;
    const key = JSON.stringify({ kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y, d: jwk.d, kid: "ext" });
    // Keys out of code-unit order at every level, and non-ASCII text: a signer that does not sort, or sorts otherwise, fails.
    const card = {
      name: "Ext",
      description: "d — é",
      version: "1",
      supportedInterfaces: [{ url: `${PRIVATE}/`, protocolBinding: "JSONRPC", protocolVersion: "1.0" }],
      capabilities: {
        streaming: true,
        extensions: [{ uri: "https://ext.example/x", params: { zeta: 1, Alpha: 2, ä: 3, "10": 4, "9": 5 } }],
      },
      defaultInputModes: ["text/plain"],
      defaultOutputModes: ["text/plain"],
      skills: [{ id: "a", name: "A", description: "a", tags: ["a"] }],
      signatures: [{ protected: "origin", signature: "origin" }],
    };
    const origin = fakeOrigin(() => json({ jsonrpc: "2.0", id: 1, result: card }));
    const caller = await apiKeyCaller();
    const response = await callVia(
      origin,
      `${PUBLIC}/`,
      rpc({ jsonrpc: "2.0", id: 1, method: "GetExtendedAgentCard" }, caller.headers),
      env({ CARD_SIGNING_KEY: key, HOST_ALLOWLIST: "agents.example.com", ...caller.env }),
    );
    const { result } = (await response.json()) as { result: Record<string, any> };
    expect(result.signatures).toHaveLength(1);
    const { signatures, ...unsigned } = result;
    expect(jose.decodeProtectedHeader(signatures[0])).toEqual({
      alg: "ES256",
      kid: "ext",
      typ: "JOSE",
      jku: `${PUBLIC}/.well-known/jwks.json`,
    });
    expect(JSON.stringify(unsigned)).not.toContain("10.1.2.3");
    const payload = canonicalize(unsigned)!;
    expect(payload).not.toBe(JSON.stringify(unsigned)); // the card's own key order is not canonical
    const verified = await jose.flattenedVerify(
      { payload: jose.base64url.encode(payload), protected: signatures[0].protected, signature: signatures[0].signature },
      pair.publicKey,
    );
    expect(new TextDecoder().decode(verified.payload)).toBe(payload);
    // Tampering with any field breaks it.
    const tampered = canonicalize({ ...unsigned, name: "Other" })!;
    await expect(
      jose.flattenedVerify(
        { payload: jose.base64url.encode(tampered), protected: signatures[0].protected, signature: signatures[0].signature },
        pair.publicKey,
      ),
    ).rejects.toThrow();
  });
});

describe("faults", () => {
  it("answers 502 with the request id when the origin is unreachable, with one log line", async () => {
    const logs = captureConsole();
    const origin = fakeOrigin(() => Promise.reject(new TypeError("connect ECONNREFUSED")));
    const response = await callVia(origin, `${PUBLIC}/`, rpc({ jsonrpc: "2.0", id: "r1", method: "SendMessage", params: {} }), env());
    expect(response.status).toBe(502);
    const text = await response.text();
    expect(JSON.parse(text)).toMatchObject({
      jsonrpc: "2.0",
      id: "r1",
      error: { code: -32603, message: expect.stringContaining("unreachable") },
    });
    expect(text).not.toContain("10.1.2.3");
    expect(text).not.toContain("ECONNREFUSED");
    const lines = logs.events();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ event: "origin_failed", kind: "unreachable", method: "SendMessage" });
  });

  it("answers 504 when the origin does not answer within ORIGIN_TIMEOUT_MS", async () => {
    const logs = captureConsole();
    const origin = fakeOrigin(
      (req) =>
        new Promise<Response>((_resolve, reject) =>
          req.signal.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError"))),
        ),
    );
    const response = await callVia(
      origin,
      `${PUBLIC}/`,
      rpc({ jsonrpc: "2.0", id: 9, method: "SendMessage", params: {} }),
      env({ ORIGIN_TIMEOUT_MS: "150" }),
    );
    expect(response.status).toBe(504);
    expect(await response.json()).toMatchObject({ id: 9, error: { code: -32603, message: expect.stringContaining("timed out") } });
    expect(logs.events()).toEqual([expect.objectContaining({ event: "origin_failed", kind: "timeout", timeoutMs: 150 })]);
  });

  it.each([
    [
      "a 5xx with an HTML page",
      () => new Response(`<h1>upstream ${PRIVATE} crashed</h1>`, { status: 503, headers: { "content-type": "text/html" } }),
      502,
    ],
    ["a 5xx with JSON", () => json({ stack: `Error at ${PRIVATE}` }, { status: 500 }), 502],
    ["a 200 that is not JSON", () => new Response("OK", { status: 200, headers: { "content-type": "text/plain" } }), 502],
    ["a redirect", () => new Response(null, { status: 302, headers: { location: `${PRIVATE}/login` } }), 502],
    ["a 401 HTML page", () => new Response("<b>no</b>", { status: 401, headers: { "content-type": "text/html" } }), 401],
  ])("turns %s into a JSON-RPC error with the request id", async (_name, answer, status) => {
    const logs = captureConsole();
    const response = await callVia(fakeOrigin(answer), `${PUBLIC}/`, rpc({ jsonrpc: "2.0", id: 42, method: "GetTask" }), env());
    expect(response.status).toBe(status);
    const text = await response.text();
    expect(JSON.parse(text)).toMatchObject({ jsonrpc: "2.0", id: 42, error: { code: -32603 } });
    expect(text).not.toContain("10.1.2.3");
    expect(response.headers.get("location")).toBeNull();
    expect(logs.lines).toHaveLength(1);
  });

  it("answers 503 when no origin is configured", async () => {
    const logs = captureConsole();
    const response = await callVia(
      okOrigin(),
      `${PUBLIC}/`,
      rpc({ jsonrpc: "2.0", id: 1, method: "GetTask" }),
      makeEnv({ EDGE_AUTH: "off", ACCESS_LOG: "off" }),
    );
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ id: 1, error: { code: -32603 } });
    const traceId = expect.stringMatching(/^[0-9a-f]{32}$/);
    expect(logs.events()).toEqual([{ level: "error", event: "origin_failed", traceId, kind: "not_configured", method: "GetTask" }]);
  });
});

describe("origin choice", () => {
  const regions = JSON.stringify({
    EU: ["https://eu-1.internal/", "https://eu-2.internal/"],
    FRA: "https://fra.internal/",
    NA: "https://us.internal/",
  });
  const hosts = (origin: { requests: Request[] }) => origin.requests.map((r) => new URL(r.url).host);

  it("picks the origin by colo, then continent, then ORIGIN_URL", async () => {
    for (const [cf, host] of [
      [{ continent: "EU", colo: "FRA" }, "fra.internal"],
      [{ continent: "EU", colo: "AMS" }, "eu-1.internal"],
      [{ continent: "NA", colo: "SJC" }, "us.internal"],
      [{ continent: "AS", colo: "NRT" }, "10.1.2.3:8080"],
      [undefined, "10.1.2.3:8080"],
    ] as const) {
      const origin = okOrigin();
      await callVia(origin, `${PUBLIC}/`, { ...rpc({ jsonrpc: "2.0", id: 1, method: "GetTask" }), cf }, env({ ORIGIN_REGIONS: regions }));
      expect(hosts(origin)).toEqual([host]);
    }
  });

  it("fails over in order on connect failure, and stops at the first answer", async () => {
    const logs = captureConsole();
    const origin = fakeOrigin((req) =>
      new URL(req.url).host === "eu-2.internal"
        ? json({ jsonrpc: "2.0", id: 1, result: "from eu-2" })
        : Promise.reject(new TypeError("refused")),
    );
    const response = await callVia(
      origin,
      `${PUBLIC}/`,
      { ...rpc({ jsonrpc: "2.0", id: 1, method: "GetTask" }), cf: { continent: "EU", colo: "AMS" } },
      env({ ORIGIN_REGIONS: regions }),
    );
    expect(((await response.json()) as any).result).toBe("from eu-2");
    expect(hosts(origin)).toEqual(["eu-1.internal", "eu-2.internal"]);
    expect(logs.events()).toEqual([expect.objectContaining({ kind: "unreachable", origin: "eu-1.internal", attempt: 1, of: 3 })]);
  });

  it("answers 502 after every candidate failed, logging each attempt", async () => {
    const logs = captureConsole();
    const origin = fakeOrigin(() => Promise.reject(new TypeError("refused")));
    const response = await callVia(
      origin,
      `${PUBLIC}/`,
      { ...rpc({ jsonrpc: "2.0", id: 2, method: "GetTask" }), cf: { continent: "EU" } },
      env({ ORIGIN_REGIONS: regions }),
    );
    expect(response.status).toBe(502);
    expect(hosts(origin)).toEqual(["eu-1.internal", "eu-2.internal", "10.1.2.3:8080"]);
    expect(logs.lines).toHaveLength(3);
  });

  it("uses the ORIGIN service binding instead of fetch when bound", async () => {
    const fetchOrigin = okOrigin();
    const bound = okOrigin();
    const response = await callVia(
      fetchOrigin,
      `${PUBLIC}/`,
      rpc({ jsonrpc: "2.0", id: 1, method: "GetTask" }),
      env({ ORIGIN: { fetch: bound.fetch } }),
    );
    expect(response.status).toBe(200);
    expect(fetchOrigin.requests).toHaveLength(0);
    expect(bound.requests).toHaveLength(1);
    expect(bound.requests[0]!.headers.get("x-forwarded-host")).toBe("agents.example.com");
  });
});
