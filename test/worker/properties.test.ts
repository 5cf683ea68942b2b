// Hostile input, property-based (fast-check), inside workerd.
import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { buildCard, CARD_VARIANTS } from "../../src/card/render";
import { parseCardSource } from "../../src/card/source";
import { CONFIG_VARIABLES, parseConfig } from "../../src/config";
import { validateRpcRequest } from "../../src/rpc/validate";
import bundled from "../../skills.json";
import { nullPaths, schemaErrors } from "../support/schemas";
import { callVia, CARD, fakeOrigin, makeEnv } from "../support/worker";

const RUNS = { numRuns: 150 };
afterEach(() => vi.restoreAllMocks());

// ---- documents ----

const text = fc.string({ minLength: 1, maxLength: 40, unit: "grapheme" });
const url = fc.webUrl({ withQueryParameters: true, withFragments: false }).filter((u) => /^https?:/.test(u));
const mediaType = fc.constantFrom("text/plain", "application/json", "image/png", "text/calendar", "application/vnd.acme+json");
const scopes = fc.dictionary(fc.string({ minLength: 1, maxLength: 10 }), fc.string({ maxLength: 20 }), { maxKeys: 3 });
const scheme = fc.oneof(
  fc.record({ type: fc.constant("apiKey"), in: fc.constantFrom("header", "query", "cookie"), name: text }, { requiredKeys: ["type", "in", "name"] }),
  fc.record({ type: fc.constant("http"), scheme: fc.constantFrom("bearer", "basic"), bearerFormat: text, description: text }, { requiredKeys: ["type", "scheme"] }),
  fc.record({ type: fc.constant("openIdConnect"), openIdConnectUrl: url }),
  fc.record({ type: fc.constant("mutualTLS"), description: text }, { requiredKeys: ["type"] }),
  fc.record({
    type: fc.constant("oauth2"),
    flows: fc.oneof(
      fc.record({ clientCredentials: fc.record({ tokenUrl: url, scopes }) }),
      fc.record({ authorizationCode: fc.record({ authorizationUrl: url, tokenUrl: url, scopes, pkceRequired: fc.boolean() }, { requiredKeys: ["authorizationUrl", "tokenUrl", "scopes"] }) }),
      fc.record({ deviceCode: fc.record({ deviceAuthorizationUrl: url, tokenUrl: url, scopes }) }),
    ),
  }),
);

/** Documents the schema should accept: optional fields present or not, unicode everywhere. */
const documentArb = fc
  .record(
    {
      name: text,
      description: text,
      version: text,
      provider: fc.record({ organization: text, url }),
      documentationUrl: url,
      iconUrl: url,
      capabilities: fc.record(
        {
          streaming: fc.boolean(),
          pushNotifications: fc.boolean(),
          stateTransitionHistory: fc.boolean(),
          extendedAgentCard: fc.boolean(),
          extensions: fc.array(fc.record({ uri: url, description: text, required: fc.boolean(), params: fc.dictionary(fc.string(), fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.array(fc.string(), { maxLength: 2 }))) }, { requiredKeys: ["uri"] }), { maxLength: 2 }),
        },
        { requiredKeys: [] },
      ),
      defaultInputModes: fc.array(mediaType, { minLength: 1, maxLength: 3 }),
      defaultOutputModes: fc.array(mediaType, { minLength: 1, maxLength: 3 }),
      securitySchemes: fc.dictionary(fc.constantFrom("a", "b", "c"), scheme, { maxKeys: 3 }),
      skills: fc.uniqueArray(
        fc.record(
          {
            name: text,
            id: fc.stringMatching(/^[A-Za-z0-9_-]{1,12}$/),
            description: text,
            tags: fc.array(text, { minLength: 1, maxLength: 3 }),
            examples: fc.array(fc.string({ maxLength: 30 }), { maxLength: 3 }),
            inputModes: fc.array(mediaType, { minLength: 1, maxLength: 2 }),
            outputModes: fc.array(mediaType, { minLength: 1, maxLength: 2 }),
          },
          { requiredKeys: ["name"] },
        ),
        { maxLength: 6, selector: (s) => s.name, comparator: "SameValue" },
      ),
    },
    { requiredKeys: [] },
  )
  .map((doc) => {
    // Requirements may only name declared schemes, and explicit ids must be unique.
    const names = Object.keys(doc.securitySchemes ?? {});
    const ids = new Set<string>();
    const skills = doc.skills?.map((s) => {
      if (s.id === undefined || ids.has(s.id)) {
        const { id: _id, ...rest } = s;
        return rest;
      }
      ids.add(s.id);
      return s;
    });
    return { ...doc, ...(skills ? { skills } : {}), ...(names.length ? { security: [Object.fromEntries(names.map((n) => [n, []]))] } : {}) };
  });

const hostname = fc.domain();

