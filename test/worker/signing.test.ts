import { afterEach, describe, expect, it, vi } from "vitest";
import { CARD, call, documentsKv, makeEnv } from "../support/worker";

afterEach(() => vi.restoreAllMocks());

const HOSTS = "a.example.com,b.example.com";

async function privateJwk(kid = "k1"): Promise<string> {
  const pair = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])) as CryptoKeyPair;
  const jwk = (await crypto.subtle.exportKey("jwk", pair.privateKey)) as JsonWebKey;
  return JSON.stringify({ kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y, d: jwk.d, kid });
}

describe("signing at the edge", () => {
  it("signs each (host, variant) card once per isolate, not per request", async () => {
    const workerEnv = makeEnv({ CARD_SIGNING_KEY: await privateJwk(), HOST_ALLOWLIST: HOSTS });
    const sign = vi.spyOn(crypto.subtle, "sign");
    const first = await call(`https://a.example.com${CARD}`, { headers: { "A2A-Version": "1.0" } }, workerEnv);
    const signedOnce = sign.mock.calls.length;
    expect(signedOnce).toBeGreaterThanOrEqual(1);
    for (let i = 0; i < 5; i++) {
      const again = await call(`https://a.example.com${CARD}`, { headers: { "A2A-Version": "1.0" } }, workerEnv);
      expect(await again.text()).toBe(await first.clone().text());
    }
    expect(sign.mock.calls.length).toBe(signedOnce);
    await call(`https://b.example.com${CARD}`, { headers: { "A2A-Version": "1.0" } }, workerEnv);
    expect(sign.mock.calls.length).toBe(2 * signedOnce);
  });

  it("adds a second signature only where @a2a-js/sdk would verify another payload", async () => {
    // A document without empty values: its 1.0 card is the same payload for both.
    const plain = { name: "Plain", skills: [{ name: "A", tags: ["x"] }] };
    const kv = documentsKv({ default: plain });
    const workerEnv = makeEnv({ CARD_SIGNING_KEY: await privateJwk(), SKILLS: kv, HOST_ALLOWLIST: HOSTS });
    const v1 = (await (await call(`https://a.example.com${CARD}`, { headers: { "A2A-Version": "1.0" } }, workerEnv)).json()) as any;
    expect(v1.signatures).toHaveLength(1);
    // The SDK's payload leaves out 0.3 fields (url, additionalInterfaces): a signature over it would still
    // verify a card whose url was changed, so a 0.3-shaped card never gets one.
    for (const path of [CARD, "/.well-known/agent.json"]) {
      const shaped = (await (await call(`https://a.example.com${path}`, {}, workerEnv)).json()) as any;
      expect(shaped.url).toBe("https://a.example.com/");
      expect(shaped.signatures).toHaveLength(1);
    }
    // A scope-less requirement ({"schemes":{"acmeBearer":{}}}) is dropped by the SDK: two signatures.
    const bundledV1 = (await (
      await call(
        `https://a.example.com${CARD}`,
        { headers: { "A2A-Version": "1.0" } },
        makeEnv({ CARD_SIGNING_KEY: await privateJwk(), HOST_ALLOWLIST: HOSTS }),
      )
    ).json()) as any;
    expect(bundledV1.signatures).toHaveLength(2);
  });

  it("serves unsigned cards and no JWKS without a key", async () => {
    const card = (await (await call(`https://a.example.com${CARD}`)).json()) as any;
    expect(card).not.toHaveProperty("signatures");
    expect((await call("https://a.example.com/.well-known/jwks.json")).status).toBe(404);
  });

  it.each([
    ["a public key", JSON.stringify({ kty: "EC", crv: "P-256", x: "AA", y: "AA", kid: "k" }), /no private part/],
    ["a key without kid", JSON.stringify({ kty: "OKP", crv: "Ed25519", x: "AA", d: "AA" }), /kid/],
    ["an RSA key", JSON.stringify({ kty: "RSA", n: "AA", e: "AQAB", d: "AA", kid: "k" }), /ES256|EdDSA/],
    ["not JSON", "-----BEGIN PRIVATE KEY-----", /JSON/],
  ])("refuses %s as CARD_SIGNING_KEY, without echoing it", async (_name, key, message) => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const response = await call(`https://a.example.com${CARD}`, {}, makeEnv({ CARD_SIGNING_KEY: key, HOST_ALLOWLIST: HOSTS }));
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(text).toMatch(message);
    expect(text).toContain("CARD_SIGNING_KEY");
    expect(text).not.toContain('"d"');
  });

  it("refuses a well-formed key WebCrypto cannot import, with one log line", async () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    const bad = JSON.stringify({ kty: "EC", crv: "P-256", x: "AAAA", y: "AAAA", d: "AAAA", kid: "k" });
    const workerEnv = makeEnv({ CARD_SIGNING_KEY: bad, HOST_ALLOWLIST: HOSTS });
    for (let i = 0; i < 3; i++) expect((await call(`https://a.example.com${CARD}`, {}, workerEnv)).status).toBe(500);
    // The JWKS fails alike: a key the cards cannot be signed with is never published.
    expect((await call("https://a.example.com/.well-known/jwks.json", {}, workerEnv)).status).toBe(500);
    expect(error.mock.calls.filter((c) => String(c[0]).includes("signing_key_invalid"))).toHaveLength(1);
  });

  it("signs only for hosts the operator named: another Host gets 404, never a signed card", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const key = await privateJwk();
    const named = makeEnv({ CARD_SIGNING_KEY: key, HOST_ALLOWLIST: HOSTS });
    expect((await call(`https://evil.example.net${CARD}`, {}, named)).status).toBe(404);
    expect((await call("https://evil.example.net/.well-known/jwks.json", {}, named)).status).toBe(404);
    const fixed = makeEnv({ CARD_SIGNING_KEY: key, PUBLIC_BASE_URL: "https://agents.example.com" });
    const card = (await (await call(`https://evil.example.net${CARD}`, { headers: { "A2A-Version": "1.0" } }, fixed)).json()) as any;
    expect(card.supportedInterfaces[0].url).toBe("https://agents.example.com/");
    expect(JSON.stringify(card)).not.toContain("evil");
    const unnamed = await call(`https://evil.example.net${CARD}`, {}, makeEnv({ CARD_SIGNING_KEY: key }));
    expect(unnamed.status).toBe(500);
    expect(await unnamed.text()).toContain("HOST_ALLOWLIST or PUBLIC_BASE_URL");
  });
});
