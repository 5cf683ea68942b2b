// Signed cards, verified by independent implementations: jose (with the
// `canonicalize` RFC 8785 package) for every variant and two hostnames, and
// @a2a-js/sdk's verifyAgentCardSignature for the 1.0 card (its payload leaves
// out a 0.3 card's `url`, so it must refuse the 0.3-shaped ones), on the built
// worker in workerd. Every URL of every variant is changed to check that no
// verifier accepts the result.
import { dirname, join } from "node:path";
import { verifyAgentCardSignature } from "@a2a-js/sdk";
import canonicalize from "canonicalize";
import * as jose from "jose";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { wranglerCompatibilityDate } from "../../bench/lib";
import { builtBundle } from "../support/built-bundle";
import { run } from "../support/processes";
import { schemaErrors } from "../support/schemas";

const HOSTS = ["https://agents.example.com", "https://eu.agents.example.net"];
const VARIANTS: { name: string; path: string; headers: Record<string, string>; validate: (card: unknown) => string[] }[] = [
  { name: "v1", path: "/.well-known/agent-card.json", headers: { "A2A-Version": "1.0" }, validate: schemaErrors.v1Card },
  { name: "v0.3", path: "/.well-known/agent-card.json", headers: { "A2A-Version": "0.3" }, validate: schemaErrors.v03Card },
  { name: "hybrid", path: "/.well-known/agent-card.json", headers: {}, validate: schemaErrors.v03Card },
  { name: "legacy", path: "/.well-known/agent.json", headers: {}, validate: schemaErrors.v03Card },
];

type Card = Record<string, unknown> & { signatures?: { protected: string; signature: string; header?: object }[] };

/** Paths of every absolute URL in a card (interfaces, provider, docs, icon, OAuth endpoints, extension URIs). */
function urlPaths(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (typeof value === "string") return /^https?:\/\//.test(value) ? [path] : [];
  if (Array.isArray(value)) return value.flatMap((item, i) => urlPaths(item, [...path, i]));
  if (typeof value === "object" && value !== null) {
    return Object.entries(value).flatMap(([key, item]) => (key === "signatures" ? [] : urlPaths(item, [...path, key])));
  }
  return [];
}

/** A deep copy of `card` with the string at `path` moved to another host. */
function movedAt(card: Card, path: (string | number)[]): Card {
  const copy = structuredClone(card) as Record<string | number, any>;
  let holder = copy;
  for (const key of path.slice(0, -1)) holder = holder[key];
  const last = path[path.length - 1]!;
  holder[last] = String(holder[last]).replace(/^https?:\/\/[^/]+/, "https://evil.example");
  return copy as Card;
}

/** `npm run keys` output -> the private JWK it tells the operator to store. */
async function generatedKey(alg: string): Promise<string> {
  const { code, stdout } = await run("node_modules/.bin/tsx", ["scripts/keys.ts", "--alg", alg, "--kid", `test-${alg}`]);
  expect(code).toBe(0);
  const match = stdout.match(/^echo '(\{.*\})' \| npx wrangler secret put CARD_SIGNING_KEY$/m);
  expect(match).not.toBeNull();
  expect(stdout).toContain("npx wrangler secret put CARD_SIGNING_PUBLIC_KEYS");
  return match![1]!;
}

// This run's build, around the sample card (test/support/bundle-setup.ts).
const bundleDir = dirname(builtBundle().path);
beforeAll(() => {
  // The SDK's verifier logs each signature entry it could not use (console.debug).
  vi.spyOn(console, "debug").mockImplementation(() => {});
});

