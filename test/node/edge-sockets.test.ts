// Holes found from outside, tried where they were found: raw bytes
// on a socket to the built bundle in workerd (Miniflare, direct socket: no
// proxy in front re-frames the request), with a real origin process counting
// what reaches it; the host, KV and signing cases run again under `wrangler
// dev` (what `npm run dev` runs). Body framing under `wrangler dev`, which
// re-frames requests, has its own file (dev-server-bodies.test.ts).
import { createHash } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { createLocalJWKSet, jwtVerify } from "jose";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { serveBundle } from "../../bench/lib";
import testKey from "../fixtures/ed25519-test-key.json"; // a throwaway key, for CARD_SIGNING_KEY only
import { builtBundle } from "../support/built-bundle";
import { type Captured, captureConsole, logEvents } from "../support/console";
import { outlastClients } from "../support/keep-alive";
import { type OidcIssuer, startOidcIssuer } from "../support/oidc-issuer";
import { startWranglerDev, wranglerDevDir } from "../support/processes";
import { type RawReply, raw, rawExchange } from "../support/raw-http";
import { until } from "../support/wait";

interface CountingOrigin {
  url: string;
  /** Body bytes received, per request, in order. */
  received: number[];
  /** Request headers received, per request, in order. */
  headers: IncomingHttpHeaders[];
  server: Server;
}

/** An origin that counts every body byte it receives and answers each call with a JSON-RPC result naming itself. */
function countingOrigin(name: string): Promise<CountingOrigin> {
  const received: number[] = [];
  const headers: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => {
    headers.push(req.headers);
    let bytes = 0;
    let text = "";
    req.on("data", (chunk: Buffer) => {
      bytes += chunk.length;
      if (text.length < 10_000) text += chunk.toString();
    });
    req.on("end", () => {
      received.push(bytes);
      let id: unknown = null;
      try {
        id = JSON.parse(text).id;
      } catch {
        /* counted anyway */
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ jsonrpc: "2.0", id, result: { origin: name } }));
    });
  });
  return new Promise((resolve) =>
    outlastClients(server).listen(0, "127.0.0.1", () =>
      resolve({ url: `http://127.0.0.1:${(server.address() as { port: number }).port}/`, received, headers, server }),
    ),
  );
}

const rpcBody = (id: string, method = "GetTask") => JSON.stringify({ jsonrpc: "2.0", id, method, params: {} });
const post = (host: string, body: string, extra = "") =>
  `POST / HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}Connection: close\r\n\r\n${body}`;
const get = (host: string, path: string, extra = "") => `GET ${path} HTTP/1.1\r\nHost: ${host}\r\n${extra}Connection: close\r\n\r\n`;

let bundle: { path: string };
let main: CountingOrigin;
let other: CountingOrigin;
const stops: Array<() => Promise<unknown>> = [];

// What a worker in workerd logs reaches this process's console through Miniflare: taken for each test.
let logs: Captured;
beforeEach(() => {
  logs = captureConsole();
});

interface Target {
  port: number;
  /** The deployment's log events (of `event` when given) so far: workerd's within the current test. */
  events: (event?: string) => Record<string, unknown>[];
}
type Start = (bindings: Record<string, string>, documents?: Record<string, unknown>) => Promise<Target>;

/** The built bundle in workerd (Miniflare, direct socket), with KV documents stored first. */
const worker: Start = async (bindings, documents = {}) => {
  const served = await serveBundle(bundle, bindings);
  stops.push(served.stop);
  const kv = await served.mf.getKVNamespace("SKILLS");
  for (const [key, value] of Object.entries(documents)) await kv.put(key, JSON.stringify(value));
  return { port: Number(served.url.port), events: (event?: string) => logs.events(event) };
};

/** The worker under `wrangler dev`, with KV documents in its local state (one `wrangler kv bulk put`). */
const wranglerDev: Start = async (bindings, documents = {}) => {
  const { args, cleanUp } = await wranglerDevDir("edge-dev-", documents, bindings);
  const { dev, base } = await startWranglerDev(args);
  stops.push(async () => {
    await dev.stop();
    cleanUp();
  });
  return { port: Number(new URL(base).port), events: (event?: string) => logEvents(dev.output(), event) };
};

const TARGETS = [
  ["workerd (built bundle)", worker],
  ["wrangler dev", wranglerDev],
] as const;

/** Every block's deployments, started side by side before the first test: wrangler dev takes seconds, each. */
const planned: Array<{ start: Start; make: () => Promise<[Record<string, string>, Record<string, unknown>?]>; target: Target }> = [];
function deployed(start: Start, make: () => Promise<[Record<string, string>, Record<string, unknown>?]>): Target {
  const target: Target = { port: 0, events: () => [] };
  planned.push({ start, make, target });
  return target;
}