describe("documents", () => {
  it("any accepted document renders, for every variant and any hostname, a schema-valid card without null", () => {
    fc.assert(
      fc.property(documentArb, hostname, fc.constantFrom("/", "/a2a", "/x/y"), (doc, host, rpcPath) => {
        const parsed = parseCardSource(doc);
        if (!parsed.ok) throw new Error(`generated document rejected: ${JSON.stringify(parsed.issues)}`);
        for (const variant of CARD_VARIANTS) {
          const card = buildCard(parsed.value, { rpcUrl: `https://${host}${rpcPath}`, protocolVersions: ["1.0", "0.3"] }, variant);
          expect(nullPaths(card)).toEqual([]);
          expect(variant === "v1" ? schemaErrors.v1Card(card) : schemaErrors.v03Card(card)).toEqual([]);
        }
      }),
      RUNS,
    );
  });

  it("any JSON value the schema accepts renders valid cards too; parsing never throws", () => {
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), fc.object({ values: [fc.jsonValue()] })), (value) => {
        const parsed = parseCardSource(value);
        if (!parsed.ok) return;
        for (const variant of CARD_VARIANTS) {
          // Without 0.3 served, every variant is the strict 1.0 card.
          const card = buildCard(parsed.value, { rpcUrl: "https://a.example.com/", protocolVersions: ["1.0"] }, variant);
          expect(schemaErrors.v1Card(card)).toEqual([]);
        }
      }),
      RUNS,
    );
  });

  it("a document the schema rejects is never served: the card falls back", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const rejected = fc.oneof(
      fc.jsonValue().filter((v) => !parseCardSource(v).ok),
      documentArb.map((doc) => ({ ...doc, name: "" })),
      documentArb.map((doc) => ({ ...doc, skills: [{ name: "dup" }, { name: "dup" }] })),
      fc.string().map((s) => `{${s}`),
    );
    await fc.assert(
      fc.asyncProperty(rejected, async (value) => {
        const stored = typeof value === "string" ? value : JSON.stringify(value);
        const kv = { get: async () => stored } as unknown as KVNamespace;
        const origin = fakeOrigin(() => new Response("unused"));
        const response = await callVia(origin, `https://victim.example.com${CARD}`, {}, makeEnv({ SKILLS: kv }));
        expect(response.status).toBe(200);
        expect(((await response.json()) as { name: string }).name).toBe(bundled.name);
      }),
      { numRuns: 60 },
    );
  });
});

describe("configuration", () => {
  it("never throws on arbitrary strings or JSON values, and names the variable on error", () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.constantFrom(...CONFIG_VARIABLES), fc.oneof(fc.string({ maxLength: 200 }), fc.string({ unit: "binary", maxLength: 200 }), fc.jsonValue())),
        (env) => {
          const parsed = parseConfig(env);
          if (!parsed.ok) for (const issue of parsed.issues) expect(CONFIG_VARIABLES).toContain(issue.path);
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe("the JSON-RPC validator", () => {
  const bytes = (s: string) => new TextEncoder().encode(s);

  it("never throws on arbitrary bytes and always answers a valid verdict", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 512 }), (body) => {
        const verdict = validateRpcRequest(body);
        if (!verdict.ok) expect([-32700, -32600]).toContain(verdict.error.code);
      }),
      { numRuns: 500 },
    );
  });

  it("classifies arbitrary JSON: a forward only for a well-formed envelope", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const verdict = validateRpcRequest(bytes(JSON.stringify(value)));
        const v = value as Record<string, unknown>;
        const wellFormed =
          typeof value === "object" && value !== null && !Array.isArray(value) && v.jsonrpc === "2.0" && typeof v.method === "string" && v.method !== "" && "id" in v &&
          (v.id === null || typeof v.id === "string" || typeof v.id === "number") && (!("params" in v) || (typeof v.params === "object" && v.params !== null));
        expect(verdict.ok).toBe(wellFormed);
      }),
      { numRuns: 500 },
    );
  });

  it.each([
    ["10k levels of nesting", `{"jsonrpc":"2.0","id":1,"method":"m","params":${"[".repeat(10_000)}${"]".repeat(10_000)}}`, true],
    ["unbalanced 10k nesting", "[".repeat(10_000), false],
    ["a 2 MB string", `{"jsonrpc":"2.0","id":1,"method":"m","params":{"s":"${"x".repeat(2_000_000)}"}}`, true],
    ["duplicate keys (refused: the origin's parser may keep the other one)", '{"jsonrpc":"1.0","jsonrpc":"2.0","id":1,"method":"a","method":"m"}', false],
    ["id at the number edge", `{"jsonrpc":"2.0","id":${Number.MAX_SAFE_INTEGER}9,"method":"m"}`, true],
    ["an id that overflows to Infinity", '{"jsonrpc":"2.0","id":1e400,"method":"m"}', false],
    ["negative zero and exponents", '{"jsonrpc":"2.0","id":-0e-0,"method":"m","params":[1e308,-1e-324]}', true],
    ["a lone surrogate escape", '{"jsonrpc":"2.0","id":"\\ud800","method":"m"}', true],
    ["a NUL in the method", '{"jsonrpc":"2.0","id":1,"method":"m\\u0000"}', true],
    ["a BOM", "\ufeff{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\"}", true],
  ])("handles %s", (_name, body, ok) => {
    expect(validateRpcRequest(bytes(body)).ok).toBe(ok);
  });

  it("answers invalid UTF-8 with -32700", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 64 }), fc.constantFrom(0x80, 0xc0, 0xff, 0xfe), (prefix, bad) => {
        const body = new Uint8Array([...bytes('{"jsonrpc":"2.0","id":1,"method":"'), bad, ...prefix, ...bytes('"}')]);
        const verdict = validateRpcRequest(body);
        if (!verdict.ok && verdict.error.code === -32700) return;
        // Only valid UTF-8 continuations could make it through; then it must still be well-formed.
        expect(verdict.ok || verdict.error.code === -32600).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});

