// ARD's manifest of a host (`/.well-known/ard.json`, src/agents/ard.ts) beside the AI Catalog, and the trust
// manifests the edge signs into both: the shape ARD v0.9 describes (validated with its schema, vendored in
// test/schema/), the same agents as ai-catalog.json, cached like the card, nothing of the origins' addresses;
// each entry's trust manifest verified with jose against the JWKS the worker serves, and refused once changed.
import canonicalize from "canonicalize";
import * as jose from "jose";
import { describe, expect, it } from "vitest";
import { ardManifest } from "../../src/agents/ard";
import { schemaErrors } from "../support/schemas";
import { CARD, call, documentsKv, makeEnv } from "../support/worker";

const H = "agents.example.com";
const ROOT_ORIGIN = "http://10.1.2.3:7000/rpc";
const TRAVEL_ORIGIN = "http://10.9.8.7:7001/a2a";

/**
 * The host's own agent, named like its path agent `/travel` (the identifiers must still differ), and two by path;
 * two documents name their private origins.
 */
const DOCUMENTS = {
  [H]: { name: "Travel", description: "The host's own agent.", provider: { organization: "Acme Corp" }, originUrl: ROOT_ORIGIN },
  [`${H}/travel`]: { name: "Travel Desk", description: "Books trips.", originUrl: TRAVEL_ORIGIN },
  [`${H}/billing/eu`]: { name: "Billing EU" },
  [`agents:${H}`]: {
    version: 1,
    agents: [
      { path: "", name: "Travel", description: "The host's own agent." },
      { path: "/travel", name: "Travel Desk", description: "Books trips." },
      { path: "/billing/eu", name: "Billing EU", description: "Billing EU" },
    ],
  },
};

const worker = (overrides: Record<string, unknown> = {}) => {
  const env = makeEnv({
    SKILLS: documentsKv(DOCUMENTS),
    ORIGIN_URL: ROOT_ORIGIN,
    DOCUMENT_ORIGINS: "http://10.1.2.3:7000,http://10.9.8.7:7001",
    ...overrides,
  });
  return (url: string, init: RequestInit = {}) => call(url, init, env);
};

async function privateJwk(kid: string): Promise<string> {
  const pair = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])) as CryptoKeyPair;
  const jwk = (await crypto.subtle.exportKey("jwk", pair.privateKey)) as JsonWebKey;
  return JSON.stringify({ kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y, d: jwk.d, kid });
}

interface Entry {
  identifier: string;
  url: string;
  trustManifest?: { identity: string; identityType?: string; signature: string };
  [key: string]: unknown;
}
type Catalog = { entries: Entry[]; [key: string]: unknown };

