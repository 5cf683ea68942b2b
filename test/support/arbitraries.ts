// Generators for the property tests (fast-check), pure so that they run inside
// workerd. Each family mixes inputs the code must accept (well-formed, and
// non-trivial), targeted mutations of those that it must refuse, each carrying
// the exact verdict expected, and arbitrary noise. A generator that almost never
// reaches the accept path tests nothing there: the tests count what they saw
// and assert the shares (see properties.test.ts).
import fc from "fast-check";
import { operationOfMethod } from "../../src/a2a/correspondence";

// ---- card-source documents ----

const text = fc.string({ minLength: 1, maxLength: 40, unit: "grapheme" });
/** Names a document may use: never a prototype link (the schema refuses those, see `reserved key name`). */
const RESERVED_KEYS = new Set(["__proto__", "constructor", "prototype"]);
const key = (constraints: fc.StringConstraints = {}) => fc.string(constraints).filter((k) => !RESERVED_KEYS.has(k));
const url = fc.webUrl({ withQueryParameters: true, withFragments: false }).filter((u) => /^https?:/.test(u));
const mediaType = fc.constantFrom("text/plain", "application/json", "image/png", "text/calendar", "application/vnd.acme+json");
const scopes = fc.dictionary(key({ minLength: 1, maxLength: 10 }), fc.string({ maxLength: 20 }), { maxKeys: 3 });
const scheme = fc.oneof(
  fc.record(
    { type: fc.constant("apiKey"), in: fc.constantFrom("header", "query", "cookie"), name: text, description: text },
    { requiredKeys: ["type", "in", "name"] },
  ),
  fc.record(
    { type: fc.constant("http"), scheme: fc.constantFrom("bearer", "basic"), bearerFormat: text, description: text },
    { requiredKeys: ["type", "scheme"] },
  ),
  fc.record({ type: fc.constant("openIdConnect"), openIdConnectUrl: url }),
  fc.record({ type: fc.constant("mutualTLS"), description: text }, { requiredKeys: ["type"] }),
  fc.record({
    type: fc.constant("oauth2"),
    flows: fc.oneof(
      fc.record({ clientCredentials: fc.record({ tokenUrl: url, scopes }) }),
      fc.record({
        authorizationCode: fc.record(
          { authorizationUrl: url, tokenUrl: url, scopes, pkceRequired: fc.boolean() },
          { requiredKeys: ["authorizationUrl", "tokenUrl", "scopes"] },
        ),
      }),
      fc.record({ deviceCode: fc.record({ deviceAuthorizationUrl: url, tokenUrl: url, scopes }) }),
      fc.record({
        implicit: fc.record({ authorizationUrl: url, refreshUrl: url, scopes }, { requiredKeys: ["authorizationUrl", "scopes"] }),
      }),
      fc.record({ password: fc.record({ tokenUrl: url, scopes }) }),
    ),
  }),
);
const extensionParams = fc.dictionary(key(), fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.array(fc.string(), { maxLength: 2 })), {
  maxKeys: 3,
});
const extension = fc.record({ uri: url, description: text, required: fc.boolean(), params: extensionParams }, { requiredKeys: ["uri"] });
const skill = fc.record(
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
);
const skills = (minLength: number) => fc.uniqueArray(skill, { minLength, maxLength: 6, selector: (s) => s.name, comparator: "SameValue" });

function documentFields(rich: boolean) {
  return {
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
        extensions: fc.array(extension, { minLength: rich ? 1 : 0, maxLength: 3 }),
      },
      { requiredKeys: rich ? ["extensions"] : [] },
    ),
    defaultInputModes: fc.array(mediaType, { minLength: 1, maxLength: 3 }),
    defaultOutputModes: fc.array(mediaType, { minLength: 1, maxLength: 3 }),
    securitySchemes: fc.dictionary(fc.constantFrom("a", "b", "c", "bearer", "oidc"), scheme, { minKeys: rich ? 1 : 0, maxKeys: 4 }),
    skills: skills(rich ? 1 : 0),
  };
}

type GeneratedDocument = Record<string, unknown> & {
  securitySchemes?: Record<string, unknown>;
  skills?: Record<string, unknown>[];
};