beforeAll(async () => {
  bundle = builtBundle();
  main = await countingOrigin("main");
  other = await countingOrigin("other");
  stops.push(
    () => new Promise((r) => main.server.close(r)),
    () => new Promise((r) => other.server.close(r)),
  );
  const starts = planned.map(async ({ start, make, target }) => Object.assign(target, await start(...(await make()))));
  // All settled before a failure is reported: whatever started is in `stops`.
  await Promise.allSettled(starts);
  await Promise.all(starts);
});
afterAll(async () => {
  for (const stop of stops.reverse()) await stop();
});

describe("request bodies on the wire", () => {
  const target = deployed(worker, async () => [{ ORIGIN_URL: main.url, BODY_TIMEOUT_MS: "1000" }]);
  it("answers a body that stalls mid-way with 408 and a JSON-RPC envelope, after BODY_TIMEOUT_MS", async () => {
    const { port, events } = target;
    const before = main.received.length;
    const exchange = rawExchange(
      port,
      (socket) => {
        socket.write(
          `POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n`,
        );
        socket.write('11\r\n{"jsonrpc":"2.0",\r\n'); // one whole chunk (0x11 bytes), then nothing more; the socket stays open
      },
      15_000,
    );
    const reply = await exchange.reply.finally(() => exchange.socket.destroy());
    expect(reply.status).toBe(408);
    expect(JSON.parse(reply.body)).toMatchObject({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32600, message: expect.stringContaining("in time") },
    });
    expect(main.received.length - before).toBe(0);
    await until(() => events("request_body_failed").length > 0, "the request_body_failed log line");
    const traceId = expect.stringMatching(/^[0-9a-f]{32}$/);
    expect(events("request_body_failed")).toEqual([{ level: "warn", event: "request_body_failed", traceId, reason: "timeout" }]);
  });
});

describe.each(TARGETS)("host case and trailing dots, %s", (_name, start) => {
  const target = deployed(start, async () => [
    { ORIGIN_URL: main.url, DOCUMENT_ORIGINS: new URL(other.url).origin, HOST_ALLOWLIST: "a.example.com", KV_CACHE_TTL: "0" },
    { "a.example.com": { name: "Agent A", originUrl: other.url } },
  ]);
  it("routes card and RPC of A.EXAMPLE.COM and a.example.com. exactly as a.example.com, allowlist included", async () => {
    const { port } = target;
    for (const host of ["a.example.com", "A.EXAMPLE.COM", "a.example.com.", "A.Example.Com.:80"]) {
      const card = await raw(port, get(host, "/.well-known/agent-card.json", "A2A-Version: 1.0\r\n"));
      expect(card.status, host).toBe(200);
      const parsed = JSON.parse(card.body) as { name: string; supportedInterfaces: { url: string }[] };
      expect(parsed.name, host).toBe("Agent A");
      expect(parsed.supportedInterfaces[0]!.url, host).toMatch(/^http:\/\/a\.example\.com(:80)?\/$/);
      const call = await raw(port, post(host, rpcBody(host)));
      expect(JSON.parse(call.body), host).toEqual({ jsonrpc: "2.0", id: host, result: { origin: "other" } });
    }
    expect((await raw(port, get("B.EXAMPLE.COM", "/.well-known/agent-card.json"))).status).toBe(404);
    expect((await raw(port, post("B.EXAMPLE.COM", rpcBody("b")))).status).toBe(404);
  });
});

