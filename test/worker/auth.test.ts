// Edge authentication, in workerd: the card's own requirements
// enforced per scheme type, RFC 6750 challenges, the caller's identity and
// the edge-signed assertion to the origin, the extended card, rate limits.
// Tokens are minted with jose; the issuer's discovery and JWKS are served to
// the worker's injected fetch (the real OpenID provider runs in
// test/node/edge-auth.test.ts).
import { env as bindings } from "cloudflare:workers";
import { exportJWK, generateKeyPair, importJWK, type JWTPayload, jwtVerify, SignJWT, UnsecuredJWT } from "jose";
import { afterEach, describe, expect, it, vi } from "vitest";
import { inOneRateWindow } from "../support/rate-window";
import { call, callVia, documentsKv, fakeOrigin, makeEnv } from "../support/worker";

const ISSUER = "https://idp.example";
const AUDIENCE = "https://agent.example/";
const PUBLIC = "https://agents.example.com";
const ORIGIN = "http://10.0.0.9/rpc";
const API_KEY = "partner-key-0123456789";

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

const document = {
  name: "Guarded Agent",
  capabilities: { extendedAgentCard: true },
  securitySchemes: {
    idp: { type: "openIdConnect", openIdConnectUrl: `${ISSUER}/.well-known/openid-configuration` },
    partnerKey: { type: "apiKey", in: "header", name: "X-API-Key" },
    cert: { type: "mutualTLS" },
  },
  security: [{ idp: ["a2a.write"] }, { partnerKey: [] }, { cert: [] }],
};

async function sha256Hex(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
}

async function keyPair(kid: string) {
  const { publicKey, privateKey } = await generateKeyPair("RS256", { extractable: true });
  return { kid, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: "RS256", use: "sig" } };
}

type Key = Awaited<ReturnType<typeof keyPair>>;