/** Requirements may only name declared schemes, and explicit ids must be unique. */
function consistent(doc: GeneratedDocument): GeneratedDocument {
  const names = Object.keys(doc.securitySchemes ?? {});
  const ids = new Set<string>();
  const skillList = doc.skills?.map((s, i) => {
    let out: Record<string, unknown> = s;
    if (typeof s.id === "string") {
      if (ids.has(s.id)) {
        const { id: _id, ...rest } = s;
        out = rest;
      } else ids.add(s.id);
    }
    // Every other skill requires one of the declared schemes.
    if (names.length > 0 && i % 2 === 1) out = { ...out, security: [{ [names[i % names.length]!]: [] }] };
    return out;
  });
  return {
    ...doc,
    ...(skillList ? { skills: skillList } : {}),
    ...(names.length ? { security: [Object.fromEntries(names.map((n) => [n, []]))] } : {}),
  };
}

/** Every field optional (sparse documents, down to `{}`). */
const sparseDocumentArb = fc.record(documentFields(false), { requiredKeys: [] }).map((d) => consistent(d as GeneratedDocument));
/** Skills, security schemes (and requirements) and extensions always present. */
const richDocumentArb = fc
  .record(documentFields(true), { requiredKeys: ["name", "capabilities", "securitySchemes", "skills"] })
  .map((d) => consistent(d as GeneratedDocument));
/** Documents the schema must accept: two in three are rich. */
export const documentArb = fc.oneof({ weight: 1, arbitrary: sparseDocumentArb }, { weight: 2, arbitrary: richDocumentArb });

/** What a generated document carries, for the share counters. */
export function documentFeatures(doc: unknown): { skills: boolean; schemes: boolean; extensions: boolean; trivial: boolean } {
  const d = (doc ?? {}) as GeneratedDocument & { capabilities?: { extensions?: unknown[] } };
  return {
    skills: (d.skills?.length ?? 0) > 0,
    schemes: Object.keys(d.securitySchemes ?? {}).length > 0,
    extensions: (d.capabilities?.extensions?.length ?? 0) > 0,
    trivial: typeof doc !== "object" || doc === null || Object.keys(doc).length === 0,
  };
}

export interface MutatedDocument {
  kind: string;
  value: unknown;
  /** The issue path the schema must report ("" = the document itself). */
  path: string;
}

const mutation = (kind: string, path: string, change: (doc: GeneratedDocument) => unknown) =>
  documentArb.map((doc): MutatedDocument => ({ kind, path, value: change(doc) }));

/** A valid document with one targeted defect: the schema must refuse it, naming `path`. */
export const mutatedDocumentArb: fc.Arbitrary<MutatedDocument> = fc.oneof(
  mutation("empty name", "name", (d) => ({ ...d, name: "" })),
  mutation("unknown key (typo)", "", (d) => ({ ...d, nmae: "typo" })),
  mutation("null instead of absent", "iconUrl", (d) => ({ ...d, iconUrl: null })),
  mutation("non-http URL", "documentationUrl", (d) => ({ ...d, documentationUrl: "javascript:alert(1)" })),
  mutation("empty input modes", "defaultInputModes", (d) => ({ ...d, defaultInputModes: [] })),
  mutation("not a media type", "defaultOutputModes.0", (d) => ({ ...d, defaultOutputModes: ["plain text"] })),
  mutation("duplicate skill name", "skills.1.name", (d) => ({ ...d, skills: [{ name: "Same" }, { name: "Same" }] })),
  mutation("duplicate skill id", "skills.1.id", (d) => ({
    ...d,
    skills: [
      { name: "A", id: "same" },
      { name: "B", id: "same" },
    ],
  })),
  mutation("skill id outside [A-Za-z0-9_-]", "skills.0.id", (d) => ({ ...d, skills: [{ name: "A", id: "has space" }] })),
  mutation("skill without name", "skills.0.name", (d) => ({ ...d, skills: [{ description: "nameless" }] })),
  mutation("undeclared scheme", "security.0.undeclared", (d) => ({ ...d, security: [{ undeclared: [] }] })),
  mutation("two OAuth flows", "securitySchemes.two.flows", (d) => ({
    ...d,
    securitySchemes: {
      ...d.securitySchemes,
      two: {
        type: "oauth2",
        flows: {
          clientCredentials: { tokenUrl: "https://a.example/t", scopes: {} },
          password: { tokenUrl: "https://a.example/t", scopes: {} },
        },
      },
    },
  })),
  mutation("unknown scheme type", "securitySchemes.s.type", (d) => ({
    ...d,
    securitySchemes: { ...d.securitySchemes, s: { type: "magic" } },
  })),
  mutation("boolean as string", "capabilities.streaming", (d) => ({
    ...d,
    capabilities: { ...(d.capabilities as object), streaming: "yes" },
  })),
  mutation("reserved key name", "securitySchemes.__proto__", (d) => ({
    ...d,
    securitySchemes: { ...d.securitySchemes, ...(JSON.parse('{"__proto__":{"type":"mutualTLS"}}') as object) },
  })),
  mutation("null in extension params", "capabilities.extensions.0.params", (d) => ({
    ...d,
    capabilities: { ...(d.capabilities as object), extensions: [{ uri: "https://ext.example/x", params: { a: null } }] },
  })),
);