describe("ARD's manifest, /.well-known/ard.json", () => {
  it("lists the host's agents in ARD's shape, valid against its schema, the same agents as the AI Catalog", async () => {
    const get = worker();
    const response = await get(`https://${H}/.well-known/ard.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    const ard = (await response.json()) as Catalog;
    expect(schemaErrors.ardManifest(ard)).toEqual([]);
    expect(ard).toEqual({
      specVersion: "1.0",
      host: { displayName: "Acme Corp", identifier: H },
      entries: [
        {
          // Named like the path agent /travel: the path keeps `travel`, the name takes the next free one.
          identifier: `urn:air:${H}:agent:travel-2`,
          displayName: "Travel",
          type: "application/a2a-agent-card+json",
          url: `https://${H}/.well-known/agent-card.json`,
          description: "The host's own agent.",
        },
        {
          identifier: `urn:air:${H}:agent:travel`,
          displayName: "Travel Desk",
          type: "application/a2a-agent-card+json",
          url: `https://${H}/travel/.well-known/agent-card.json`,
          description: "Books trips.",
        },
        {
          identifier: `urn:air:${H}:agent:billing:eu`,
          displayName: "Billing EU",
          type: "application/a2a-agent-card+json",
          url: `https://${H}/billing/eu/.well-known/agent-card.json`,
          description: "Billing EU",
        },
      ],
    });
    const ai = (await (await get(`https://${H}/.well-known/ai-catalog.json`)).json()) as Catalog;
    expect(ard.entries.map((e) => e.url)).toEqual(ai.entries.map((e) => e.url));
    // Each url is a card the worker serves.
    for (const entry of ard.entries) expect((await get(entry.url)).status, entry.url).toBe(200);
  });

  it("names agents by the URN rules: a name folded into one segment, a port left out, no identifier for an IPv6 host", async () => {
    const entries = [{ path: "/a/b_c/d-e", name: "Deep" }];
    const manifest = ardManifest("http://agent.localhost:8787", { name: "Émoji Planner (beta)!" }, entries);
    expect(manifest?.entries.map((e) => e.identifier)).toEqual([
      "urn:air:agent.localhost:agent:emoji-planner-beta",
      "urn:air:agent.localhost:agent:a:b_c:d-e",
    ]);
    expect(manifest?.host).toEqual({ displayName: "agent.localhost", identifier: "agent.localhost" });
    expect(schemaErrors.ardManifest(manifest)).toEqual([]);
    expect(ardManifest("https://x.example", { name: "日本語" }, [])?.entries[0]?.identifier).toBe("urn:air:x.example:agent:agent");
    expect(ardManifest("http://[::1]:8787", { name: "A" }, [])).toBeUndefined();
    const get = worker();
    expect((await get("http://[::1]:8787/.well-known/ard.json")).status).toBe(404);
    expect((await get("http://[::1]:8787/.well-known/ai-catalog.json")).status).toBe(200);
  });

  it("is cached like the card: strong ETag, 304, the card's Cache-Control, CORS *, HEAD", async () => {
    const get = worker();
    const response = await get(`https://${H}/.well-known/ard.json`);
    const card = await get(`https://${H}${CARD}`);
    const etag = response.headers.get("etag") ?? "";
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect(response.headers.get("cache-control")).toBe(card.headers.get("cache-control"));
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    const again = await get(`https://${H}/.well-known/ard.json`, { headers: { "if-none-match": etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    const head = await get(`https://${H}/.well-known/ard.json`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("etag")).toBe(etag);
    expect(await head.text()).toBe("");
  });

  it("is linked from every card and page (rel=ard), and is the host's alone: a path agent has none", async () => {
    const get = worker();
    for (const url of [`https://${H}${CARD}`, `https://${H}/travel${CARD}`, `https://${H}/billing/eu/`]) {
      const response = await get(url, { headers: { accept: "text/html" } });
      expect(response.headers.get("link"), url).toContain(`<https://${H}/.well-known/ard.json>; rel="ard"`);
    }
    for (const path of ["/travel", "/billing/eu"]) expect((await get(`https://${H}${path}/.well-known/ard.json`)).status, path).toBe(404);
  });

  it("answers 404 for a host outside HOST_ALLOWLIST, like the other catalogs", async () => {
    const get = worker({ HOST_ALLOWLIST: H });
    for (const path of ["/.well-known/ard.json", "/.well-known/ai-catalog.json", "/.well-known/api-catalog"]) {
      expect((await get(`https://${H}${path}`)).status, path).toBe(200);
      expect((await get(`https://other.example.com${path}`)).status, path).toBe(404);
    }
  });

  it("never names an origin's address", async () => {
    const get = worker();
    for (const path of ["/.well-known/ard.json", "/.well-known/ai-catalog.json"]) {
      const text = await (await get(`https://${H}${path}`)).text();
      expect(text).toContain(`https://${H}/travel/`);
      for (const origin of ["10.1.2.3", "10.9.8.7"]) expect(text, path).not.toContain(origin);
    }
  });
});

describe("trust manifests, signed with the card key", () => {
  const signed = async () => worker({ CARD_SIGNING_KEY: await privateJwk("catalog-key"), HOST_ALLOWLIST: H });

  /** RFC 7515 Appendix F: the detached payload (JCS of the manifest without `signature`) put back, then verified. */
  async function verify(manifest: Record<string, unknown>, keys: ReturnType<typeof jose.createLocalJWKSet>) {
    const { signature, ...unsigned } = manifest as { signature: string };
    const [header, detached, value] = signature.split(".");
    expect(detached).toBe("");
    return jose.compactVerify(`${header}.${jose.base64url.encode(canonicalize(unsigned) ?? "")}.${value}`, keys);
  }

  it("puts a trust manifest on every AI Catalog and ARD entry, verifiable with the worker's JWKS", async () => {
    const get = await signed();
    const jwks = (await (await get(`https://${H}/.well-known/jwks.json`)).json()) as jose.JSONWebKeySet;
    const keys = jose.createLocalJWKSet(jwks);
    const ai = (await (await get(`https://${H}/.well-known/ai-catalog.json`)).json()) as Catalog;
    const ard = (await (await get(`https://${H}/.well-known/ard.json`)).json()) as Catalog;
    expect(schemaErrors.ardManifest(ard)).toEqual([]);
    expect(ai.entries).toHaveLength(3);
    ai.entries.forEach((entry, i) => {
      // The AI Catalog draft: identity is the entry's identifier. ARD §5.1: the same workload identity beside the URN.
      expect(entry.trustManifest).toEqual({ identity: entry.identifier, identityType: "https", signature: expect.any(String) });
      expect(ard.entries[i]?.trustManifest).toEqual(entry.trustManifest);
    });
    for (const entry of [...ai.entries, ...ard.entries]) {
      const manifest = entry.trustManifest ?? {};
      const { payload, protectedHeader } = await verify(manifest, keys);
      expect(protectedHeader).toEqual({ alg: "ES256", kid: "catalog-key", typ: "JOSE", jku: `https://${H}/.well-known/jwks.json` });
      expect(JSON.parse(new TextDecoder().decode(payload))).toEqual({ identity: entry.trustManifest?.identity, identityType: "https" });
    }
    // Another identity under the same signature, or one agent's signature on another's manifest, fails.
    const [root, travel] = ai.entries;
    const tampered = { ...root?.trustManifest, identity: "https://attacker.example" };
    await expect(verify(tampered, keys)).rejects.toThrow(jose.errors.JWSSignatureVerificationFailed);
    const swapped = { ...travel?.trustManifest, signature: root?.trustManifest?.signature };
    await expect(verify(swapped, keys)).rejects.toThrow(jose.errors.JWSSignatureVerificationFailed);
    await expect(verify({ ...root?.trustManifest, identityType: "did" }, keys)).rejects.toThrow();
  });

  it("signs nothing without a key, nor under a port HOST_ALLOWLIST does not name (as for the card)", async () => {
    for (const [get, base] of [
      [worker(), `https://${H}`],
      [await signed(), `https://${H}:8443`],
    ] as const) {
      for (const path of ["/.well-known/ai-catalog.json", "/.well-known/ard.json"]) {
        const catalog = (await (await get(`${base}${path}`)).json()) as Catalog;
        expect(catalog.entries.length, path).toBe(3);
        for (const entry of catalog.entries) expect(entry, `${base}${path}`).not.toHaveProperty("trustManifest");
      }
      const card = (await (await get(`${base}${CARD}`)).json()) as Record<string, unknown>;
      expect(card).not.toHaveProperty("signatures");
    }
  });
});