describe.each(["ES256", "EdDSA"])("cards signed with %s", (alg) => {
  let mf: Miniflare;
  let privateJwk: string;
  const rotatedOut = { kty: "OKP", crv: "Ed25519", x: "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo", kid: "old-key" };

  beforeAll(async () => {
    privateJwk = await generatedKey(alg);
    mf = new Miniflare(
      convertV4MiniflareOptions({
        modules: true,
        scriptPath: join(bundleDir, "index.js"),
        modulesRoot: bundleDir,
        compatibilityDate: wranglerCompatibilityDate(),
        kvNamespaces: ["SKILLS"],
        bindings: {
          CARD_SIGNING_KEY: privateJwk,
          CARD_SIGNING_PUBLIC_KEYS: JSON.stringify([rotatedOut]),
          HOST_ALLOWLIST: HOSTS.map((h) => new URL(h).hostname).join(","),
        },
      }),
    );
    await mf.ready;
  });
  afterAll(() => mf?.dispose());

  const get = async (url: string, headers: Record<string, string> = {}) => {
    const response = await mf.dispatchFetch(url, { headers });
    expect(response.status).toBe(200);
    return (await response.json()) as Card;
  };
  /** Keys are fetched from the card's own `jku`, through the worker. */
  const retrieveKey = async (kid: string, jku?: string) => {
    const jwks = (await get(jku!)) as unknown as { keys: jose.JWK[] };
    const jwk = jwks.keys.find((k) => k.kid === kid);
    if (!jwk) throw new Error(`no key ${kid} at ${jku}`);
    return (await jose.importJWK(jwk, jwk.alg)) as CryptoKey;
  };
  /**
   * The SDK's verifier, typed as what it takes: its parameter type is its
   * in-memory (ts-proto) AgentCard, yet it is handed and reads the card's JSON.
   */
  const sdkVerify = verifyAgentCardSignature(retrieveKey) as (card: unknown) => Promise<void>;
  const joseVerify = async (card: Card) => {
    const { signatures, ...unsigned } = card;
    const payload = jose.base64url.encode(canonicalize(unsigned)!);
    const signature = signatures![0]!;
    const header = jose.decodeProtectedHeader(signature);
    return jose.flattenedVerify(
      { payload, protected: signature.protected, signature: signature.signature },
      await retrieveKey(header.kid!, header.jku),
    );
  };

  for (const host of HOSTS) {
    for (const variant of VARIANTS) {
      const sdkVerifies = variant.name === "v1";
      it(`${variant.name} card on ${new URL(host).host}: valid, verified by jose, ${sdkVerifies ? "and" : "refused"} by @a2a-js/sdk`, async () => {
        const card = await get(host + variant.path, variant.headers);
        expect(variant.validate(card)).toEqual([]);
        expect(card.signatures!.length).toBeGreaterThanOrEqual(1);
        const header = jose.decodeProtectedHeader(card.signatures![0]!);
        expect(header).toEqual({ alg, kid: `test-${alg}`, typ: "JOSE", jku: `${host}/.well-known/jwks.json` });
        await expect(joseVerify(card)).resolves.toBeTruthy();
        const sdk = sdkVerify(card);
        if (sdkVerifies) await expect(sdk).resolves.toBeUndefined();
        else await expect(sdk).rejects.toThrow(/No valid signatures/);
      });
    }
  }

  it("a card with any URL moved to another host, or renamed, verifies with neither verifier, in every variant", async () => {
    let tried = 0;
    for (const variant of VARIANTS) {
      const card = await get(HOSTS[0] + variant.path, variant.headers);
      const paths = urlPaths(card);
      // The bundled card has URLs in interfaces, provider, docs, icon, OAuth and extensions.
      expect(paths.length).toBeGreaterThanOrEqual(7);
      for (const tampered of [{ ...card, name: "Evil Twin" }, ...paths.map((path) => movedAt(card, path))]) {
        tried++;
        await expect(sdkVerify(tampered)).rejects.toThrow(/No valid signatures/);
        await expect(joseVerify(tampered)).rejects.toThrow();
      }
    }
    expect(tried).toBeGreaterThan(30);
    // A card from one host does not verify as another host's (jku and URLs are signed).
    const a = await get(`${HOSTS[0]}/.well-known/agent-card.json`, { "A2A-Version": "1.0" });
    const b = await get(`${HOSTS[1]}/.well-known/agent-card.json`, { "A2A-Version": "1.0" });
    await expect(joseVerify({ ...a, signatures: b.signatures })).rejects.toThrow();
  });

  it("serves the JWKS with the signing key's public part and the rotated-out key, cacheable", async () => {
    const response = await mf.dispatchFetch(`${HOSTS[0]}/.well-known/jwks.json`);
    expect(response.headers.get("cache-control")).toMatch(/^public, max-age=\d+$/);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    const { keys } = (await response.json()) as { keys: Record<string, unknown>[] };
    expect(keys.map((k) => k.kid)).toEqual([`test-${alg}`, "old-key"]);
    for (const key of keys) expect(key).not.toHaveProperty("d");
    expect(JSON.stringify(keys)).not.toContain(JSON.parse(privateJwk).d);
  });
});
