// Holes found from outside on the surfaces added last (the REST binding,
// REST-only origins, the bridge, the feed's hosts and path, the loopback
// switch of the push guard), tried where they were found: raw bytes on a
// socket to the built bundle in workerd (Miniflare, direct socket) and to
// `wrangler dev`, with real origin and issuer processes counting what reaches
// them. The same holes through the worker in workerd, with more cases, are in
// test/worker/surface-holes.test.ts.
import { createHash } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { join } from "node:path";
import { createLocalJWKSet, decodeJwt, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serve, wranglerVars } from "../../bench/lib";
import { builtBundle } from "../support/built-bundle";
import { outlastClients } from "../support/keep-alive";
import { startWranglerDev, wranglerDevDir } from "../support/processes";
import { inOneRateWindow } from "../support/rate-window";
import { raw } from "../support/raw-http";
import { until } from "../support/wait";

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

interface Recorder {
  url: string;
  received: Received[];
  server: Server;
}

/** An origin process that records every request and answers JSON-RPC with the method it got, REST with a task. */
function recorder(): Promise<Recorder> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      received.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
      let rpc: { id?: unknown; method?: unknown } | undefined;
      try {
        rpc = JSON.parse(body.toString()) as { id?: unknown; method?: unknown };
      } catch {
        rpc = undefined;
      }
      res.writeHead(200, { "content-type": "application/json" });
      if (rpc && "method" in rpc) res.end(JSON.stringify({ jsonrpc: "2.0", id: rpc.id ?? null, result: { method: rpc.method } }));
      else res.end(JSON.stringify({ id: "t1", contextId: "c1", status: { state: "TASK_STATE_COMPLETED" } }));
    });
  });
  return new Promise((resolve) =>
    outlastClients(server).listen(0, "127.0.0.1", () =>
      resolve({ url: `http://127.0.0.1:${(server.address() as { port: number }).port}/`, received, server }),
    ),
  );
}

const stops: Array<() => Promise<unknown>> = [];
let bundle: { path: string };
let origin: Recorder;
let other: Recorder;

const RATE_LIMIT = { limit: 3, period: 60 } as const;

interface Target {
  port: number;
  /** The worker's log so far (workerd's structured lines, wrangler dev's output). */
  log?: () => string;
}
type Start = (vars: Record<string, string>, documents?: Record<string, unknown>, rateLimited?: boolean) => Promise<Target>;

/** The built bundle in workerd (Miniflare, direct socket), with KV documents stored first and optionally a RATE_LIMITER. */
const workerd: Start = async (vars, documents = {}, rateLimited = false) => {
  const lines: string[] = [];
  const served = await serve({
    modules: true,
    scriptPath: bundle.path,
    modulesRoot: join(bundle.path, ".."),
    kvNamespaces: ["SKILLS"],
    // The admin API's document log and the feed, as wrangler.toml declares them.
    durableObjects: {
      ADMIN_DOCUMENTS: { className: "DocumentLog", useSQLite: true },
      AGENT_INDEX: { className: "AgentIndex", useSQLite: true },
      CARD_FEEDS: { className: "CardFeed", useSQLite: true },
      TASK_STREAMS: { className: "TaskStream", useSQLite: true },
    },
    bindings: { ...wranglerVars(), ...vars },
    ...(rateLimited ? { ratelimits: { RATE_LIMITER: { namespace_id: "1001", simple: RATE_LIMIT } } } : {}),
    handleStructuredLogs: ({ message }: { message: string }) => void lines.push(message),
  });
  stops.push(served.stop);
  const kv = await served.mf.getKVNamespace("SKILLS");
  for (const [key, value] of Object.entries(documents)) await kv.put(key, JSON.stringify(value));
  return { port: Number(served.url.port), log: () => lines.join("\n") };
};

/**
 * The worker under `wrangler dev` with KV documents stored first, in a directory of its own: wrangler.toml and,
 * for the rate limit, the `[[ratelimits]]` binding a deployment declares (see the README's deploy guide).
 */