describe.each(TARGETS)("KV documents under concurrency and abuse, %s", (_name, start) => {
  const bursts = deployed(start, async () => [
    { ORIGIN_URL: main.url, KV_CACHE_TTL: "1" },
    { default: { name: "Burst Agent" }, "burst.example.com": { name: "Burst Host" } },
  ]);
  const deep = `{"capabilities":{"extensions":[{"uri":"https://x.example/e","params":${'{"a":'.repeat(5_000)}1${"}".repeat(5_000)}}]}}`;
  const nested = deployed(start, async () => [
    { ORIGIN_URL: main.url, KV_CACHE_TTL: "0", EDGE_AUTH: "off" },
    { default: JSON.parse(deep) },
  ]);
  it("answers bursts at every expiry of the isolate's copy without a single 5xx", async ({ annotate }) => {
    const { port } = bursts;
    const statuses = new Map<number, number>();
    const others: string[] = [];
    for (let expiry = 0; expiry < 5; expiry++) {
      await new Promise((r) => setTimeout(r, 1_100)); // past the 1 s TTL: every copy has expired
      const hosts = ["burst.example.com", ...Array.from({ length: 5 }, (_, i) => `r${expiry}-${i}.example.com`)];
      const replies = await Promise.all([
        ...Array.from({ length: 30 }, (_, i) => raw(port, get(hosts[i % hosts.length]!, "/.well-known/agent-card.json"))),
        ...Array.from({ length: 10 }, (_, i) => raw(port, post(hosts[i % hosts.length]!, rpcBody(`b${i}`)))),
      ]);
      for (const reply of replies) {
        statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
        if (reply.status !== 200) others.push(`${reply.status}: ${reply.body.slice(0, 300)}`);
      }
    }
    await annotate(`${_name}: bursts over 5 expiries: ${JSON.stringify(Object.fromEntries(statuses))}`);
    expect([...statuses.keys()], others.join("\n")).toEqual([200]);
  });

  it("never answers with another card when the default document is nested 5,000 levels deep: 503 CARD_UNAVAILABLE, the RPC refused", async () => {
    const { port, events } = nested;
    for (const host of ["one.example.com", "two.example.com"]) {
      const card = await raw(port, get(host, "/.well-known/agent-card.json"));
      expect(card.status).toBe(503);
      expect(card.body).toContain("CARD_UNAVAILABLE");
      expect((await raw(port, get(host, "/", "Accept: text/html\r\n"))).status).toBe(503);
      const call = await raw(port, post(host, rpcBody("deep")));
      expect(call.body).toContain("CARD_UNAVAILABLE");
      expect(call.body).toContain('"id":"deep"');
    }
    // Said, and only that: the document is skipped, never served nor allowed to break anything.
    await until(() => events("kv_document_invalid").length > 0, "the kv_document_invalid log line");
    await until(() => events("access").length >= 2, "the refused calls' access records");
    // ... and each refused call's access record (ACCESS_LOG=errors, the default).
    for (const event of events().filter((e) => e.event !== "access"))
      expect(event).toEqual({
        level: "warn",
        event: "kv_document_invalid",
        ...(event.traceId === undefined ? {} : { traceId: expect.stringMatching(/^[0-9a-f]{32}$/) }),
        key: "default",
        bytes: deep.length,
        issues: "nested deeper than 64 levels",
      });
    expect(events("access")).toEqual([
      expect.objectContaining({ status: 503, reason: "CARD_UNAVAILABLE", agent: "one.example.com" }),
      expect.objectContaining({ status: 503, reason: "CARD_UNAVAILABLE", agent: "two.example.com" }),
    ]);
  });
});

describe.each(TARGETS)("signatures only for named hosts, %s", (_name, start) => {
  const key = JSON.stringify(testKey);
  const named = deployed(start, async () => [{ CARD_SIGNING_KEY: key, HOST_ALLOWLIST: "agents.example.com" }]);
  const unnamed = deployed(start, async () => [{ CARD_SIGNING_KEY: key }]);
  it("answers 404, never a signed card, for a Host outside HOST_ALLOWLIST", async () => {
    const { port } = named;
    const evil = await raw(port, get("evil.example.net", "/.well-known/agent-card.json"));
    expect(evil.status).toBe(404);
    expect(evil.body).not.toContain("signatures");
    const good = await raw(port, get("agents.example.com", "/.well-known/agent-card.json"));
    expect(JSON.parse(good.body).signatures).toHaveLength(1);
    const refused = await raw(unnamed.port, get("evil.example.net", "/.well-known/agent-card.json"));
    expect(refused.status).toBe(500);
    expect(refused.body).toContain("HOST_ALLOWLIST or PUBLIC_BASE_URL");
    expect(refused.body).not.toContain("nWGx");
    await until(() => unnamed.events("config_invalid").length > 0, "the config_invalid log line");
    expect(unnamed.events("config_invalid")[0]!.issues).toBe(
      "CARD_SIGNING_KEY: needs HOST_ALLOWLIST or PUBLIC_BASE_URL (cards are signed only for hosts you name)",
    );
    expect(JSON.stringify(unnamed.events())).not.toContain("nWGx");
  });
});

/** A P-256 private JWK for AUTH_ASSERTION_KEY. */
async function assertionKey(): Promise<JsonWebKey & { kid: string }> {
  const pair = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])) as CryptoKeyPair;
  return { ...((await crypto.subtle.exportKey("jwk", pair.privateKey)) as JsonWebKey), kid: "sockets-assertion" };
}

