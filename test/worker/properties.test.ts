// Hostile input, property-based (fast-check), inside workerd.
// Generators (test/support/arbitraries.ts) mix well-formed inputs, targeted
// mutations of them with the exact verdict expected, and noise; every property
// counts what it saw and asserts that the accept path was reached (the shares
// are attached to each test as an annotation: `--reporter=verbose` prints them).
import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { validateRpcRequest } from "../../src/bindings/jsonrpc-envelope";
import { EXTENDED_CARD_METHODS } from "../../src/call/extended-card";
import { buildCard } from "../../src/card/build-card";
import { readCardInput, readCardInputText } from "../../src/card/intake";
import { parseCardSource } from "../../src/card/source";
import { CARD_VARIANTS } from "../../src/card/variant";
import { CONFIG_VARIABLES, parseConfig } from "../../src/config";
import { FAILURES } from "../../src/errors/failures";
import bundled from "../fixtures/sample-card.json";
import {
  documentArb,
  documentFeatures,
  expectedVerdict,
  invalidUtf8Arb,
  mutatedDocumentArb,
  type RpcCase,
  rpcCaseArb,
  rpcRequestArb,
  Tally,
  type Verdict,
  withInvalidUtf8,
} from "../support/arbitraries";
import { captureConsole } from "../support/console";
import { nullPaths, schemaErrors } from "../support/schemas";
import { CARD, callVia, documentsKv, fakeOrigin, makeEnv } from "../support/worker";

const RUNS = { numRuns: 150 };
afterEach(() => vi.restoreAllMocks());

const hostname = fc.domain();

/** Every property must reach its accept path in a meaningful share of runs. */
const MIN_ACCEPT_SHARE = 0.3;