const wranglerDev: Start = async (vars, documents = {}, rateLimited = false) => {
  const ratelimits = rateLimited
    ? `\n[[ratelimits]]\nname = "RATE_LIMITER"\nnamespace_id = "1001"\nsimple = { limit = ${RATE_LIMIT.limit}, period = ${RATE_LIMIT.period} }\n`
    : "";
  const { args, cleanUp } = await wranglerDevDir("holes-dev-", documents, vars, ratelimits);
  // A dev that never started stops itself (startWranglerDev); its directory goes with it.
  const { dev, base } = await startWranglerDev(args).catch((error: unknown) => {
    cleanUp();
    throw error;
  });
  stops.push(async () => {
    await dev.stop();
    cleanUp();
  });
  return { port: Number(new URL(base).port), log: () => dev.output() };
};

/** What a block deploys: made once the recorders listen. */
interface Deployment {
  vars: Record<string, string>;
  documents?: Record<string, unknown>;
  rateLimited?: boolean;
}
const planned: Array<{ start: Start; make: () => Deployment | Promise<Deployment>; target: Target }> = [];

/** A block's deployment on `start`'s runtime, whose port is set before the first test. */
function deployed(start: Start, make: () => Deployment | Promise<Deployment>): Target {
  const target: Target = { port: 0 };
  planned.push({ start, make, target });
  return target;
}

beforeAll(async () => {
  bundle = builtBundle();
  origin = await recorder();
  other = await recorder();
  stops.push(
    () => new Promise((r) => origin.server.close(r)),
    () => new Promise((r) => other.server.close(r)),
  );
  // Every block's deployments side by side: wrangler dev takes seconds to start, each.
  const starts = planned.map(async ({ start, make, target }) => {
    const { vars, documents, rateLimited } = await make();
    Object.assign(target, await start(vars, documents, rateLimited));
  });
  // All settled before a failure is reported: whatever started is in `stops`.
  await Promise.allSettled(starts);
  await Promise.all(starts);
});
afterAll(async () => {
  for (const stop of stops.reverse()) await stop();
});

const TARGETS = [
  ["workerd (built bundle)", workerd],
  ["wrangler dev", wranglerDev],
] as const;

const request = (method: string, host: string, path: string, headers: Record<string, string> = {}, body?: unknown) => {
  const text = body === undefined ? "" : typeof body === "string" ? body : JSON.stringify(body);
  const lines = [`${method} ${path} HTTP/1.1`, `Host: ${host}`];
  if (body !== undefined) lines.push("Content-Type: application/json", `Content-Length: ${Buffer.byteLength(text)}`);
  else if (method === "POST") lines.push("Content-Length: 0");
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  return `${lines.join("\r\n")}\r\nConnection: close\r\n\r\n${text}`;
};
const rpc = (method: string, params: unknown) => ({ jsonrpc: "2.0", id: 1, method, params });
const message = { messageId: "m1", role: "ROLE_USER", parts: [{ text: "hi" }] };
const header = (head: string, name: string) => new RegExp(`^${name}: (.*)$`, "im").exec(head)?.[1]?.trim();
const sha256Hex = (text: string) => createHash("sha256").update(text).digest("hex");