/** An issuer with keys, the origin, and a worker env in front; counts what each saw. */
async function setup(overrides: Record<string, unknown> = {}, doc: object = document) {
  const keys: Key[] = [await keyPair("k1")];
  const jwksFetches: number[] = [];
  const origin = fakeOrigin(async (req) => {
    const url = new URL(req.url);
    if (url.href === `${ISSUER}/.well-known/openid-configuration`) return Response.json({ issuer: ISSUER, jwks_uri: `${ISSUER}/jwks` });
    if (url.href === `${ISSUER}/jwks`) {
      jwksFetches.push(Date.now());
      return Response.json({ keys: keys.map((k) => k.jwk) });
    }
    const { id } = (await req.clone().json()) as { id: unknown };
    return Response.json({ jsonrpc: "2.0", id, result: { ok: true } });
  });
  const kv = documentsKv({ default: doc });
  const assertion = await generateKeyPair("ES256", { extractable: true });
  const assertionKey = { ...(await exportJWK(assertion.privateKey)), kid: "edge-assertion" };
  const workerEnv = makeEnv({
    ORIGIN_URL: ORIGIN,
    SKILLS: kv,
    AUTH_JWT_ISSUER: ISSUER,
    AUTH_JWT_AUDIENCE: AUDIENCE,
    AUTH_API_KEYS: JSON.stringify({ partner: `sha256:${await sha256Hex(API_KEY)}` }),
    AUTH_ASSERTION_KEY: JSON.stringify(assertionKey),
    ...overrides,
  });
  // Claims given override the defaults (jose's setters would override them instead).
  const token = (claims: JWTPayload = {}, key: Key = keys[0]!) => {
    const now = Math.floor(Date.now() / 1000);
    const payload = { iss: ISSUER, aud: AUDIENCE, sub: "agent-client", scope: "a2a.read a2a.write", iat: now, exp: now + 300, ...claims };
    return new SignJWT(payload).setProtectedHeader({ alg: "RS256", kid: key.kid, typ: "at+jwt" }).sign(key.privateKey);
  };
  const send = (headers: Record<string, string> = {}, method = "SendMessage", query = "", cf?: unknown) => {
    const init: Omit<RequestInit, "cf"> & { cf?: unknown } = {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify({ jsonrpc: "2.0", id: "c1", method, params: {} }),
      cf,
    };
    return callVia(origin, `${PUBLIC}/${query}`, init, workerEnv);
  };
  const forwarded = () => origin.requests.filter((r) => r.url.startsWith("http://10.0.0.9/"));
  return { keys, jwksFetches, origin, workerEnv, token, send, forwarded };
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function refusal(response: Response) {
  return {
    status: response.status,
    challenge: response.headers.get("www-authenticate"),
    body: (await response.json()) as { id: unknown; error: { data: { reason: string }[] } },
  };
}

describe("a caller with a token from the issuer", () => {
  it("reaches the origin, which learns who called from the edge alone", async () => {
    const t = await setup();
    const response = await t.send({ ...bearer(await t.token()), "A2A-Caller": "admin:root", "A2A-Caller-Scopes": "everything" });
    expect(await response.json()).toEqual({ jsonrpc: "2.0", id: "c1", result: { ok: true } });
    const seen = t.forwarded()[0]!.headers;
    expect(seen.get("a2a-caller")).toBe("idp:agent-client");
    expect(seen.get("a2a-caller-scopes")).toBe("a2a.read a2a.write");
    expect(seen.get("authorization")).toBeNull(); // the credential the edge consumed is not lent on
    // The assertion verifies against the worker's own JWKS, for the origin as audience, within 60 s.
    const jwks = (await (await call(`${PUBLIC}/.well-known/jwks.json`, {}, t.workerEnv)).json()) as { keys: { kid: string }[] };
    const key = jwks.keys.find((k) => k.kid === "edge-assertion")!;
    const { payload, protectedHeader } = await jwtVerify(seen.get("a2a-caller-assertion")!, await importJWK(key, "ES256"), {
      issuer: PUBLIC,
      audience: ORIGIN,
    });
    expect(protectedHeader).toMatchObject({ alg: "ES256", kid: "edge-assertion", typ: "JWT" });
    expect(payload).toMatchObject({ sub: "idp:agent-client", scope: "a2a.read a2a.write" });
    expect(payload.exp! - payload.iat!).toBeLessThanOrEqual(60);
  });

  it("passes the consumed credential on with AUTH_FORWARD_CREDENTIALS=true, and ORIGIN_HEADERS still win", async () => {
    const t = await setup({ AUTH_FORWARD_CREDENTIALS: "true" });
    const token = await t.token();
    await t.send(bearer(token));
    expect(t.forwarded()[0]!.headers.get("authorization")).toBe(`Bearer ${token}`);
    const u = await setup({ ORIGIN_HEADERS: JSON.stringify({ Authorization: "Bearer origin-own-credential" }) });
    await u.send(bearer(await u.token()));
    expect(u.forwarded()[0]!.headers.get("authorization")).toBe("Bearer origin-own-credential");
  });

  it("accepts scopes from `scp` and a clock 59 s behind, and reads the token from AUTH_JWT_HEADER when set", async () => {
    const t = await setup({ AUTH_JWT_HEADER: "Cf-Access-Jwt-Assertion" });
    // The clock stands still (Date only; timers run): expired 59 s ago when it is checked, however long the
    // machine takes to get there (a loaded one took over a second: 401).
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    try {
      const now = Math.floor(Date.now() / 1000);
      const token = await t.token({ scope: undefined, scp: ["a2a.write"], exp: now - 59 });
      expect((await t.send({ "Cf-Access-Jwt-Assertion": token })).status).toBe(200);
      expect(t.forwarded()[0]!.headers.get("cf-access-jwt-assertion")).toBeNull();
      expect((await t.send(bearer(token))).status).toBe(401); // the configured header only
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("refused callers", () => {
  it("answers no credentials with 401, a bare Bearer challenge and the request id; nothing reaches the origin", async () => {
    const t = await setup();
    const r = await refusal(await t.send());
    expect(r.status).toBe(401);
    expect(r.challenge).toBe('Bearer realm="agents.example.com"');
    expect(r.body).toMatchObject({
      id: "c1",
      error: { data: [{ reason: "UNAUTHENTICATED" }, { requestId: expect.stringMatching(/^[0-9a-f]{32}$/) }] },
    });
    // RFC 6750 §2.3 query tokens are never read.
    const q = await refusal(await t.send({}, "SendMessage", `?access_token=${await t.token()}`));
    expect(q.challenge).toBe('Bearer realm="agents.example.com"');
    expect(t.forwarded()).toHaveLength(0);
  });

  it.each([
    ["expired", async (t: Awaited<ReturnType<typeof setup>>) => t.token({ exp: Math.floor(Date.now() / 1000) - 120 })],
    ["not yet valid", async (t: Awaited<ReturnType<typeof setup>>) => t.token({ nbf: Math.floor(Date.now() / 1000) + 120 })],
    ["for another audience", async (t: Awaited<ReturnType<typeof setup>>) => t.token({ aud: "https://other.example/" })],
    ["from another issuer", async (t: Awaited<ReturnType<typeof setup>>) => t.token({ iss: "https://evil.example" })],
    [
      "unsigned (alg none)",
      async () =>
        new UnsecuredJWT({ scope: "a2a.write", sub: "x" }).setIssuer(ISSUER).setAudience(AUDIENCE).setExpirationTime("5m").encode(),
    ],
    [
      "HS256 with the issuer's public key as the secret",
      async (t: Awaited<ReturnType<typeof setup>>) =>
        new SignJWT({ scope: "a2a.write", sub: "x" })
          .setProtectedHeader({ alg: "HS256", kid: "k1" })
          .setIssuer(ISSUER)
          .setAudience(AUDIENCE)
          .setExpirationTime("5m")
          .sign(new TextEncoder().encode(JSON.stringify(t.keys[0]!.jwk))),
    ],
    ["signed by an unknown key", async (t: Awaited<ReturnType<typeof setup>>) => t.token({}, await keyPair("stranger"))],
    [
      "tampered",
      async (t: Awaited<ReturnType<typeof setup>>) => {
        const [h, p, s] = (await t.token()).split(".");
        const claims = JSON.parse(atob(p!.replace(/-/g, "+").replace(/_/g, "/")));
        const forged = btoa(JSON.stringify({ ...claims, sub: "admin" }))
          .replace(/\+/g, "-")
          .replace(/\//g, "_")
          .replace(/=+$/, "");
        return `${h}.${forged}.${s}`;
      },
    ],
    ["not a JWT", async () => "opaque-token-value"],
  ])("answers a token %s with 401 invalid_token", async (_name, make) => {
    const t = await setup();
    const r = await refusal(await t.send(bearer(await make(t))));
    expect(r.status).toBe(401);
    expect(r.challenge).toBe('Bearer realm="agents.example.com", error="invalid_token"');
    expect(r.body.id).toBe("c1");
    expect(t.forwarded()).toHaveLength(0);
  });

  it("refuses a token signed with an algorithm outside AUTH_JWT_ALGORITHMS, though its key and claims are good", async () => {
    const t = await setup({ AUTH_JWT_ALGORITHMS: "ES256,EdDSA" });
    const r = await refusal(await t.send(bearer(await t.token())));
    expect(r.status).toBe(401);
    expect(r.challenge).toBe('Bearer realm="agents.example.com", error="invalid_token"');
    expect(t.forwarded()).toHaveLength(0);
  });

  it("answers a valid token without the required scope with 403 insufficient_scope naming it", async () => {
    const t = await setup();
    const r = await refusal(await t.send(bearer(await t.token({ scope: "a2a.read" }))));
    expect(r.status).toBe(403);
    expect(r.challenge).toBe('Bearer realm="agents.example.com", error="insufficient_scope", scope="a2a.write"');
    expect(r.body).toMatchObject({
      id: "c1",
      error: { data: [{ reason: "PERMISSION_DENIED" }, { requestId: expect.stringMatching(/^[0-9a-f]{32}$/) }] },
    });
  });
});

describe("keys", () => {
  it("picks up a rotated key on its first unknown kid, and fetches again at most once a minute", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const t = await setup();
    expect((await t.send(bearer(await t.token()))).status).toBe(200);
    expect(t.jwksFetches).toHaveLength(1);
    // The issuer rotates; the first token with the new kid, a minute later, makes the edge fetch the keys again.
    t.keys.unshift(await keyPair("k2"));
    vi.advanceTimersByTime(61_000);
    expect((await t.send(bearer(await t.token({}, t.keys[0])))).status).toBe(200);
    expect(t.jwksFetches).toHaveLength(2);
    // Tokens with kids nobody publishes: refused without a fetch each time, until a minute has passed.
    for (let i = 0; i < 3; i++) expect((await t.send(bearer(await t.token({}, await keyPair(`x${i}`))))).status).toBe(401);
    expect(t.jwksFetches).toHaveLength(2);
    vi.advanceTimersByTime(61_000);
    expect((await t.send(bearer(await t.token({}, await keyPair("x9"))))).status).toBe(401);
    expect(t.jwksFetches).toHaveLength(3);
  });
});

describe("API keys and mutual TLS", () => {
  it("admits the right API key as its caller, without passing the key on, and refuses a wrong one", async () => {
    const t = await setup();
    expect((await t.send({ "X-API-Key": API_KEY })).status).toBe(200);
    const seen = t.forwarded()[0]!.headers;
    expect(seen.get("a2a-caller")).toBe("partnerKey:partner");
    expect(seen.get("x-api-key")).toBeNull();
    const r = await refusal(await t.send({ "X-API-Key": "wrong-key-0123456789" }));
    expect(r.status).toBe(401);
    expect(r.challenge).toContain('error="invalid_token"');
    // Header names are case-insensitive (RFC 9110 §5.1): a key the card names `Authorization`, a header the
    // edge would otherwise forward, is consumed whatever case the card spells it in.
    const keyInAuthorization = { partnerKey: { type: "apiKey", in: "header", name: "Authorization" } };
    const u = await setup({}, { ...document, securitySchemes: keyInAuthorization, security: [{ partnerKey: [] }] });
    expect((await u.send({ authorization: API_KEY })).status).toBe(200);
    expect(u.forwarded()[0]!.headers.get("authorization")).toBeNull();
  });

  it("admits a certificate Cloudflare verified, narrowed by AUTH_MTLS_FINGERPRINTS, and refuses an unverified one", async () => {
    const fingerprint = "ab".repeat(32);
    const t = await setup({ AUTH_MTLS_FINGERPRINTS: fingerprint });
    const verified = { tlsClientAuth: { certVerified: "SUCCESS", certFingerprintSHA256: fingerprint, certSubjectDN: "CN=partner" } };
    expect((await t.send({}, "SendMessage", "", verified)).status).toBe(200);
    expect(t.forwarded()[0]!.headers.get("a2a-caller")).toBe("cert:CN=partner");
    const other = { tlsClientAuth: { ...verified.tlsClientAuth, certFingerprintSHA256: "cd".repeat(32) } };
    expect((await t.send({}, "SendMessage", "", other)).status).toBe(401);
    const failed = { tlsClientAuth: { certVerified: "FAILED:self signed certificate", certFingerprintSHA256: fingerprint } };
    expect((await t.send({}, "SendMessage", "", failed)).status).toBe(401);
  });
});

describe("modes and the extended card", () => {
  it("refuses the extended card to anonymous callers in both modes, and serves it to an authenticated one", async () => {
    for (const mode of ["enforce", "off"]) {
      const t = await setup({ EDGE_AUTH: mode });
      for (const method of ["GetExtendedAgentCard", "agent/getAuthenticatedExtendedCard"]) {
        expect((await t.send({}, method)).status, `${mode} ${method}`).toBe(401);
        expect((await t.send({ "X-API-Key": API_KEY }, method)).status, `${mode} ${method}`).toBe(200);
      }
    }
    // A card that requires nothing gives no way to authenticate: the extended card stays closed.
    const open = await setup({}, { name: "Open Agent" });
    expect((await open.send({}, "GetExtendedAgentCard")).status).toBe(401);
    expect((await open.send({}, "SendMessage")).status).toBe(200);
  });

  it("with EDGE_AUTH=off forwards anonymous calls and says once that the origin's credential is lent to everyone", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const t = await setup({ EDGE_AUTH: "off", ORIGIN_HEADERS: JSON.stringify({ Authorization: "Bearer origin-own" }) });
    const spoof = { "A2A-Caller": "admin:root", "A2A-Caller-Scopes": "everything", "A2A-Caller-Assertion": "forged" };
    for (let i = 0; i < 3; i++) expect((await t.send(spoof)).status).toBe(200);
    // Nobody was authenticated, so nobody is named: a client's own A2A-Caller* headers never pass.
    for (const name of Object.keys(spoof)) expect(t.forwarded()[0]!.headers.get(name), name).toBeNull();
    expect(warn.mock.calls.filter((c) => String(c[0]).includes('"edge_auth_off"'))).toHaveLength(1);
  });

  it("fails closed when a required scheme has no verifier: 401 for everyone, one log line per isolate", async () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    const basic = { securitySchemes: { basic: { type: "http", scheme: "basic" } }, security: [{ basic: [] }] };
    const t = await setup({}, basic);
    for (const headers of [{}, { authorization: `Basic ${btoa("a:b")}` }, bearer(await t.token())])
      expect((await t.send(headers)).status).toBe(401);
    expect(error.mock.calls.filter((c) => String(c[0]).includes("auth_scheme_unverifiable"))).toHaveLength(1);
    const noIssuer = await setup({ AUTH_JWT_ISSUER: undefined, AUTH_JWT_AUDIENCE: undefined });
    expect((await noIssuer.send(bearer(await noIssuer.token()))).status).toBe(401);
  });
});

describe("rate limits", () => {
  it("answers a caller over the RATE_LIMITER limit with 429, Retry-After and the request id; other callers go on", async () => {
    const t = await setup({ RATE_LIMITER: (bindings as unknown as { TEST_RATE_LIMITER: RateLimit }).TEST_RATE_LIMITER });
    const token = await t.token({ sub: "busy-client" });
    const statuses: number[] = [];
    await inOneRateWindow(60); // the five calls, the limited one and another caller's, all in one window
    for (let i = 0; i < 5; i++) statuses.push((await t.send(bearer(token))).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    const limited = await t.send(bearer(token));
    expect(limited.headers.get("retry-after")).toBe("60");
    expect(await limited.json()).toMatchObject({
      id: "c1",
      error: { data: [{ reason: "RATE_LIMITED" }, { requestId: expect.stringMatching(/^[0-9a-f]{32}$/) }] },
    });
    expect((await t.send(bearer(await t.token({ sub: "quiet-client" })))).status).toBe(200);
  });
});