describe("documents", () => {
  it("any accepted document renders, for every variant and any hostname, a schema-valid card without null", async ({ annotate }) => {
    const tally = new Tally();
    fc.assert(
      fc.property(documentArb, hostname, fc.constantFrom("/", "/a2a", "/x/y"), (doc, host, rpcPath) => {
        const features = documentFeatures(doc);
        tally.add(
          ...Object.entries(features)
            .filter(([, on]) => on)
            .map(([name]) => `with ${name}`),
        );
        const parsed = parseCardSource(doc);
        if (!parsed.ok) throw new Error(`generated document rejected: ${JSON.stringify(parsed.issues)}`);
        for (const variant of CARD_VARIANTS) {
          const card = buildCard(parsed.value, { rpcUrl: `https://${host}${rpcPath}`, protocolVersions: ["1.0", "0.3"] }, variant);
          expect(nullPaths(card)).toEqual([]);
          expect(variant === "v1" ? schemaErrors.v1Card(card) : schemaErrors.v03Card(card)).toEqual([]);
          expect(card.skills).toHaveLength(parsed.value.skills.length);
        }
      }),
      RUNS,
    );
    await annotate(tally.toString(), "shares");
    for (const feature of ["with skills", "with schemes", "with extensions"])
      expect(tally.share(feature), tally.toString()).toBeGreaterThanOrEqual(MIN_ACCEPT_SHARE);
  });

  it("accepts valid documents, refuses each targeted defect at its path, and never throws on arbitrary JSON", async ({ annotate }) => {
    const tally = new Tally();
    const input = fc.oneof(
      { weight: 5, arbitrary: documentArb.map((value) => ({ kind: "valid", value, path: undefined })) },
      { weight: 4, arbitrary: mutatedDocumentArb },
      {
        weight: 1,
        arbitrary: fc
          .oneof(fc.jsonValue(), fc.object({ values: [fc.jsonValue()] }))
          .map((value) => ({ kind: "arbitrary JSON", value, path: undefined })),
      },
    );
    fc.assert(
      fc.property(input, ({ kind, value, path }) => {
        const parsed = parseCardSource(value);
        const trivial = documentFeatures(value).trivial;
        tally.add(
          kind === "valid" || kind === "arbitrary JSON" ? kind : "mutated",
          ...(parsed.ok ? [trivial ? "accepted {}" : "accepted non-trivial"] : []),
        );
        if (kind === "valid") expect(parsed.ok, JSON.stringify(parsed)).toBe(true);
        if (path !== undefined) {
          // A mutation of a valid document: refused, and the issue names the defect.
          expect(parsed.ok, kind).toBe(false);
          if (!parsed.ok)
            expect(
              parsed.issues.map((i) => i.path),
              kind,
            ).toContain(path);
        }
        if (!parsed.ok) return;
        for (const variant of CARD_VARIANTS) {
          // Without 0.3 served, every variant is the strict 1.0 card.
          const card = buildCard(parsed.value, { rpcUrl: "https://a.example.com/", protocolVersions: ["1.0"] }, variant);
          expect(schemaErrors.v1Card(card)).toEqual([]);
        }
      }),
      { numRuns: 300 },
    );
    await annotate(tally.toString(), "shares");
    expect(tally.share("accepted non-trivial"), tally.toString()).toBeGreaterThanOrEqual(MIN_ACCEPT_SHARE);
    expect(tally.share("mutated"), tally.toString()).toBeGreaterThanOrEqual(0.2);
  });

  it("a value card intake refuses is never served, and no other document answers for its host: 503", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const rejected = fc.oneof(
      mutatedDocumentArb.map((m) => m.value).filter((v) => !readCardInput(v).ok),
      fc.jsonValue().filter((v) => !readCardInput(v).ok),
      // Text that starts an object but is not a valid document ("{" + "}" would be `{}`, a valid one).
      fc
        .string()
        .map((s) => `{${s}`)
        .filter((text) => !readCardInputText(text).ok),
    );
    await fc.assert(
      fc.asyncProperty(rejected, async (value) => {
        const stored = typeof value === "string" ? value : JSON.stringify(value);
        const kv = documentsKv({ default: stored, "victim.example.com": stored });
        const origin = fakeOrigin(() => new Response("unused"));
        const response = await callVia(origin, `https://victim.example.com${CARD}`, {}, makeEnv({ SKILLS: kv }));
        expect(response.status).toBe(503);
        expect(await response.text()).not.toContain(bundled.name);
      }),
      { numRuns: 60 },
    );
  });

  it("a valid document in KV is served (control for the refusal above)", async () => {
    await fc.assert(
      fc.asyncProperty(
        documentArb.filter((d) => typeof d.name === "string"),
        async (doc) => {
          const kv = documentsKv({ default: doc, "victim.example.com": doc });
          const response = await callVia(
            fakeOrigin(() => new Response("unused")),
            `https://victim.example.com${CARD}`,
            {},
            makeEnv({ SKILLS: kv }),
          );
          expect(response.status).toBe(200);
          expect(((await response.json()) as { name: string }).name).toBe(doc.name);
        },
      ),
      { numRuns: 30 },
    );
  });
});

describe("configuration", () => {
  it("never throws on arbitrary strings or JSON values, and names the variable on error", () => {
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.constantFrom(...CONFIG_VARIABLES),
          fc.oneof(fc.string({ maxLength: 200 }), fc.string({ unit: "binary", maxLength: 200 }), fc.jsonValue()),
        ),
        (env) => {
          const parsed = parseConfig(env);
          if (!parsed.ok) for (const issue of parsed.issues) expect(CONFIG_VARIABLES).toContain(issue.path);
        },
      ),
      { numRuns: 400 },
    );
  });
});

/** The verdict for raw bytes, decided in the test: strict UTF-8 (a BOM is dropped), JSON, then the envelope. */
function verdictOfBytes(body: Uint8Array): Verdict {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(body);
  } catch {
    return { ok: false, code: -32700, id: null };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, code: -32700, id: null };
  }
  return expectedVerdict(value);
}

function verdictOf(result: ReturnType<typeof validateRpcRequest>): Verdict {
  return result.ok
    ? { ok: true, id: result.call.id, method: result.call.method }
    : { ok: false, code: FAILURES[result.failure.reason].code as -32700, id: result.id };
}