describe.each(TARGETS)("caller path segments never leave ORIGIN_REST_URL, %s", (_name, start) => {
  let port: number;
  const target = deployed(start, () => ({
    vars: {
      ORIGIN_BINDING: "http+json",
      ORIGIN_REST_URL: `${origin.url}a2a/rest`,
      ORIGIN_PROTOCOL_VERSIONS: "1.0",
      ORIGIN_HEADERS: JSON.stringify({ Authorization: "Bearer origin-secret-0123" }),
      EDGE_AUTH: "off",
      REST_PATH: "/rest",
    },
  }));
  beforeAll(() => {
    ({ port } = target);
  });

  it("refuses `..`, `.` and encoded dot segments from params, queries and paths; the origin gets nothing outside its base", async () => {
    const before = origin.received.length;
    const refused = [
      request("POST", "a.example.com", "/", { "A2A-Version": "1.0" }, rpc("GetTask", { tenant: "..", id: "x" })),
      request("POST", "a.example.com", "/", { "A2A-Version": "1.0" }, rpc("GetTask", { id: ".." })),
      request(
        "POST",
        "a.example.com",
        "/",
        { "A2A-Version": "1.0" },
        rpc("DeleteTaskPushNotificationConfig", { tenant: "..", taskId: "..", id: "users" }),
      ),
      request("GET", "a.example.com", "/rest/tasks/x?tenant=.."),
      request("GET", "a.example.com", "/rest/%2e%2e/tasks/x"),
      request("GET", "a.example.com", "/rest/.%2E/tasks/x"),
      request("GET", "a.example.com", "/rest/tasks/%2e%2e"),
      request("DELETE", "a.example.com", "/rest/%2e%2e/tasks/%2e%2e/pushNotificationConfigs/users"),
    ];
    for (const sent of refused) {
      const reply = await raw(port, sent);
      const line = sent.split("\r\n")[0];
      // JSON-RPC: -32602 at 200; REST: 400 or 404 (no route of a dot segment).
      if (line?.startsWith("POST / ")) expect(JSON.parse(reply.body), line).toMatchObject({ error: { code: -32602 } });
      else expect([400, 404], line).toContain(reply.status);
      expect(reply.body, line).not.toContain("TASK_STATE_COMPLETED");
    }
    expect(origin.received.slice(before).map((r) => r.url)).toEqual([]);
    // The control: the same routes with real ids reach the origin, under its base, with its credential.
    expect((await raw(port, request("GET", "a.example.com", "/rest/tasks/t1"))).status).toBe(200);
    expect((await raw(port, request("GET", "a.example.com", "/rest/acme/tasks/t1"))).status).toBe(200);
    expect(origin.received.slice(before).map((r) => [r.method, r.url])).toEqual([
      ["GET", "/a2a/rest/tasks/t1"],
      ["GET", "/a2a/rest/acme/tasks/t1"],
    ]);
  });
});

describe.each(TARGETS)(
  "PUSH_ALLOW_HTTP_LOOPBACK admits a loopback receiver, never the edge's or the origin's own port, %s",
  (_name, start) => {
    let port: number;
    // HOST_ALLOWLIST names localhost, as .dev.vars.example does: the edge's own host is a loopback name.
    const target = deployed(start, () => ({
      vars: { ORIGIN_URL: origin.url, EDGE_AUTH: "off", HOST_ALLOWLIST: "localhost,127.0.0.1", PUSH_ALLOW_HTTP_LOOPBACK: "true" },
    }));
    beforeAll(() => {
      ({ port } = target);
    });
    const create = (url: string) =>
      raw(
        port,
        request("POST", `localhost:${port}`, "/", { "A2A-Version": "1.0" }, rpc("CreateTaskPushNotificationConfig", { taskId: "t1", url })),
      );

    it("passes the A2A TCK's http://localhost:8888/webhook and every loopback spelling of another port to the origin", async () => {
      const before = origin.received.length;
      const admitted = ["http://localhost:8888/webhook", "http://127.0.0.1:8888/webhook", "http://[::1]:8888/webhook"];
      for (const url of admitted) expect(JSON.parse((await create(url)).body), url).toMatchObject({ result: {} });
      expect(origin.received.slice(before).map((r) => (JSON.parse(r.body.toString()) as { params: { url: string } }).params.url)).toEqual(
        admitted,
      );
    });

    it("refuses the edge's own port and the origin's, in any loopback spelling; the origin gets nothing", async () => {
      const before = origin.received.length;
      const originPort = new URL(origin.url).port;
      for (const url of [
        `http://localhost:${port}/hook`,
        `http://127.0.0.1:${port}/`,
        `http://[::1]:${originPort}/`,
        `http://localhost:${originPort}/`,
      ]) {
        const reply = JSON.parse((await create(url)).body) as { error?: { code: number; message: string } };
        expect(reply.error?.code, url).toBe(-32602);
        expect(reply.error?.message, url).toContain("own host");
      }
      expect(origin.received.length - before).toBe(0);
    });
  },
);