// ---- JSON-RPC requests ----

type RpcId = string | number | null;
export type Verdict = { ok: true; id: RpcId; method: string } | { ok: false; code: -32700 | -32600 | -32601; id: RpcId };

export interface RpcCase {
  kind: string;
  bytes: Uint8Array;
  expected: Verdict;
  /** METHOD_ALLOWLIST in force, if any. */
  allowlist?: string[];
}

const encoder = new TextEncoder();
const A2A_METHODS = [
  "SendMessage",
  "SendStreamingMessage",
  "GetTask",
  "CancelTask",
  "ListTasks",
  "SubscribeToTask",
  "GetExtendedAgentCard",
  "message/send",
  "message/stream",
  "tasks/get",
  "tasks/cancel",
  "agent/getAuthenticatedExtendedCard",
] as const;

const idArb: fc.Arbitrary<RpcId> = fc.oneof(
  fc.constant(null),
  fc.string({ maxLength: 24 }),
  fc.uuid(),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);
const partText = fc.string({ maxLength: 60, unit: "grapheme" });
const partsOf = (kind: boolean) =>
  fc.array(kind ? fc.record({ kind: fc.constant("text"), text: partText }) : fc.record({ text: partText }), { minLength: 1, maxLength: 3 });
/**
 * The params of each A2A method, in its generation's canonical form (src/messages/: read by their names,
 * they are forwarded as sent). Params of another shape are the differential suite's (test/worker/one-reading.test.ts).
 */
const A2A_PARAMS: Record<(typeof A2A_METHODS)[number], fc.Arbitrary<unknown>> = {
  SendMessage: fc.record({
    message: fc.record({ messageId: fc.uuid(), role: fc.constantFrom("ROLE_USER", "ROLE_AGENT"), parts: partsOf(false) }),
  }),
  SendStreamingMessage: fc.record({ message: fc.record({ messageId: fc.uuid(), role: fc.constant("ROLE_USER"), parts: partsOf(false) }) }),
  GetTask: fc.record({ id: fc.uuid(), historyLength: fc.nat(100) }, { requiredKeys: ["id"] }),
  CancelTask: fc.record({ id: fc.uuid() }),
  ListTasks: fc.record(
    { pageSize: fc.nat(50), status: fc.constantFrom("TASK_STATE_WORKING", "TASK_STATE_COMPLETED") },
    { requiredKeys: [] },
  ),
  SubscribeToTask: fc.record({ id: fc.uuid() }),
  GetExtendedAgentCard: fc.constant({}),
  "message/send": fc.record({
    message: fc.record({ kind: fc.constant("message"), messageId: fc.uuid(), role: fc.constant("user"), parts: partsOf(true) }),
  }),
  "message/stream": fc.record({
    message: fc.record({ kind: fc.constant("message"), messageId: fc.uuid(), role: fc.constant("user"), parts: partsOf(true) }),
  }),
  "tasks/get": fc.record({ id: fc.uuid(), historyLength: fc.nat(100) }, { requiredKeys: ["id"] }),
  "tasks/cancel": fc.record({ id: fc.uuid() }),
  "agent/getAuthenticatedExtendedCard": fc.constant({}),
};
/** Any params: for a method no A2A version defines (an extension's), which the edge does not read. */
const anyParams = fc.oneof(
  fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 4 }),
  fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 3 }),
);
const extensionMethod = fc.string({ minLength: 1, maxLength: 30 }).filter((name) => !(A2A_METHODS as readonly string[]).includes(name));

export interface RpcRequest {
  jsonrpc: "2.0";
  id: RpcId;
  method: string;
  params?: unknown;
}

/** Well-formed JSON-RPC 2.0 requests, round-tripped through JSON (so -0 is 0, as the edge will see it). */
const requestWith = (method: fc.Arbitrary<string>): fc.Arbitrary<RpcRequest> =>
  method
    .chain((name) =>
      fc.record(
        {
          jsonrpc: fc.constant("2.0" as const),
          id: idArb,
          method: fc.constant(name),
          params: Object.hasOwn(A2A_PARAMS, name) ? A2A_PARAMS[name as keyof typeof A2A_PARAMS] : anyParams,
        },
        { requiredKeys: ["jsonrpc", "id", "method"] },
      ),
    )
    .map((r) => JSON.parse(JSON.stringify(r)) as RpcRequest);