describe("the JSON-RPC validator", () => {
  const bytes = (s: string) => new TextEncoder().encode(s);

  it("answers arbitrary bytes with exactly the verdict of strict UTF-8 + JSON + the envelope rules, without throwing", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 512 }), (body) => {
        expect(verdictOf(validateRpcRequest(body))).toEqual(verdictOfBytes(body));
      }),
      { numRuns: 500 },
    );
  });

  it("forwards exactly the well-formed requests and gives every defect its code and id", async ({ annotate }) => {
    const tally = new Tally();
    fc.assert(
      fc.property(rpcCaseArb, (c: RpcCase) => {
        const verdict = verdictOf(validateRpcRequest(c.bytes));
        tally.add(`kind:${c.kind}`, verdict.ok ? "accepted" : `refused ${verdict.code}`);
        // METHOD_ALLOWLIST is a policy of the call (every binding), not of the JSON-RPC envelope: checked
        // through the worker below; the validator accepts the envelope of a method outside it.
        const envelopeVerdict =
          c.allowlist && !c.expected.ok && c.expected.code === -32601
            ? { ok: true, id: c.expected.id, method: (JSON.parse(new TextDecoder().decode(c.bytes)) as { method: string }).method }
            : c.expected;
        expect(verdict, c.kind).toEqual(envelopeVerdict);
      }),
      { numRuns: 1000 },
    );
    await annotate(tally.toString(), "shares");
    expect(tally.share("accepted"), tally.toString()).toBeGreaterThanOrEqual(MIN_ACCEPT_SHARE);
    for (const code of [-32700, -32600]) expect(tally.count(`refused ${code}`), tally.toString()).toBeGreaterThan(0);
  });

  it.each([
    ["10k levels of nesting", `{"jsonrpc":"2.0","id":1,"method":"m","params":${"[".repeat(10_000)}${"]".repeat(10_000)}}`, true],
    ["unbalanced 10k nesting", "[".repeat(10_000), false],
    ["a 2 MB string", `{"jsonrpc":"2.0","id":1,"method":"m","params":{"s":"${"x".repeat(2_000_000)}"}}`, true],
    [
      "duplicate keys (refused: the origin's parser may keep the other one)",
      '{"jsonrpc":"1.0","jsonrpc":"2.0","id":1,"method":"a","method":"m"}',
      false,
    ],
    ["id at the number edge", `{"jsonrpc":"2.0","id":${Number.MAX_SAFE_INTEGER}9,"method":"m"}`, true],
    ["an id that overflows to Infinity", '{"jsonrpc":"2.0","id":1e400,"method":"m"}', false],
    ["negative zero and exponents", '{"jsonrpc":"2.0","id":-0e-0,"method":"m","params":[1e308,-1e-324]}', true],
    ["a lone surrogate escape", '{"jsonrpc":"2.0","id":"\\ud800","method":"m"}', true],
    ["a NUL in the method", '{"jsonrpc":"2.0","id":1,"method":"m\\u0000"}', true],
    ["a BOM", '\ufeff{"jsonrpc":"2.0","id":1,"method":"m"}', true],
  ])("handles %s", (_name, body, ok) => {
    expect(validateRpcRequest(bytes(body)).ok).toBe(ok);
  });

  it("answers invalid UTF-8 anywhere in a string of a well-formed request with -32700, and the same request without it is accepted", () => {
    fc.assert(
      fc.property(rpcRequestArb, invalidUtf8Arb, fc.nat({ max: 40 }), (request, bad, at) => {
        expect(validateRpcRequest(bytes(JSON.stringify(request))).ok).toBe(true);
        const verdict = validateRpcRequest(withInvalidUtf8(request, bad, at));
        expect(verdict).toMatchObject({ ok: false, id: null, failure: { reason: "PARSE_ERROR" } });
      }),
      { numRuns: 200 },
    );
  });
});