/** A WebSocket handshake (RFC 6455 §4.1) for `path` on `host`; its status is the answer (101 or the refusal). */
const handshake = (host: string, path: string, headers: Record<string, string> = {}) =>
  [
    `GET ${path} HTTP/1.1`,
    `Host: ${host}`,
    "Upgrade: websocket",
    "Connection: Upgrade",
    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
    "Sec-WebSocket-Version: 13",
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    "",
    "",
  ].join("\r\n");
const FEED_TOKEN = "feed-token-for-the-holes-0123456789";
const ADMIN_TOKEN = "admin-token-for-the-holes-0123456789";

describe.each(TARGETS)("the feed: only for a served host, and FEED_PATH is no agent path, %s", (_name, start) => {
  let port: number;
  const target = deployed(start, () => ({
    vars: { ORIGIN_URL: origin.url, HOST_ALLOWLIST: "a.example.com", FEED_PATH: "/feed", FEED_TOKEN, ADMIN_TOKEN },
    documents: { "a.example.com": { name: "Feed Host" } },
  }));
  const open = { port: 0 };
  const openTarget = deployed(start, () => ({
    vars: { ORIGIN_URL: origin.url, FEED_PUBLIC: "true" },
    documents: { "a.example.com": { name: "Feed Host" } },
  }));
  beforeAll(() => {
    ({ port } = target);
    open.port = openTarget.port;
  });
  const bearer = { Authorization: `Bearer ${FEED_TOKEN}` };

  it("upgrades the allowed host's feed on its own host, and answers 404 on a host HOST_ALLOWLIST does not name", async () => {
    expect((await raw(port, handshake("a.example.com", "/feed/a.example.com", bearer))).status).toBe(101);
    expect((await raw(port, handshake("unlisted.example.net", "/feed/a.example.com", bearer))).status).toBe(404);
  });

  it("refuses an agent by path at FEED_PATH (400 naming the collision)", async () => {
    const put = request(
      "PUT",
      "a.example.com",
      "/_admin/documents/a.example.com/feed",
      { Authorization: `Bearer ${ADMIN_TOKEN}` },
      { name: "Squatter" },
    );
    const reply = await raw(port, put);
    expect(reply.status).toBe(400);
    expect(reply.body).toContain("collides with /feed");
  });

  it("with FEED_PUBLIC and no HOST_ALLOWLIST, opens no feed for a hostname the edge has no document for", async () => {
    expect((await raw(open.port, handshake("a.example.com", "/_feed/never-served.example.org"))).status).toBe(404);
    expect((await raw(open.port, handshake("a.example.com", "/_feed/a.example.com"))).status).toBe(101);
  });
});