describe("the worker under hostile requests", () => {
  it("never answers 5xx and always answers JSON-RPC envelopes or forwards, for arbitrary bodies and content types", async () => {
    const origin = fakeOrigin(async (req) => Response.json({ jsonrpc: "2.0", id: null, result: { bytes: (await req.arrayBuffer()).byteLength } }));
    const workerEnv = makeEnv({ ORIGIN_URL: "http://10.0.0.1/", MAX_BODY_BYTES: "4096" });
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.uint8Array({ maxLength: 6000 }), fc.jsonValue().map((v) => new TextEncoder().encode(JSON.stringify(v)))),
        fc.constantFrom("application/json", "application/json; charset=utf-8", "text/plain", "application/x-www-form-urlencoded"),
        async (body, contentType) => {
          const response = await callVia(origin, "https://agents.example.com/", { method: "POST", headers: { "content-type": contentType }, body }, workerEnv);
          expect(response.status).toBeLessThan(500);
          const reply = (await response.json()) as Record<string, unknown>;
          expect(reply.jsonrpc).toBe("2.0");
          expect("result" in reply || "error" in reply).toBe(true);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("never builds the card from untrusted forwarding headers (cache poisoning)", async () => {
    const origin = fakeOrigin(() => new Response("unused"));
    const workerEnv = makeEnv();
    const baseline = await (await callVia(origin, `https://agents.example.com${CARD}`, {}, workerEnv)).text();
    const headerValue = fc.oneof(fc.domain(), fc.string({ maxLength: 300 }).filter((s) => /^[\t\x20-\x7e]*$/.test(s)), fc.constant("x".repeat(8000)));
    await fc.assert(
      fc.asyncProperty(headerValue, headerValue, headerValue, async (host, proto, forwarded) => {
        const headers = { "X-Forwarded-Host": host, "X-Forwarded-Proto": proto, Forwarded: `host=${forwarded}`, "X-Forwarded-Prefix": `/${proto}` };
        const response = await callVia(origin, `https://agents.example.com${CARD}`, { headers }, workerEnv);
        expect(await response.text()).toBe(baseline);
      }),
      { numRuns: 60 },
    );
  });

  it("never pairs a reflected origin with credentials", async () => {
    const origin = fakeOrigin(() => Response.json({ jsonrpc: "2.0", id: 1, result: {} }));
    for (const env of [makeEnv({ ORIGIN_URL: "http://10.0.0.1/" }), makeEnv({ ORIGIN_URL: "http://10.0.0.1/", CORS_ALLOWED_ORIGINS: "https://ui.example" })]) {
      await fc.assert(
        fc.asyncProperty(fc.oneof(fc.webUrl(), fc.constant("https://ui.example"), fc.constant("null")), async (requestOrigin) => {
          const inits: RequestInit[] = [
            { headers: { Origin: requestOrigin, Cookie: "a=b" } },
            { method: "POST", headers: { Origin: requestOrigin, "content-type": "application/json" }, body: '{"jsonrpc":"2.0","id":1,"method":"m"}' },
            { method: "OPTIONS", headers: { Origin: requestOrigin, "Access-Control-Request-Method": "POST" } },
          ];
          for (const init of inits) {
            const path = init.method ? "/" : CARD;
            const response = await callVia(origin, `https://agents.example.com${path}`, init, env);
            expect(response.headers.get("access-control-allow-credentials")).toBeNull();
            const allowed = response.headers.get("access-control-allow-origin");
            if (allowed !== null && allowed !== "*") expect(allowed).toBe("https://ui.example");
          }
        }),
        { numRuns: 20 },
      );
    }
  });
});