export const rpcRequestArb = requestWith(
  fc.oneof({ weight: 4, arbitrary: fc.constantFrom<string>(...A2A_METHODS) }, { weight: 1, arbitrary: extensionMethod }),
);
/** Requests for A2A methods only (names that fit in METHOD_ALLOWLIST). */
const a2aRequestArb = requestWith(fc.constantFrom(...A2A_METHODS));

const ofValue = (kind: string, value: unknown, expected: Verdict, allowlist?: string[]): RpcCase => ({
  kind,
  bytes: encoder.encode(JSON.stringify(value)),
  expected,
  ...(allowlist ? { allowlist } : {}),
});
const invalid = (id: RpcId): Verdict => ({ ok: false, code: -32600, id });
const without = (r: RpcRequest, key: keyof RpcRequest) => Object.fromEntries(Object.entries(r).filter(([k]) => k !== key));

/** Invalid UTF-8: lone continuation, overlong, surrogate, beyond U+10FFFF, truncated, never-valid bytes. */
export const INVALID_UTF8: readonly (readonly number[])[] = [
  [0x80],
  [0xbf],
  [0xc0, 0x80],
  [0xc1, 0xbf],
  [0xe0, 0x80, 0x80],
  [0xed, 0xa0, 0x80],
  [0xf4, 0x90, 0x80, 0x80],
  [0xf5, 0x80, 0x80, 0x80],
  [0xe2, 0x82],
  [0xf0, 0x9f, 0x98],
  [0xfe],
  [0xff],
];
export const invalidUtf8Arb = fc.constantFrom(...INVALID_UTF8);

/** `request` serialized with `bad` spliced into the method name (inside a JSON string). */
export function withInvalidUtf8(request: RpcRequest, bad: readonly number[], at: number): Uint8Array {
  const textBytes = encoder.encode(JSON.stringify(request));
  const marker = encoder.encode(`"method":"`);
  let start = -1;
  for (let i = 0; i + marker.length <= textBytes.length && start < 0; i++) {
    if (marker.every((b, j) => textBytes[i + j] === b)) start = i + marker.length;
  }
  if (start < 0) throw new Error("no method in the serialized request");
  // Insert at a character boundary inside the method name (UTF-8 lead bytes only).
  let offset = start;
  for (let k = 0; k < at && textBytes[offset] !== 0x22; k++) {
    offset++;
    while ((textBytes[offset]! & 0xc0) === 0x80) offset++;
  }
  return new Uint8Array([...textBytes.subarray(0, offset), ...bad, ...textBytes.subarray(offset)]);
}