describe.each(TARGETS)("caller-chosen text in log lines, and a card's URL schemes, %s", (_name, start) => {
  // An imported A2A card (it has a `url`): intake leaves out what a card never publishes, and says so.
  const imported = {
    name: "Imported",
    url: "https://origin.internal/",
    documentationUrl: "  JaVaScRiPt:alert(document.cookie)",
    capabilities: { extensions: [{ uri: "javascript:alert(document.cookie)" }, { uri: "urn:example:ext" }] },
  };
  const target = deployed(start, () => ({ vars: { ORIGIN_URL: origin.url, EDGE_AUTH: "off" }, documents: { "a.example.com": imported } }));
  const logSince = (mark: number) => (target.log?.() ?? "").slice(mark);

  it("cuts a 200,000-character method name, A2A-Version and User-Agent in every log line, and marks the cut", async () => {
    const mark = target.log?.().length ?? 0;
    const huge = "m".repeat(200_000);
    const headers = { "A2A-Version": "9".repeat(200_000), "User-Agent": "u".repeat(200_000) };
    const reply = await raw(target.port, request("POST", "a.example.com", "/", headers, rpc(huge, {})));
    expect(reply.status).toBeLessThan(500);
    const lines = await until(() => {
      const found = logSince(mark)
        .split("\n")
        .filter((line) => line.includes('{"level":'));
      return found.some((line) => line.includes("…(+")) ? found : undefined;
    }, "a log line of the call, cut");
    if (!lines) throw new Error("until resolves with the lines, or throws");
    for (const line of lines) expect(line.length, line.slice(0, 120)).toBeLessThan(4096);
  });

  it("publishes none of an imported card's javascript: URLs, and names the repair", async () => {
    const reply = await raw(target.port, request("GET", "a.example.com", "/.well-known/agent-card.json"));
    expect(reply.status).toBe(200);
    expect(reply.body.toLowerCase()).not.toContain("javascript:");
    expect(JSON.parse(reply.body).capabilities.extensions).toEqual([{ uri: "urn:example:ext" }]);
    expect(header(reply.head, "Card-Repaired")).toContain("unsafe-url-scheme");
  });
});

describe.each(TARGETS)("METHOD_ALLOWLIST and A2A-Version on the REST binding, %s", (_name, start) => {
  let port: number;
  const target = deployed(start, () => ({
    vars: { ORIGIN_URL: origin.url, EDGE_AUTH: "off", REST_PATH: "/rest", METHOD_ALLOWLIST: "SendMessage,message/send" },
  }));
  beforeAll(() => {
    ({ port } = target);
  });

  it("refuses every operation the list does not name, on the REST routes of both versions; nothing reaches the origin", async () => {
    const before = origin.received.length;
    for (const [method, path, body] of [
      ["GET", "/rest/tasks/t1"],
      ["GET", "/rest/tasks"],
      ["POST", "/rest/tasks/t1:cancel"],
      ["POST", "/rest/tasks/t1/pushNotificationConfigs", { url: "https://hooks.example.com/x" }],
      ["DELETE", "/rest/tasks/t1/pushNotificationConfigs/c1"],
      ["POST", "/rest/message:stream", { message }],
      ["GET", "/rest/v1/tasks/t1"],
    ] as const) {
      const reply = await raw(port, request(method, "a.example.com", path, {}, body));
      expect(reply.status, `${method} ${path}`).toBe(501);
    }
    expect(origin.received.length - before).toBe(0);
    expect((await raw(port, request("POST", "a.example.com", "/rest/message:send", {}, { message }))).status).toBe(200);
    expect(origin.received.length - before).toBe(1);
  });

  it("refuses an A2A-Version no route of the path has; the origin is told the route's version", async () => {
    const before = origin.received.length;
    for (const version of ["9.9", "0.3"]) {
      const reply = await raw(port, request("POST", "a.example.com", "/rest/message:send", { "A2A-Version": version }, { message }));
      expect(reply.status, version).toBe(400);
      expect(reply.body, version).toContain("VERSION_NOT_SUPPORTED");
    }
    expect(origin.received.length - before).toBe(0);
    await raw(port, request("POST", "a.example.com", "/rest/message:send", { "A2A-Version": "1.0.9" }, { message }));
    // `/v1/message:send` with A2A-Version: 1.0 is 1.0's route of tenant "v1" (A2A 1.0 §3.6), not a 0.3 call labelled 1.0.
    await raw(port, request("POST", "a.example.com", "/rest/v1/message:send", { "A2A-Version": "1.0" }, { message }));
    const seen = origin.received.slice(before).map((r) => [r.headers["a2a-version"], JSON.parse(r.body.toString()).method]);
    expect(seen).toEqual([
      ["1.0", "SendMessage"],
      ["1.0", "SendMessage"],
    ]);
  });
});

