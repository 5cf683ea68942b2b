import { describe, expect, it } from "vitest";
import { CONFIG_VARIABLES, parseConfig } from "../../src/config";
import testKey from "../fixtures/ed25519-test-key.json"; // a throwaway key, for CARD_SIGNING_KEY only

describe("parseConfig", () => {
  it("defaults every variable", () => {
    expect(parseConfig({})).toEqual({
      ok: true,
      value: {
        publicBaseUrl: undefined,
        trustForwardedHeaders: false,
        cardCompat: "hybrid",
        rpcPath: "/",
        restPath: undefined,
        originBinding: "jsonrpc",
        originRestUrl: undefined,
        preferredBinding: "jsonrpc",
        interfaceTenant: undefined,
        protocolVersions: ["1.0", "0.3"],
        skillAllowlist: undefined,
        cardMaxAge: 300,
        cardStaleWhileRevalidate: 600,
        kvCacheTtl: 60,
        originUrl: undefined,
        originHeaders: {},
        originCredentials: {},
        originRegions: {},
        originTimeoutMs: 30_000,
        maxBodyBytes: 1_048_576,
        originReplyMaxBytes: 4_194_304,
        bodyTimeoutMs: 10_000,
        methodAllowlist: undefined,
        corsAllowedOrigins: "*",
        cardSource: "document",
        originCardUrl: undefined,
        originCardTtl: 60,
        adminToken: undefined,
        adminPath: "/_admin",
        hostAllowlist: undefined,
        registryWebhooks: [],
        feedToken: undefined,
        feedPublic: false,
        feedPath: "/_feed",
        pushUrlAllowlist: undefined,
        pushAllowHttpLoopback: false,
        pushFieldMaxBytes: 2048,
        pushRelay: "off",
        pushRelayAttempts: 6,
        pushRelayRetryMs: 5000,
        streamResume: "off",
        streamResumeMaxEvents: 1000,
        streamResumeMaxBytes: 4_194_304,
        streamResumeMaxAge: 3600,
        documentOrigins: new Set(),
        documentVpcServices: new Set(),
        signingKey: undefined,
        extraPublicKeys: [],
        edgeAuth: "enforce",
        jwtIssuer: undefined,
        jwtAudience: undefined,
        jwtJwksUrl: undefined,
        jwtAlgorithms: ["RS256", "ES256", "EdDSA"],
        jwtHeader: undefined,
        apiKeys: undefined,
        mtlsFingerprints: undefined,
        forwardCredentials: false,
        authProfiles: {},
        assertionKey: undefined,
        rateLimitPeriod: 60,
        accessLog: "errors",
        accessLogSample: 1,
        accessLogHashSubject: false,
      },
    });
  });

  it("reads the edge-authentication variables", () => {
    const parsed = parseConfig({
      EDGE_AUTH: "Enforce",
      AUTH_JWT_ISSUER: "https://team.cloudflareaccess.com",
      AUTH_JWT_AUDIENCE: "aud-1, aud-2",
      AUTH_JWT_ALGORITHMS: "ES256,EdDSA",
      AUTH_JWT_HEADER: "Cf-Access-Jwt-Assertion",
      AUTH_API_KEYS: JSON.stringify({ "partner-a": `sha256:${"ab".repeat(32)}` }),
      AUTH_MTLS_FINGERPRINTS: `${"AB:".repeat(31)}AB`,
    });
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.value).toMatchObject({
      edgeAuth: "enforce",
      jwtIssuer: "https://team.cloudflareaccess.com",
      jwtAlgorithms: ["ES256", "EdDSA"],
      jwtHeader: "cf-access-jwt-assertion",
    });
    expect([...parsed.value.jwtAudience!]).toEqual(["aud-1", "aud-2"]);
    expect([...parsed.value.apiKeys!.keys()]).toEqual(["partner-a"]);
    expect(parsed.value.apiKeys!.get("partner-a")).toHaveLength(32);
    expect([...parsed.value.mtlsFingerprints!]).toEqual(["ab".repeat(32)]);
  });

  it.each([
    ["AUTH_JWT_ISSUER", { AUTH_JWT_ISSUER: "http://idp.example.com", AUTH_JWT_AUDIENCE: "a" }, /https/],
    ["AUTH_JWT_ISSUER", { AUTH_JWT_ISSUER: "https://idp.example.com" }, /AUTH_JWT_AUDIENCE/],
    ["AUTH_JWT_JWKS_URL", { AUTH_JWT_JWKS_URL: "https://idp.example.com/jwks" }, /AUTH_JWT_ISSUER/],
    ["AUTH_JWT_ALGORITHMS", { AUTH_JWT_ALGORITHMS: "HS256" }, /algorithms among/],
    ["AUTH_JWT_ALGORITHMS", { AUTH_JWT_ALGORITHMS: "none" }, /algorithms among/],
    ["AUTH_API_KEYS", { AUTH_API_KEYS: '{"a":"plain-text-key"}' }, /sha256/],
    ["AUTH_MTLS_FINGERPRINTS", { AUTH_MTLS_FINGERPRINTS: "xyz" }, /64 hex/],
  ])("refuses %s as configured in %j, saying why", (name, env, message) => {
    const parsed = parseConfig(env);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.issues.find((issue) => issue.path === name)?.message).toMatch(message);
    expect(JSON.stringify(parsed.issues)).not.toContain("plain-text-key");
  });

  it("accepts an http issuer only on a loopback host (local development and tests)", () => {
    for (const issuer of ["http://127.0.0.1:4000", "http://localhost:4000/realms/a", "http://[::1]:4000"]) {
      const parsed = parseConfig({ AUTH_JWT_ISSUER: issuer, AUTH_JWT_AUDIENCE: "a" });
      expect(parsed.ok, issuer).toBe(true);
      if (parsed.ok) expect(parsed.value.jwtIssuer).toBe(issuer);
    }
  });

  it("reads strings, wrangler JSON values and lists", () => {
    const parsed = parseConfig({
      PUBLIC_BASE_URL: "https://agents.example.com/team/",
      TRUST_FORWARDED_HEADERS: "TRUE",
      CARD_COMPAT: "Strict",
      RPC_PATH: "/a2a/v1/",
      PROTOCOL_VERSIONS: ["0.3", "1.0"],
      SKILL_ALLOWLIST: '["Flight search", "Hotel search"]',
      ORIGIN_URL: "http://10.0.0.5:8080/rpc?tenant=a",
      ORIGIN_HEADERS: '{"Authorization":"Bearer x","CF-Access-Client-Id":"id"}',
      ORIGIN_REGIONS: { EU: ["https://eu.internal/"], FRA: "https://fra.internal/" },
      METHOD_ALLOWLIST: "SendMessage, message/send",
      CORS_ALLOWED_ORIGINS: "https://ui.example, https://inspector.example",
    });
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.value).toMatchObject({
      publicBaseUrl: "https://agents.example.com/team",
      trustForwardedHeaders: true,
      cardCompat: "strict",
      rpcPath: "/a2a/v1",
      protocolVersions: ["0.3", "1.0"],
      skillAllowlist: ["Flight search", "Hotel search"],
      originUrl: "http://10.0.0.5:8080/rpc?tenant=a",
      originHeaders: { authorization: "Bearer x", "cf-access-client-id": "id" },
      originRegions: { EU: ["https://eu.internal/"], FRA: ["https://fra.internal/"] },
      corsAllowedOrigins: ["https://ui.example", "https://inspector.example"],
      originCardUrl: "http://10.0.0.5:8080/.well-known/agent-card.json",
    });
    // Both names of one operation: one operation allowed; "x/custom" is no A2A method (an extension's).
    expect(parsed.value.methodAllowlist).toEqual({ operations: new Set(["sendMessage"]), extensionMethods: new Set() });
    const extension = parseConfig({ METHOD_ALLOWLIST: "GetTask, x/custom" });
    expect(extension.ok && extension.value.methodAllowlist).toEqual({
      operations: new Set(["getTask"]),
      extensionMethods: new Set(["x/custom"]),
    });
  });

  it.each([
    ["PUBLIC_BASE_URL", "agents.example.com"],
    ["PUBLIC_BASE_URL", "https://u:p@agents.example.com"],
    ["TRUST_FORWARDED_HEADERS", "maybe"],
    ["CARD_COMPAT", "loose"],
    ["RPC_PATH", "a2a"],
    ["RPC_PATH", "/a/../b"],
    ["RPC_PATH", "/.well-known/x"],
    ["PROTOCOL_VERSIONS", "1.0.0"],
    ["CARD_MAX_AGE", "-1"],
    ["KV_CACHE_TTL", "100000"],
    ["ORIGIN_URL", "ftp://origin"],
    ["ORIGIN_HEADERS", "Bearer abc"],
    ["ORIGIN_HEADERS", '{"Bad Header":"x"}'],
    ["ORIGIN_HEADERS", '{"X":"a\\r\\nInjected: 1"}'],
    ["ADMIN_PATH", "/.well-known"],
    ["RPC_PATH", "/.well-known"],
    ["ORIGIN_REGIONS", '{"europe":"https://x/"}'],
    ["ORIGIN_REGIONS", '{"EU":[]}'],
    ["ORIGIN_TIMEOUT_MS", "0"],
    ["MAX_BODY_BYTES", "1e9"],
    ["CORS_ALLOWED_ORIGINS", "https://ui.example/path"],
    ["CARD_SOURCE", "kv"],
  ])("rejects %s=%j naming the variable", (name, value) => {
    const parsed = parseConfig({ [name]: value });
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.issues.map((i) => i.path)).toContain(name);
  });

  it("never echoes a secret's value in its error", () => {
    const secret = "Bearer super-secret-value-xyz";
    const parsed = parseConfig({ ORIGIN_HEADERS: secret, ADMIN_TOKEN: secret });
    expect(JSON.stringify(parsed)).not.toContain("super-secret");
    // A credential pasted where a header name belongs is not echoed either.
    const pasted = parseConfig({ ORIGIN_HEADERS: JSON.stringify({ "Authorization: Bearer sk_live_abc123": "" }) });
    expect(JSON.stringify(pasted)).not.toContain("sk_live");
    expect(JSON.stringify(pasted)).toContain("entry 1");
  });

  it("never echoes any part of any variable's value, whatever the variable", () => {
    const marker = "zq9mark";
    const values = [
      marker,
      `${marker}, ${marker}2`,
      `["${marker}"]`,
      `{"${marker}":"${marker}"}`,
      `{"EU":"${marker}"}`,
      `{"EU":["https://ok.example/","${marker}"]}`,
      `{"${marker.toUpperCase()}":"https://x.example/"}`,
      `http://${marker}`,
      `https://${marker}.example/path?q=${marker}`,
      `/${marker}/../x`,
      `${marker} ${"x".repeat(80)}`,
    ];
    for (const name of CONFIG_VARIABLES) {
      for (const value of values) {
        const parsed = parseConfig({ [name]: value });
        if (parsed.ok) continue;
        expect(JSON.stringify(parsed.issues).toLowerCase(), `${name}=${value}`).not.toContain(marker);
        expect(parsed.issues.map((i) => i.path)).toContain(name);
      }
    }
  });

  it("refuses a signing key without HOST_ALLOWLIST or PUBLIC_BASE_URL: a card is signed only for hosts the operator named", () => {
    const key = JSON.stringify(testKey);
    const alone = parseConfig({ CARD_SIGNING_KEY: key });
    expect(alone.ok).toBe(false);
    if (!alone.ok) {
      expect(alone.issues).toEqual([{ path: "CARD_SIGNING_KEY", message: expect.stringMatching(/HOST_ALLOWLIST or PUBLIC_BASE_URL/) }]);
      expect(JSON.stringify(alone.issues)).not.toContain("nWGx");
    }
    expect(parseConfig({ CARD_SIGNING_KEY: key, HOST_ALLOWLIST: "agents.example.com" }).ok).toBe(true);
    expect(parseConfig({ CARD_SIGNING_KEY: key, PUBLIC_BASE_URL: "https://agents.example.com" }).ok).toBe(true);
    expect(parseConfig({ CARD_SIGNING_KEY: key, HOST_ALLOWLIST: " , " }).ok).toBe(false);
  });

  it("judges rules between variables only on values that parsed", () => {
    // Not a plain path; the /.well-known rule must not also fire on its raw text.
    expect(parseConfig({ ADMIN_PATH: "/.well-known/../x" })).toEqual({
      ok: false,
      issues: [{ path: "ADMIN_PATH", message: expect.stringMatching(/plain URL path/) }],
    });
  });

  it("reports every broken rule between variables at once", () => {
    const parsed = parseConfig({ RPC_PATH: "/.well-known", ADMIN_PATH: "/.well-known", CARD_SOURCE: "origin" });
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.issues.map((i) => i.path).sort()).toEqual(["ADMIN_PATH", "CARD_SOURCE", "RPC_PATH"]);
  });

  it("names a bad list entry by its position", () => {
    expect(parseConfig({ REGISTRY_WEBHOOKS: "https://hooks.example/, hooks.example" })).toEqual({
      ok: false,
      issues: [{ path: "REGISTRY_WEBHOOKS", message: expect.stringMatching(/^entry 2: expected an absolute http\(s\) URL/) }],
    });
  });

  it("normalizes HOST_ALLOWLIST and PUBLIC_BASE_URL hosts: lower case, no trailing dot", () => {
    const parsed = parseConfig({ HOST_ALLOWLIST: "A.Example.COM., b.example.com", PUBLIC_BASE_URL: "https://Agents.Example.com./team" });
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect([...parsed.value.hostAllowlist!]).toEqual(["a.example.com", "b.example.com"]);
    expect(parsed.value.publicBaseUrl).toBe("https://agents.example.com/team");
  });

  it("never throws, whatever the env holds", () => {
    const junk = ["", " ", "\u0000", "{", "[", "[1,2]", '{"a":1}', "null", "true", "💥".repeat(100), "x".repeat(10_000), "\r\n"];
    for (const name of CONFIG_VARIABLES) {
      for (const value of [...junk, null, 42, {}, [], ["a"], { a: "b" }]) expect(() => parseConfig({ [name]: value })).not.toThrow();
    }
    for (const env of [null, undefined, 42, "env", []]) expect(() => parseConfig(env as never)).not.toThrow();
  });
});