describe("the worker under hostile requests", () => {
  it("forwards exactly the accepted bodies, byte for byte, and answers every other body with its JSON-RPC error, never 5xx", async ({
    annotate,
  }) => {
    const logs = captureConsole();
    const MAX = 4096;
    const tally = new Tally();
    const origin = fakeOrigin(async (req) => {
      const body = new Uint8Array(await req.arrayBuffer());
      const { id } = JSON.parse(new TextDecoder().decode(body)) as { id: unknown };
      return Response.json({ jsonrpc: "2.0", id, result: { bytes: body.byteLength } });
    });
    const envs = new Map<string, Env>();
    const envFor = (allowlist: string[] | undefined) => {
      const key = allowlist?.join(",") ?? "";
      if (!envs.has(key))
        envs.set(
          key,
          makeEnv({
            EDGE_AUTH: "off",
            ORIGIN_URL: "http://10.0.0.1/",
            MAX_BODY_BYTES: String(MAX),
            ...(allowlist ? { METHOD_ALLOWLIST: key } : {}),
          }),
        );
      return envs.get(key)!;
    };
    const body = fc.oneof(
      {
        weight: 3,
        arbitrary: rpcRequestArb.map(
          (r): RpcCase => ({
            kind: "well-formed",
            bytes: new TextEncoder().encode(JSON.stringify(r)),
            expected: { ok: true, id: r.id, method: r.method },
          }),
        ),
      },
      { weight: 6, arbitrary: rpcCaseArb },
      {
        weight: 1,
        arbitrary: fc
          .uint8Array({ maxLength: 6000 })
          .map((bytes): RpcCase => ({ kind: "random bytes", bytes, expected: verdictOfBytes(bytes) })),
      },
    );
    const contentType = fc.oneof(
      { weight: 9, arbitrary: fc.constantFrom("application/json", "application/json; charset=utf-8", "Application/JSON") },
      { weight: 1, arbitrary: fc.constantFrom("text/plain", "application/x-www-form-urlencoded", "application/jsonp") },
    );
    await fc.assert(
      fc.asyncProperty(body, contentType, async (c, type) => {
        const before = origin.bodies.length;
        const response = await callVia(
          origin,
          "https://agents.example.com/",
          { method: "POST", headers: { "content-type": type }, body: c.bytes },
          envFor(c.allowlist),
        );
        const reply = (await response.json()) as { jsonrpc: string; id: unknown; result?: { bytes: number }; error?: { code: number } };
        expect(reply.jsonrpc).toBe("2.0");
        const forwarded = origin.bodies.slice(before);
        if (type.split(";")[0]!.toLowerCase() !== "application/json") {
          tally.add("refused 415");
          expect(response.status).toBe(415);
          expect(reply).toMatchObject({ id: null, error: { code: -32600 } });
          expect(forwarded).toHaveLength(0);
        } else if (c.bytes.byteLength > MAX) {
          tally.add("refused 413");
          expect(response.status).toBe(413);
          expect(reply).toMatchObject({ id: null, error: { code: -32600 } });
          expect(forwarded).toHaveLength(0);
        } else if (c.expected.ok && EXTENDED_CARD_METHODS.has(c.expected.method)) {
          // In every EDGE_AUTH mode the extended card goes to an authenticated caller only.
          tally.add("refused 401");
          expect(response.status, c.kind).toBe(401);
          expect(reply).toMatchObject({ id: c.expected.id, error: { code: -32600 } });
          expect(forwarded).toHaveLength(0);
        } else if (c.expected.ok) {
          tally.add("forwarded");
          expect(response.status, c.kind).toBe(200);
          // A BOM is not part of JSON text (RFC 8259 §8.1): the edge drops it.
          const bom = c.bytes[0] === 0xef && c.bytes[1] === 0xbb && c.bytes[2] === 0xbf;
          expect(forwarded, c.kind).toEqual([bom ? c.bytes.subarray(3) : c.bytes]);
          expect(reply).toEqual({ jsonrpc: "2.0", id: c.expected.id, result: { bytes: forwarded[0]!.byteLength } });
        } else {
          tally.add(`refused ${c.expected.code}`);
          expect(response.status, c.kind).toBe(200);
          expect(reply, c.kind).toMatchObject({ id: c.expected.id, error: { code: c.expected.code } });
          expect(forwarded, c.kind).toHaveLength(0);
        }
      }),
      { numRuns: 300 },
    );
    await annotate(tally.toString(), "shares");
    expect(tally.share("forwarded"), tally.toString()).toBeGreaterThanOrEqual(MIN_ACCEPT_SHARE);
    // The bundled card's schemes have no verifier configured: an extended-card call says so, once per scheme and isolate.
    const unverifiable = logs
      .events()
      .filter((e) => e.event !== "access")
      .map((e) => `${e.level} ${e.event} ${e.scheme}`);
    const extendedCardCalls = tally.count("refused 401");
    expect(new Set(unverifiable)).toEqual(
      new Set(extendedCardCalls > 0 ? ["error auth_scheme_unverifiable acmeBearer", "error auth_scheme_unverifiable acmeOAuth"] : []),
    );
    expect(unverifiable.length).toBeLessThanOrEqual(2 * envs.size);
  });

  it("never builds the card from untrusted forwarding headers (cache poisoning)", async () => {
    const origin = fakeOrigin(() => new Response("unused"));
    const workerEnv = makeEnv();
    const baseline = await (await callVia(origin, `https://agents.example.com${CARD}`, {}, workerEnv)).text();
    const headerValue = fc.oneof(
      fc.domain(),
      fc.string({ maxLength: 300 }).filter((s) => /^[\t\x20-\x7e]*$/.test(s)),
      fc.constant("x".repeat(8000)),
    );
    await fc.assert(
      fc.asyncProperty(headerValue, headerValue, headerValue, async (host, proto, forwarded) => {
        const headers = {
          "X-Forwarded-Host": host,
          "X-Forwarded-Proto": proto,
          Forwarded: `host=${forwarded}`,
          "X-Forwarded-Prefix": `/${proto}`,
        };
        const response = await callVia(origin, `https://agents.example.com${CARD}`, { headers }, workerEnv);
        expect(await response.text()).toBe(baseline);
      }),
      { numRuns: 60 },
    );
  });

  it("never pairs a reflected origin with credentials, and reflects only a listed origin", async () => {
    const origin = fakeOrigin(() => Response.json({ jsonrpc: "2.0", id: 1, result: {} }));
    const LISTED = "https://ui.example";
    for (const [env, listed] of [
      [makeEnv({ EDGE_AUTH: "off", ORIGIN_URL: "http://10.0.0.1/" }), false],
      [makeEnv({ EDGE_AUTH: "off", ORIGIN_URL: "http://10.0.0.1/", CORS_ALLOWED_ORIGINS: LISTED }), true],
    ] as const) {
      await fc.assert(
        fc.asyncProperty(fc.oneof(fc.webUrl(), fc.constant(LISTED), fc.constant("null")), async (requestOrigin) => {
          const inits: RequestInit[] = [
            { headers: { Origin: requestOrigin, Cookie: "a=b" } },
            {
              method: "POST",
              headers: { Origin: requestOrigin, "content-type": "application/json" },
              body: '{"jsonrpc":"2.0","id":1,"method":"m"}',
            },
            { method: "OPTIONS", headers: { Origin: requestOrigin, "Access-Control-Request-Method": "POST" } },
          ];
          for (const init of inits) {
            const path = init.method ? "/" : CARD;
            const response = await callVia(origin, `https://agents.example.com${path}`, init, env);
            expect(response.headers.get("access-control-allow-credentials")).toBeNull();
            // The card is public: `*`. The RPC endpoint: `*`, or with a list, the request's origin only when listed.
            const expected = path === CARD || !listed ? "*" : requestOrigin === LISTED ? LISTED : null;
            expect(response.headers.get("access-control-allow-origin")).toBe(expected);
          }
        }),
        { numRuns: 20 },
      );
    }
  });
});