/** A P-256 private JWK with a kid. */
async function privateJwk(kid: string, algorithm: "ECDSA" | "Ed25519" = "ECDSA"): Promise<string> {
  const params = algorithm === "ECDSA" ? { name: "ECDSA", namedCurve: "P-256" } : { name: "Ed25519" };
  const pair = (await crypto.subtle.generateKey(params, true, ["sign", "verify"])) as CryptoKeyPair;
  return JSON.stringify({ ...((await crypto.subtle.exportKey("jwk", pair.privateKey)) as JsonWebKey), kid });
}

describe.each(TARGETS)("callers, assertions, issuers and signatures, %s", (_name, start) => {
  const KEY = "partner-key-6b1d0c";
  const keyed = { partnerKey: { type: "apiKey", in: "header", name: "X-Partner-Key" } };
  let port: number;
  let issuer: { url: string; hits: number; server: Server };

  const target = deployed(start, async () => {
    // An OpenID provider that is down: every request is a 503, counted.
    issuer = await new Promise((resolve) => {
      const state = {
        url: "",
        hits: 0,
        server: createServer((_req, res) => {
          state.hits++;
          res.writeHead(503).end("down");
        }),
      };
      outlastClients(state.server).listen(0, "127.0.0.1", () => {
        state.url = `http://127.0.0.1:${(state.server.address() as { port: number }).port}`;
        resolve(state);
      });
    });
    stops.push(() => new Promise((r) => issuer.server.close(r)));
    const sso = { type: "openIdConnect", openIdConnectUrl: `${issuer.url}/.well-known/openid-configuration` };
    return {
      vars: {
        ORIGIN_URL: origin.url,
        REST_PATH: "/rest",
        KV_CACHE_TTL: "0",
        DOCUMENT_ORIGINS: new URL(other.url).origin,
        AUTH_API_KEYS: JSON.stringify({ "partner-1": `sha256:${sha256Hex(KEY)}` }),
        AUTH_ASSERTION_KEY: await privateJwk("assertion"),
        AUTH_JWT_ISSUER: issuer.url,
        AUTH_JWT_AUDIENCE: "https://agent.example/",
        CARD_SIGNING_KEY: await privateJwk("card", "Ed25519"),
        HOST_ALLOWLIST: "open.example.com,b.example.com,jwt.example.com",
      },
      documents: {
        "open.example.com": {
          name: "Open",
          capabilities: { extendedAgentCard: true },
          securitySchemes: keyed,
          security: [{ partnerKey: [] }, {}],
        },
        "b.example.com": { name: "B", originUrl: other.url, securitySchemes: keyed, security: [{ partnerKey: [] }] },
        "jwt.example.com": {
          name: "Two JWT schemes",
          securitySchemes: { bearer: { type: "http", scheme: "bearer" }, sso },
          security: [{ bearer: [] }, { sso: [] }],
        },
      },
    };
  });
  beforeAll(() => {
    ({ port } = target);
  });

  it("lets an anonymous caller in as anonymous beside {}: no caller headers, no extended card; a wrong key is still 401", async () => {
    const before = origin.received.length;
    const sent = await raw(port, request("POST", "open.example.com", "/", { "A2A-Version": "1.0" }, rpc("SendMessage", { message })));
    expect(JSON.parse(sent.body)).toMatchObject({ result: { method: "SendMessage" } });
    const seen = origin.received.at(-1)!.headers;
    expect([seen["a2a-caller"], seen["a2a-caller-assertion"]]).toEqual([undefined, undefined]);
    for (const refused of [
      request("POST", "open.example.com", "/", { "A2A-Version": "1.0" }, rpc("GetExtendedAgentCard", {})),
      request("GET", "open.example.com", "/rest/extendedAgentCard"),
    ])
      expect((await raw(port, refused)).status).toBe(401);
    const wrong = await raw(port, request("POST", "open.example.com", "/", { "X-Partner-Key": "nope" }, rpc("SendMessage", { message })));
    expect(wrong.status).toBe(401);
    expect(header(wrong.head, "www-authenticate")).toContain('error="invalid_token"');
    expect(origin.received.length - before).toBe(1);
  });

  it("signs the assertion for the origin that receives it: the document's origin, never ORIGIN_URL", async () => {
    const body = rpc("GetTask", { id: "t1" });
    const reply = await raw(port, request("POST", "b.example.com", "/", { "X-Partner-Key": KEY }, body));
    expect(JSON.parse(reply.body)).toMatchObject({ result: { method: "GetTask" } });
    const got = other.received.at(-1)!;
    const assertion = String(got.headers["a2a-caller-assertion"]);
    const jwks = createLocalJWKSet(JSON.parse((await raw(port, request("GET", "b.example.com", "/.well-known/jwks.json"))).body));
    // Verified as the README tells origin A to (audience: its own ORIGIN_URL), B's assertion is refused.
    await expect(jwtVerify(assertion, jwks, { issuer: "http://b.example.com", audience: origin.url })).rejects.toThrow();
    const { payload } = await jwtVerify(assertion, jwks, { issuer: "http://b.example.com", audience: other.url });
    expect(payload).toMatchObject({ sub: "partnerKey:partner-1", htm: "POST", htu: other.url, a2a_operation: "GetTask" });
    expect(payload.body_sha256).toBe(createHash("sha256").update(got.body).digest("base64url"));
    expect(decodeJwt(assertion).jti).toEqual(expect.any(String));
  });

  it("asks an issuer that is down once for 20 calls with two JWT schemes each; every call is refused", async () => {
    const token = "eyJhbGciOiJSUzI1NiIsImtpZCI6ImsxIn0.eyJzdWIiOiJ4In0.c2ln";
    const before = origin.received.length;
    for (let i = 0; i < 20; i++) {
      const reply = await raw(
        port,
        request("POST", "jwt.example.com", "/", { Authorization: `Bearer ${token}` }, rpc("GetTask", { id: "t" })),
      );
      expect(reply.status).toBe(401);
    }
    expect(issuer.hits).toBe(1);
    expect(origin.received.length).toBe(before);
  });

  it("signs a card for a named host, not for the same host on a port nobody named", async () => {
    const card = async (host: string) =>
      JSON.parse((await raw(port, request("GET", host, "/.well-known/agent-card.json", { "A2A-Version": "1.0" }))).body);
    const named = await card("open.example.com");
    expect(named.signatures.length).toBeGreaterThan(0);
    const other = await card("open.example.com:9999");
    expect(other.supportedInterfaces[0].url).toBe("http://open.example.com:9999/");
    expect(other.signatures).toBeUndefined();
  });
});

describe.each(TARGETS)("refused credentials are rate limited by address, %s", (_name, start) => {
  const keyed = { partnerKey: { type: "apiKey", in: "header", name: "X-Partner-Key" } };
  const target = deployed(start, () => ({
    vars: { ORIGIN_URL: origin.url, AUTH_API_KEYS: JSON.stringify({ p: `sha256:${sha256Hex("partner-key-6b1d0c")}` }) },
    documents: { default: { name: "Limited", securitySchemes: keyed, security: [{ partnerKey: [] }] } },
    rateLimited: true,
  }));

  it("answers 429 once one address has been refused more than the RATE_LIMITER limit; nothing reaches the origin", async () => {
    const { port } = target;
    const before = origin.received.length;
    const statuses: number[] = [];
    await inOneRateWindow(RATE_LIMIT.period);
    for (let i = 0; i < 6; i++)
      statuses.push(
        (await raw(port, request("POST", "a.example.com", "/", { "X-Partner-Key": `wrong-${i}` }, rpc("GetTask", { id: "t" })))).status,
      );
    expect(statuses).toEqual([401, 401, 401, 429, 429, 429]);
    expect(origin.received.length).toBe(before);
  });
});