describe.each(TARGETS)("edge authentication on the wire, %s", (_name, start) => {
  const AUDIENCE = "https://agent.example/";
  const PARTNER_KEY = "partner-key-6b1d0c";
  let idp: OidcIssuer;
  const target = deployed(start, async () => {
    idp = await startOidcIssuer({ resources: [AUDIENCE] });
    stops.push(idp.stop);
    const document = {
      name: "Guarded Agent",
      securitySchemes: {
        partnerKey: { type: "apiKey", in: "header", name: "X-Partner-Key" },
        sso: { type: "openIdConnect", openIdConnectUrl: idp.discoveryUrl },
      },
      security: [{ partnerKey: [] }, { sso: ["a2a.write"] }],
    };
    const keyHash = createHash("sha256").update(PARTNER_KEY).digest("hex");
    const vars = {
      ORIGIN_URL: main.url,
      AUTH_JWT_ISSUER: idp.issuer,
      AUTH_JWT_AUDIENCE: AUDIENCE,
      AUTH_API_KEYS: JSON.stringify({ "partner-1": `sha256:${keyHash}` }),
      AUTH_ASSERTION_KEY: JSON.stringify(await assertionKey()),
    };
    return [vars, { default: document }];
  });
  const guarded = (id: string, token: string | undefined, extra = "", path = "/") => {
    const body = rpcBody(id);
    const auth = token === undefined ? "" : `Authorization: Bearer ${token}\r\n`;
    return `POST ${path} HTTP/1.1\r\nHost: guarded.example.com\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${auth}${extra}Connection: close\r\n\r\n${body}`;
  };
  const edgeKeys = async () =>
    createLocalJWKSet(JSON.parse((await raw(target.port, get("guarded.example.com", "/.well-known/jwks.json"))).body));
  const header = (reply: RawReply, name: string) => new RegExp(`^${name}: (.*)$`, "im").exec(reply.head)?.[1]?.trim();

  it("refuses an anonymous call and a token in the query string with 401, a bare Bearer challenge and the id; nothing reaches the origin", async () => {
    const before = main.received.length;
    const token = await idp.token(idp.clients.agent);
    for (const [id, request] of [
      ["anon", guarded("anon", undefined)],
      ["query", guarded("query", undefined, "", `/?access_token=${token}`)],
    ] as const) {
      const reply = await raw(target.port, request);
      expect(reply.status, id).toBe(401);
      expect(header(reply, "www-authenticate"), id).toBe('Bearer realm="guarded.example.com"');
      expect(JSON.parse(reply.body), id).toMatchObject({ jsonrpc: "2.0", id, error: { code: -32600 } });
    }
    expect(main.received.length).toBe(before);
  });

  it("refuses a wrong API key and a tampered token with invalid_token", async () => {
    const before = main.received.length;
    const token = await idp.token(idp.clients.agent);
    const [head, payload, signature] = token.split(".");
    const tampered = `${head}.${payload}.${signature!.startsWith("A") ? "B" : "A"}${signature!.slice(1)}`;
    for (const request of [guarded("k", undefined, "X-Partner-Key: not-the-key\r\n"), guarded("t", tampered)]) {
      const reply = await raw(target.port, request);
      expect(reply.status).toBe(401);
      expect(header(reply, "www-authenticate")).toBe('Bearer realm="guarded.example.com", error="invalid_token"');
    }
    expect(main.received.length).toBe(before);
  });

  it("answers a token without the required scope with 403 insufficient_scope naming it", async () => {
    const reply = await raw(target.port, guarded("reader", await idp.token(idp.clients.reader)));
    expect(reply.status).toBe(403);
    expect(header(reply, "www-authenticate")).toBe('Bearer realm="guarded.example.com", error="insufficient_scope", scope="a2a.write"');
    expect(JSON.parse(reply.body)).toMatchObject({ id: "reader", error: { code: -32600 } });
  });

  it("lets an API key and a provider's token through; the origin sees the edge's caller headers, never the client's or the credential", async () => {
    const spoof = "A2A-Caller: admin:root\r\nA2A-Caller-Scopes: everything\r\nA2A-Caller-Assertion: forged\r\n";
    for (const [request, caller, scopes] of [
      [guarded("key", undefined, `X-Partner-Key: ${PARTNER_KEY}\r\n${spoof}`), "partnerKey:partner-1", ""],
      [guarded("jwt", await idp.token(idp.clients.agent), spoof), "sso:agent-client", "a2a.read a2a.write"],
    ] as const) {
      const before = main.headers.length;
      const reply = await raw(target.port, request);
      expect(reply.status, caller).toBe(200);
      expect(main.headers.length).toBe(before + 1);
      const seen = main.headers.at(-1)!;
      expect(seen["a2a-caller"], caller).toBe(caller);
      expect(seen["a2a-caller-scopes"], caller).toBe(scopes);
      const { payload } = await jwtVerify(String(seen["a2a-caller-assertion"]), await edgeKeys(), {
        issuer: "http://guarded.example.com",
        audience: main.url,
      });
      expect(payload.sub, caller).toBe(caller);
      expect(seen["x-partner-key"], caller).toBeUndefined();
      expect(seen.authorization, caller).toBeUndefined();
    }
  });
});