/** A well-formed request with one targeted defect, and the exact verdict it must get. */
const mutatedRpcArb: fc.Arbitrary<RpcCase> = fc.oneof(
  fc
    .tuple(rpcRequestArb, fc.constantFrom<unknown>("1.0", "2", 2, 2.1, null, "", "2.0 ", " 2.0", true, {}))
    .map(([r, v]) => ofValue('jsonrpc not "2.0"', { ...r, jsonrpc: v }, invalid(r.id))),
  rpcRequestArb.map((r) => ofValue("jsonrpc missing", without(r, "jsonrpc"), invalid(r.id))),
  rpcRequestArb.map((r) => ofValue("id missing (notification)", without(r, "id"), invalid(null))),
  fc
    .tuple(rpcRequestArb, fc.constantFrom<unknown>({}, [], true, false, { id: 1 }, [1]))
    .map(([r, v]) => ofValue("id not string/number/null", { ...r, id: v }, invalid(null))),
  rpcRequestArb.map((r) => ({
    kind: "id overflows to Infinity",
    bytes: encoder.encode(JSON.stringify({ ...r, id: 0 }).replace('"id":0', '"id":1e999')),
    expected: invalid(null),
  })),
  rpcRequestArb.map((r) => ofValue("method missing", without(r, "method"), invalid(r.id))),
  fc
    .tuple(rpcRequestArb, fc.constantFrom<unknown>("", 42, null, true, [], {}, ["m"]))
    .map(([r, v]) => ofValue("method empty or not a string", { ...r, method: v }, invalid(r.id))),
  fc
    .tuple(rpcRequestArb, fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null)))
    .map(([r, v]) => ofValue("params not structured", { ...r, params: v }, invalid(r.id))),
  fc.tuple(a2aRequestArb, fc.constantFrom(...A2A_METHODS)).map(([r, other]) => {
    // METHOD_ALLOWLIST names operations: neither version's name of the call's operation may be listed.
    const allowlist = A2A_METHODS.filter((m) => operationOfMethod(m) !== operationOfMethod(r.method) && m !== other);
    return ofValue("method outside METHOD_ALLOWLIST", r, { ok: false, code: -32601, id: r.id }, allowlist);
  }),
  a2aRequestArb.map((r) => ofValue("method in METHOD_ALLOWLIST", r, { ok: true, id: r.id, method: r.method }, [r.method, "GetTask"])),
  fc.array(rpcRequestArb, { minLength: 1, maxLength: 3 }).map((batch) => ofValue("batch", batch, invalid(null))),
  fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null)).map((v) => ofValue("not an object", v, invalid(null))),
  fc.tuple(rpcRequestArb, fc.nat()).map(([r, n]) => {
    const textBody = JSON.stringify(r);
    return {
      kind: "truncated",
      bytes: encoder.encode(textBody.slice(0, n % textBody.length)),
      expected: { ok: false, code: -32700, id: null } as Verdict,
    };
  }),
  fc.tuple(rpcRequestArb, invalidUtf8Arb, fc.nat({ max: 40 })).map(([r, bad, at]) => ({
    kind: "invalid UTF-8 in a string",
    bytes: withInvalidUtf8(r, bad, at),
    expected: { ok: false, code: -32700, id: null } as Verdict,
  })),
  fc.tuple(rpcRequestArb, fc.constantFrom('"jsonrpc":"1.0"', '"jsonrpc":"2.0"', '"method":"other"', '"id":"other"')).map(([r, first]) => {
    // A repeated member whose last value is valid: JSON.parse keeps it, an origin's parser
    // may keep the first. Only the duplicate-key check refuses it.
    const textBody = JSON.stringify(r);
    return { kind: "repeated member", bytes: encoder.encode(`{${first},${textBody.slice(1)}`), expected: invalid(r.id) };
  }),
);

/** Which verdict a JSON value gets, decided independently of src/ (JSON-RPC 2.0 + A2A: no notifications, no batches). */
export function expectedVerdict(value: unknown): Verdict {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return invalid(null);
  const v = value as Record<string, unknown>;
  const idOk = (id: unknown): id is RpcId => id === null || typeof id === "string" || (typeof id === "number" && Number.isFinite(id));
  const id = idOk(v.id) ? v.id : null;
  const wellFormed =
    v.jsonrpc === "2.0" &&
    "id" in v &&
    idOk(v.id) &&
    typeof v.method === "string" &&
    v.method !== "" &&
    (!("params" in v) || (typeof v.params === "object" && v.params !== null));
  return wellFormed ? { ok: true, id, method: v.method as string } : invalid(id);
}

/** Noise: any JSON value (it is almost never a request), classified by `expectedVerdict`. */
const noiseRpcArb: fc.Arbitrary<RpcCase> = fc.jsonValue().map((value) => {
  const roundTripped = JSON.parse(JSON.stringify(value)) as unknown;
  return { kind: "arbitrary JSON", bytes: encoder.encode(JSON.stringify(value)), expected: expectedVerdict(roundTripped) };
});

/** About half well-formed requests, the rest targeted mutations of them and noise. */
export const rpcCaseArb: fc.Arbitrary<RpcCase> = fc.oneof(
  { weight: 9, arbitrary: rpcRequestArb.map((r) => ofValue("well-formed", r, { ok: true, id: r.id, method: r.method })) },
  { weight: 9, arbitrary: mutatedRpcArb },
  { weight: 2, arbitrary: noiseRpcArb },
);

// ---- counting ----

/** Counts labels over a property run; `share(label)` in [0, 1]. */
export class Tally {
  readonly counts = new Map<string, number>();
  total = 0;
  add(...labels: string[]): void {
    this.total++;
    for (const label of labels) this.counts.set(label, (this.counts.get(label) ?? 0) + 1);
  }
  count(label: string): number {
    return this.counts.get(label) ?? 0;
  }
  share(label: string): number {
    return this.total === 0 ? 0 : this.count(label) / this.total;
  }
  /** e.g. `accepted 48.7% (243/500), kind:batch 3.2% (16/500)` */
  toString(): string {
    return [...this.counts.entries()]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([label, n]) => `${label} ${((100 * n) / this.total).toFixed(1)}% (${n}/${this.total})`)
      .join(", ");
  }
}
