// The parity table: every policy of the edge x every client binding and version x every origin kind,
// as data. A row is a policy, a way to provoke it and the decision expected, written once as a
// failure reason (src/errors/failures.ts); `expectOutcome` renders that reason per client binding
// (JSON-RPC envelope with the request's id; REST 1.0 google.rpc.Status, A2A 1.0 §11.6; REST 0.3
// the JSON-RPC error object, as 0.3 REST servers send it) and checks what the origin received.
// The runners (test/worker/parity.test.ts in workerd, test/node/parity.test.ts over raw sockets to
// the built bundle and to `wrangler dev`) know no row: a policy added later is one more row here.
//
// Two classes of call (DESIGN "One call model"): "native" (client binding and generation are the
// origin's) passes JSON and SSE through byte for byte, unbuffered; "translated" (another binding, or
// the bridge) and the extended card always are read by the edge, bounded by ORIGIN_REPLY_MAX_BYTES.
// Runs in workerd and in node: no node: imports.
import { expect } from "vitest";
import { FAILURES, type FailureReason, STATUS_NAMES } from "../../src/errors/failures";

type Generation = "0.3" | "1.0";
type Wire = "jsonrpc" | "rest";
type Binding = "jsonrpc-0.3" | "jsonrpc-1.0" | "rest-0.3" | "rest-1.0";
type OriginKind = "jsonrpc-same" | "jsonrpc-other" | "rest";
/** One edge configuration per origin setup: the runners start one runtime for each and reuse it. */
export type Setup = "jsonrpc-both" | "jsonrpc-0.3" | "jsonrpc-1.0" | "rest-0.3" | "rest-1.0";

export interface Combo {
  name: string;
  binding: Binding;
  origin: OriginKind;
  version: Generation;
  wire: Wire;
  originVersion: Generation;
  originWire: Wire;
  /** Same binding and generation as the origin: the edge passes the reply through unread. */
  native: boolean;
  setup: Setup;
  /** STREAM_RESUME=on (the node runner's deployments): every stream is read, numbered and kept by a TaskStream. */
  kept?: boolean;
}

const BINDINGS: readonly Binding[] = ["jsonrpc-0.3", "jsonrpc-1.0", "rest-0.3", "rest-1.0"];
const ORIGIN_KINDS: readonly OriginKind[] = ["jsonrpc-same", "jsonrpc-other", "rest"];
const other = (g: Generation): Generation => (g === "1.0" ? "0.3" : "1.0");

const COMBOS: readonly Combo[] = BINDINGS.flatMap((binding) =>
  ORIGIN_KINDS.map((origin): Combo => {
    const [wire, version] = binding.split("-") as [Wire, Generation];
    const originVersion = origin === "jsonrpc-other" ? other(version) : version;
    const originWire: Wire = origin === "rest" ? "rest" : "jsonrpc";
    const setup: Setup = origin === "jsonrpc-same" ? "jsonrpc-both" : origin === "rest" ? `rest-${version}` : `jsonrpc-${originVersion}`;
    const native = wire === originWire && version === originVersion;
    return {
      name: `${binding} -> ${origin} (${originWire} ${originVersion})`,
      binding,
      origin,
      version,
      wire,
      originVersion,
      originWire,
      native,
      setup,
    };
  }),
);

export const SETUPS: readonly Setup[] = ["jsonrpc-both", "jsonrpc-0.3", "jsonrpc-1.0", "rest-0.3", "rest-1.0"];

// ---- the edge's configuration ----

/** ORIGIN_REPLY_MAX_BYTES of the parity runs: small, so that "too large" is cheap to provoke. */
const REPLY_MAX = 65_536;
const MAX_BODY = 8192;
const BODY_TIMEOUT_MS = 1000;
/**
 * Operations let through. SendMessage is listed only by its 0.3 name and SendStreamingMessage only by
 * its 1.0 name (a list written for one version admits the other version's twin); CancelTask is not
 * listed at all.
 */
const ALLOWLIST =
  "message/send,SendStreamingMessage,GetTask,tasks/get,GetExtendedAgentCard,agent/getAuthenticatedExtendedCard,CreateTaskPushNotificationConfig";
const KEY_HEADER = "X-API-Key";

/** The card-source document every parity deployment serves: every call needs an API key (edge authentication). */
export const DOCUMENT = {
  name: "Parity Agent",
  capabilities: { streaming: true, extendedAgentCard: true },
  securitySchemes: { partnerKey: { type: "apiKey", in: "header", name: KEY_HEADER } },
  security: [{ partnerKey: [] }],
};

/** Where the origin answers, under the origin's base URL (no trailing slash). */
const RPC_PATH = "/rpc";
const REST_BASE_PATH = "/a2a/rest";

/** The key that signs A2A-Caller-Assertion in every deployment (a P-256 JWK made for this suite alone). */
const ASSERTION_KEY = JSON.stringify({
  kty: "EC",
  x: "wLMdGxSRE4g_XxLUuUhx9ZFqHv7El2rT8qJwklDWwJ8",
  y: "ORF__gkGPJOqww_4DmZalduffs2fcAbvB0UQz9pXkcU",
  crv: "P-256",
  d: "EoFR5qtL61K9yGfQiNrR6ghrwDoC8XgDRWhct7BuZ1Q",
  kid: "parity-assertion",
});

/** The vars of a setup's deployment; `originBase` is the origin server, e.g. `http://127.0.0.1:4000`. */
export function deploymentVars(setup: Setup, originBase: string, apiKeys: string): Record<string, string> {
  const common = {
    REST_PATH: "/rest",
    MAX_BODY_BYTES: String(MAX_BODY),
    BODY_TIMEOUT_MS: String(BODY_TIMEOUT_MS),
    METHOD_ALLOWLIST: ALLOWLIST,
    AUTH_API_KEYS: apiKeys,
    ORIGIN_REPLY_MAX_BYTES: String(REPLY_MAX),
    ORIGIN_TIMEOUT_MS: "10000",
    KV_CACHE_TTL: "0",
    RATE_LIMIT_PERIOD: "60",
    AUTH_ASSERTION_KEY: ASSERTION_KEY,
    // Every push config the table admits is relayed (the relay's own suites: push-relay, e2e-push-relay).
    PUSH_RELAY: "on",
    // Every call's access record, so that every row proves one per call, in every binding.
    ACCESS_LOG: "all",
    // Mastra's client's paths (agents/framework-paths.ts): the host's agent as `parity`.
    MASTRA_API_PREFIX: "/api",
    MASTRA_HOST_AGENT_ID: "parity",
  };
  const [wire, version] = setup.split("-") as [Wire, string];
  const versions = version === "both" ? "1.0,0.3" : version;
  return wire === "rest"
    ? { ...common, ORIGIN_BINDING: "http+json", ORIGIN_REST_URL: `${originBase}${REST_BASE_PATH}`, ORIGIN_PROTOCOL_VERSIONS: versions }
    : { ...common, ORIGIN_URL: `${originBase}${RPC_PATH}`, ORIGIN_PROTOCOL_VERSIONS: versions };
}

// ---- callers: one API key per (row, combination), so that rate limits never couple two rows ----

export const callerOf = (row: number, combo: number) => `r${row}c${combo}`;
export const keyOf = (row: number, combo: number) => `parity-key-${row}-${combo}-0123456789`;

/** A JWT's payload, unverified (the signature is checked by the suites of the assertion itself). */
function jwtPayload(token: string): Record<string, unknown> {
  const part = (token.split(".")[1] ?? "").replaceAll("-", "+").replaceAll("_", "/");
  return JSON.parse(atob(part.padEnd(Math.ceil(part.length / 4) * 4, "="))) as Record<string, unknown>;
}

async function sha256Base64url(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return btoa(String.fromCharCode(...digest))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");
}

async function sha256Hex(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return [...digest].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** AUTH_API_KEYS for every (row, combination): `{"r3c7":"sha256:..."}`. */
export async function apiKeys(): Promise<string> {
  const entries = await Promise.all(
    ROWS.flatMap((_row, r) => COMBOS.map(async (_combo, c) => [callerOf(r, c), `sha256:${await sha256Hex(keyOf(r, c))}`] as const)),
  );
  return JSON.stringify(Object.fromEntries(entries));
}

// ---- what the client sends ----

export interface ClientCall {
  method: "GET" | "POST";
  /** Path and query, from the edge's root. */
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** Sent instead of the body: these bytes, then nothing more (a stalled body, chunked). */
  stall?: string;
  /** The JSON-RPC id, when the call has one. */
  id?: string;
}

export interface CallContext {
  /** The JSON-RPC id of this call. */
  id: string;
  /** The API key of this (row, combination). */
  key: string;
  caller: string;
  /** Calls a caller may make per period (RATE_LIMITER of the runtime). */
  rateLimit: number;
  /** A client address of its own for this call (refused calls are limited by address). */
  clientIp: string;
}

type Operation = "send" | "stream" | "get" | "cancel" | "card" | "pushSet";

const RPC_METHODS: Record<Operation, Record<Generation, string>> = {
  send: { "1.0": "SendMessage", "0.3": "message/send" },
  stream: { "1.0": "SendStreamingMessage", "0.3": "message/stream" },
  get: { "1.0": "GetTask", "0.3": "tasks/get" },
  cancel: { "1.0": "CancelTask", "0.3": "tasks/cancel" },
  card: { "1.0": "GetExtendedAgentCard", "0.3": "agent/getAuthenticatedExtendedCard" },
  pushSet: { "1.0": "CreateTaskPushNotificationConfig", "0.3": "tasks/pushNotificationConfig/set" },
};

const MESSAGE: Record<Generation, (text: string) => unknown> = {
  "1.0": (text) => ({ messageId: "m1", role: "ROLE_USER", parts: [{ text }] }),
  "0.3": (text) => ({ kind: "message", messageId: "m1", role: "user", parts: [{ kind: "text", text }] }),
};

interface CallOptions {
  /** The message text (a long one makes a body over MAX_BODY_BYTES). */
  text?: string;
  taskId?: string;
  tenant?: string;
  /** `null`: no credential; a string: that key instead of the caller's. */
  key?: string | null;
  version?: string;
  contentType?: string;
  stall?: boolean;
  /** A push notification config: inline in a send's configuration, or the config of a pushSet. */
  push?: Record<string, unknown>;
  /** Send `push` under both generations' names at once (two configs in one call). */
  pushTwice?: boolean;
  /** Spell the body's members by their proto (snake_case) names, as ProtoJSON and a2a-python readers take them too. */
  protoNames?: boolean;
}

/** Every member of `value` under its snake_case name (a ProtoJSON proto name; a2a-python's 0.3 field name). */
function snakeCased(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snakeCased);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, member]) => [key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), snakeCased(member)]),
  );
}

/** Where a send's configuration holds its push config, per client binding (0.3 REST: the proto's name). */
const INLINE_PUSH: Record<Binding, string> = {
  "jsonrpc-0.3": "pushNotificationConfig",
  "jsonrpc-1.0": "taskPushNotificationConfig",
  "rest-0.3": "pushNotification",
  "rest-1.0": "taskPushNotificationConfig",
};

/** The params (JSON-RPC) or body (REST) of a send carrying `options.push` inline. */
function sendBody(c: Combo, text: string, options: CallOptions): Record<string, unknown> {
  const body: Record<string, unknown> = { message: MESSAGE[c.version](text) };
  if (!options.push) return body;
  const configuration: Record<string, unknown> = { [INLINE_PUSH[c.binding]]: options.push };
  if (options.pushTwice) configuration[c.version === "1.0" ? "pushNotificationConfig" : "taskPushNotificationConfig"] = options.push;
  return { ...body, configuration };
}

/** The params (JSON-RPC) or body (REST) of a pushSet: 1.0's flat TaskPushNotificationConfig, 0.3's nested one. */
function pushSetBody(c: Combo, taskId: string, push: Record<string, unknown> = {}): Record<string, unknown> {
  if (c.wire === "rest")
    return c.version === "1.0" ? { ...push } : { name: `tasks/${taskId}/pushNotificationConfigs/c1`, pushNotificationConfig: push };
  return c.version === "1.0" ? { taskId, ...push } : { taskId, pushNotificationConfig: push };
}

/** The call of `operation` in the combination's client binding and version. */
function clientCall(c: Combo, operation: Operation, ctx: CallContext, options: CallOptions = {}): ClientCall {
  const { text = "hi", taskId = "t1", tenant } = options;
  const key = options.key === undefined ? ctx.key : options.key;
  const headers: Record<string, string> = {
    "A2A-Version": options.version ?? c.version,
    // A client's own caller headers: the origin must only ever see the edge's.
    "A2A-Caller": "spoofed:admin",
    "A2A-Caller-Scopes": "admin root",
    "CF-Connecting-IP": ctx.clientIp,
  };
  if (key !== null) headers[KEY_HEADER] = key;
  let method: "GET" | "POST";
  let path: string;
  let body: unknown;
  let id: string | undefined;
  if (c.wire === "jsonrpc") {
    method = "POST";
    path = "/";
    id = ctx.id;
    const params =
      operation === "send" || operation === "stream"
        ? sendBody(c, text, options)
        : operation === "card"
          ? {}
          : operation === "pushSet"
            ? pushSetBody(c, taskId, options.push)
            : { id: taskId, ...(tenant === undefined ? {} : { tenant }) };
    body = { jsonrpc: "2.0", id, method: RPC_METHODS[operation][c.version], params };
  } else {
    const prefix = c.version === "0.3" ? "/rest/v1" : tenant === undefined ? "/rest" : `/rest/${tenant}`;
    const route = {
      send: ["POST", "message:send"],
      stream: ["POST", "message:stream"],
      get: ["GET", `tasks/${taskId}`],
      cancel: ["POST", `tasks/${taskId}:cancel`],
      card: ["GET", c.version === "0.3" ? "card" : "extendedAgentCard"],
      pushSet: ["POST", `tasks/${taskId}/pushNotificationConfigs`],
    } as const;
    [method, path] = [route[operation][0], `${prefix}/${route[operation][1]}`];
    if (operation === "send" || operation === "stream") body = sendBody(c, text, options);
    if (operation === "pushSet") body = pushSetBody(c, taskId, options.push);
    // A POST without a body still says what it is (the SDK's REST client sends `{}` with CancelTask).
    if (operation === "cancel") body = {};
  }
  const call: ClientCall = { method, path, headers, ...(id === undefined ? {} : { id }) };
  if (body === undefined) return call;
  headers["Content-Type"] = options.contentType ?? "application/json";
  if (options.protoNames && c.wire === "rest") body = snakeCased(body);
  else if (options.protoNames) body = { ...(body as object), params: snakeCased((body as { params: unknown }).params) };
  const bodyText = JSON.stringify(body);
  return options.stall ? { ...call, stall: bodyText.slice(0, 20) } : { ...call, body: bodyText };
}

// ---- what the origin answers ----

/** A request as the origin received it (path and query under the origin's root; header names lower case). */
export interface OriginSeen {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

export interface OriginReply {
  status: number;
  headers: Record<string, string>;
  /** The body in the chunks the origin writes. */
  chunks: string[];
  /** Keep the response open after the chunks (an event that never ends). */
  hold?: boolean;
}

interface OriginCallRead {
  wire: Wire;
  version: Generation;
  operation: Operation;
  id: unknown;
}

/** Which call an origin request is: its binding, version, operation and JSON-RPC id. */
function readOriginCall(seen: OriginSeen): OriginCallRead {
  if (seen.path.startsWith(RPC_PATH)) {
    const { id, method } = JSON.parse(seen.body) as { id: unknown; method: string };
    const entry = Object.entries(RPC_METHODS).find(([, names]) => names["1.0"] === method || names["0.3"] === method);
    if (!entry) throw new Error(`the origin got an unknown method ${method}`);
    return { wire: "jsonrpc", version: /^[A-Z]/.test(method) ? "1.0" : "0.3", operation: entry[0] as Operation, id };
  }
  const path = seen.path.split("?")[0]!.slice(REST_BASE_PATH.length);
  const version: Generation = path.startsWith("/v1/") ? "0.3" : "1.0";
  const operation: Operation = path.endsWith("message:send")
    ? "send"
    : path.endsWith("/pushNotificationConfigs")
      ? "pushSet"
      : path.endsWith("message:stream")
        ? "stream"
        : path.endsWith(":cancel")
          ? "cancel"
          : path.endsWith("/card") || path.endsWith("extendedAgentCard")
            ? "card"
            : "get";
  return { wire: "rest", version, operation, id: undefined };
}

/** A webhook every rule admits. */
const ALLOWED_WEBHOOK = "https://hooks.example.com/a2a";

const TASK_V1 = { id: "t1", contextId: "c1", status: { state: "TASK_STATE_COMPLETED" } };
const TASK_V03 = { kind: "task", id: "t1", contextId: "c1", status: { state: "completed" } };
const UPDATE_V1 = { statusUpdate: { taskId: "t1", contextId: "c1", status: { state: "TASK_STATE_COMPLETED" } } };
const UPDATE_V03 = { kind: "status-update", taskId: "t1", contextId: "c1", status: { state: "completed" }, final: true };
const JSON_TYPE = { "content-type": "application/json" };
const SSE_TYPE = { "content-type": "text/event-stream", "cache-control": "no-cache" };

/** A result (or event) in the origin's form, padded with `pad` characters of metadata. */
function resultOf(read: OriginCallRead, pad = ""): unknown {
  const metadata = pad ? { metadata: { pad } } : {};
  const v1 = read.wire === "rest" || read.version === "1.0";
  const task = { ...(v1 ? TASK_V1 : TASK_V03), ...metadata };
  if (read.operation === "card") return { name: "Origin agent", description: pad || "private", version: "1" };
  if (read.operation === "pushSet") {
    const config = { id: "c1", url: ALLOWED_WEBHOOK };
    if (read.wire === "rest" && read.version === "0.3")
      return { name: "tasks/t1/pushNotificationConfigs/c1", pushNotificationConfig: config };
    return v1 ? { taskId: "t1", ...config } : { taskId: "t1", pushNotificationConfig: config };
  }
  if (read.operation === "send" || read.operation === "stream") return v1 ? { task } : task;
  return task;
}

const envelope = (read: OriginCallRead, body: unknown) => (read.wire === "jsonrpc" ? { jsonrpc: "2.0", id: read.id, result: body } : body);

/**
 * The origin's ordinary answer, in its own binding and version. Written with spaces (JSON.stringify
 * indentation) so that a reply the edge re-serialized differs from the origin's bytes.
 */
export function normalAnswer(seen: OriginSeen): OriginReply {
  const read = readOriginCall(seen);
  if (read.operation !== "stream")
    return { status: 200, headers: JSON_TYPE, chunks: [JSON.stringify(envelope(read, resultOf(read)), null, 1)] };
  const v1 = read.wire === "rest" || read.version === "1.0";
  const events = [resultOf(read), v1 ? UPDATE_V1 : UPDATE_V03].map((event) => `data: ${JSON.stringify(envelope(read, event))}\n\n`);
  return { status: 200, headers: SSE_TYPE, chunks: events };
}

/** Fixed strings an origin's fault reply carries that must never reach a client of a refused reply. */
const ORIGIN_DETAILS = ["10.9.8.7", "ECONNREFUSED", "10.0.0.5", "pg: connect", "DebugInfo", "/srv/app", "nginx", "<html", "moved to"];

/** An origin 5xx whose JSON body names internal details, in the origin's binding. */
function internalError(seen: OriginSeen): OriginReply {
  const read = readOriginCall(seen);
  const body =
    read.wire === "jsonrpc"
      ? {
          jsonrpc: "2.0",
          id: read.id,
          error: {
            code: -32603,
            message: "pg: connect ECONNREFUSED 10.9.8.7:5432",
            data: { stack: "at Pool.connect (/srv/app/db.js:10)" },
          },
        }
      : {
          error: {
            code: 500,
            status: "INTERNAL",
            message: "pg: connect ECONNREFUSED 10.9.8.7:5432 (/srv/app/db.js:10)",
            details: [{ "@type": "type.googleapis.com/google.rpc.DebugInfo", detail: "stack" }],
          },
        };
  return { status: 500, headers: JSON_TYPE, chunks: [JSON.stringify(body)] };
}

const redirect = (): OriginReply => ({
  status: 302,
  headers: { ...JSON_TYPE, location: "http://10.0.0.5:8080/internal" },
  chunks: [JSON.stringify({ message: "moved to http://10.0.0.5:8080/internal" })],
});
const HTML = "<!doctype html><html><body><h1>Bad Gateway</h1><p>nginx at 10.0.0.5</p></body></html>";
const html = (status: number, type = "text/html; charset=utf-8"): OriginReply => ({
  status,
  headers: { "content-type": type },
  chunks: [HTML],
});

/** A valid JSON answer of about `bytes` bytes, in 64 KiB chunks. */
function bigJson(seen: OriginSeen, bytes: number): OriginReply {
  const text = JSON.stringify(envelope(readOriginCall(seen), resultOf(readOriginCall(seen), "a".repeat(bytes))));
  return { status: 200, headers: JSON_TYPE, chunks: chunked(text) };
}

function chunked(text: string, size = 65_536): string[] {
  const chunks: string[] = [];
  for (let at = 0; at < text.length; at += size) chunks.push(text.slice(at, at + size));
  return chunks;
}

/** The size of the one SSE event that never ends (no blank line), sent in 64 KiB chunks, then held open. */
const BIG_EVENT = 1024 * 1024;
function endlessEvent(seen: OriginSeen): OriginReply {
  const read = readOriginCall(seen);
  const start = JSON.stringify(envelope(read, resultOf(read, "P"))).split('"P"')[0];
  return { status: 200, headers: SSE_TYPE, chunks: chunked(`data: ${start}"${"a".repeat(BIG_EVENT)}`), hold: true };
}

// ---- the rows ----

type Expectation =
  /** Refused by the edge before the origin: the origin receives nothing. */
  | { kind: "refused"; reason: FailureReason; status?: number; idNull?: boolean; header?: string }
  /** Admitted and sent; the origin's reply is refused: the edge's fixed body, nothing of the origin's. */
  | { kind: "failed"; reason: FailureReason; status?: number }
  /** Admitted and answered: native = the origin's bytes; translated = a 2xx answer in the client's form. */
  | { kind: "answered" }
  /** Admitted (the origin reached, a 2xx answer); what the origin received is the row's concern, not the reply's bytes. */
  | { kind: "admitted" }
  /** A streaming call whose reply the edge reads ends with one `event: error` in the client's form, bounded. */
  | { kind: "streamError"; reason: FailureReason }
  /** A native stream passes the origin's bytes on as they come, however long the event. */
  | { kind: "streamsThrough" };

export interface Row {
  name: string;
  policy: string;
  klass: "admission" | "reply";
  applies?: (c: Combo) => boolean;
  call: (c: Combo, ctx: CallContext) => ClientCall;
  /** Admitted calls the same caller makes first (the rate limit). */
  before?: (c: Combo, ctx: CallContext) => ClientCall[];
  /** The origin's answer; default `normalAnswer`. */
  origin?: (seen: OriginSeen, c: Combo) => OriginReply;
  expect: (c: Combo) => Expectation;
  /** Log events this row must produce (and nothing else). */
  logs?: (c: Combo) => string[];
  /** How long and how much the runner reads of the reply. */
  read?: { ms: number; maxBytes: number };
  /** The request never reaches a call endpoint (the router answers it): no access record. */
  unrouted?: (c: Combo) => boolean;
  /** Checks beyond the expectation. */
  check?: (outcome: Outcome, c: Combo, ctx: CallContext) => void | Promise<void>;
}

const reads = (c: Combo) => !c.native;
/** A stream is read whenever it is kept, native or not. */
const readsStream = (c: Combo) => !c.native || c.kept === true;
const refused =
  (reason: FailureReason, extra: Partial<Extract<Expectation, { kind: "refused" }>> = {}) =>
  () =>
    ({ kind: "refused", reason, ...extra }) as Expectation;
const originFailed = () => ["origin_failed"];
/**
 * A path variable that is not one path segment: a JSON-RPC call whose id would become a REST origin's
 * path is INVALID_PARAMS (-32602); a REST client's path with a dot segment is no route at all (404),
 * whatever the origin (README "The REST binding": refused with 400/404 before any URL is built).
 */
const pathRefused = (c: Combo): Expectation => ({ kind: "refused", reason: c.wire === "rest" ? "NOT_FOUND" : "INVALID_PARAMS" });
/**
 * The read of the endless event: done once the event's size came through (a native stream, which the origin
 * never ends), when the edge ends its reply (a stream it reads), or after `ms` (an edge that holds the event).
 */
const STREAM_READ = { ms: 3000, maxBytes: BIG_EVENT };

/**
 * One webhook per rule class of src/push/url-guard.ts and push-configs.ts: [rule, config, a word the refusal
 * names]. Each is sent as a CreatePushNotificationConfig and inline in a send, in every binding.
 */
const PUSH_REFUSALS: readonly (readonly [string, Record<string, unknown>, string])[] = [
  ["over plain http:", { url: "http://hooks.example.com/a2a" }, "https:"],
  ["with userinfo", { url: "https://user:secret@hooks.example.com/a2a" }, "userinfo"],
  ["at a private IPv4 address in hex", { url: "https://0x0a.0.0.5/admin" }, "private (10.0.0.0/8)"],
  ["at cloud metadata in decimal", { url: "https://2852039166/latest/meta-data/" }, "link-local"],
  ["at an IPv4-mapped IPv6 loopback", { url: "https://[::ffff:127.0.0.1]:6379/" }, "IPv4-mapped"],
  ["at a unique-local IPv6 address", { url: "https://[fd00::5]/" }, "unique-local"],
  ["at localhost", { url: "https://localhost:6379/" }, "localhost"],
  ["at a .internal name", { url: "https://metadata.google.internal/computeMetadata/v1/" }, ".internal"],
  ["with a CR/LF in its token", { url: ALLOWED_WEBHOOK, token: "t\r\nX-Injected: 1" }, "CR, LF"],
  ["with a backslash before an @ (two readers, two hosts)", { url: "https://hooks.example.com\\@169.254.169.254/latest/" }, "backslash"],
  ["with a tab inside (WHATWG drops it, others do not)", { url: "https://hooks.exa\tmple.com/a2a" }, "whitespace"],
  ["with a NEL (U+0085) in its token", { url: ALLOWED_WEBHOOK, token: "t\u0085X-Injected: 1" }, "control characters"],
  [
    "with credentials over the size bound",
    { url: ALLOWED_WEBHOOK, authentication: { scheme: "Bearer", schemes: ["Bearer"], credentials: "c".repeat(3000) } },
    "PUSH_FIELD_MAX_BYTES",
  ],
];

const ROWS: readonly Row[] = [
  // ---- admission: the edge refuses before the origin, in the client's binding ----
  {
    name: "body over MAX_BODY_BYTES",
    policy: "MAX_BODY_BYTES",
    klass: "admission",
    call: (c, ctx) => clientCall(c, "send", ctx, { text: "x".repeat(MAX_BODY + 100) }),
    expect: refused("PAYLOAD_TOO_LARGE", { idNull: true }),
  },
  {
    name: "Content-Type text/plain",
    policy: "Content-Type",
    klass: "admission",
    call: (c, ctx) => clientCall(c, "send", ctx, { contentType: "text/plain" }),
    expect: refused("UNSUPPORTED_MEDIA_TYPE", { idNull: true }),
  },
  {
    name: "body stalls past BODY_TIMEOUT_MS",
    policy: "BODY_TIMEOUT_MS",
    klass: "admission",
    call: (c, ctx) => clientCall(c, "send", ctx, { stall: true }),
    expect: refused("REQUEST_TIMEOUT", { idNull: true }),
    logs: () => ["request_body_failed"],
    read: { ms: 8000, maxBytes: 65_536 },
  },
  {
    name: "METHOD_ALLOWLIST does not name CancelTask",
    policy: "METHOD_ALLOWLIST",
    klass: "admission",
    call: (c, ctx) => clientCall(c, "cancel", ctx),
    expect: refused("METHOD_NOT_FOUND"),
  },
  {
    // 1.0 clients send SendMessage (listed as message/send only), 0.3 clients message/stream (listed as SendStreamingMessage only).
    name: "METHOD_ALLOWLIST names the operation in the other version's name: admitted",
    policy: "METHOD_ALLOWLIST",
    klass: "admission",
    call: (c, ctx) => clientCall(c, c.version === "1.0" ? "send" : "stream", ctx),
    expect: () => ({ kind: "admitted" }),
  },
  {
    name: "A2A-Version 9.9 (not served)",
    policy: "PROTOCOL_VERSIONS",
    klass: "admission",
    call: (c, ctx) => clientCall(c, "send", ctx, { version: "9.9" }),
    expect: refused("VERSION_NOT_SUPPORTED"),
  },
  {
    name: "anonymous call, the card requires an API key",
    policy: "EDGE_AUTH",
    klass: "admission",
    call: (c, ctx) => clientCall(c, "send", ctx, { key: null }),
    expect: refused("UNAUTHENTICATED", { header: "www-authenticate" }),
  },
  {
    name: "wrong API key",
    policy: "EDGE_AUTH",
    klass: "admission",
    call: (c, ctx) => clientCall(c, "send", ctx, { key: "not-the-key-0123456789" }),
    expect: refused("UNAUTHENTICATED", { header: "www-authenticate" }),
    check: (outcome) => expect(outcome.headers["www-authenticate"]).toContain('error="invalid_token"'),
  },
  {
    name: "over the RATE_LIMITER limit",
    policy: "RATE_LIMITER",
    klass: "admission",
    before: (c, ctx) => Array.from({ length: ctx.rateLimit }, (_, i) => clientCall(c, "get", { ...ctx, id: `${ctx.id}-before-${i}` })),
    call: (c, ctx) => clientCall(c, "get", ctx),
    expect: refused("RATE_LIMITED", { header: "retry-after" }),
    check: (outcome) => expect(outcome.headers["retry-after"]).toBe("60"),
  },
  {
    // A task id `..` becomes a URL path for a REST client (its route) or a REST origin (the origin's route).
    name: "task id `..` where the id becomes a URL path",
    policy: "path segments",
    klass: "admission",
    applies: (c) => c.wire === "rest" || c.originWire === "rest",
    call: (c, ctx) => clientCall(c, "get", ctx, { taskId: c.wire === "rest" ? "%2e%2e" : ".." }),
    expect: pathRefused,
  },
  {
    name: "task id `.` where the id becomes a URL path",
    policy: "path segments",
    klass: "admission",
    applies: (c) => c.wire === "rest" || c.originWire === "rest",
    call: (c, ctx) => clientCall(c, "get", ctx, { taskId: c.wire === "rest" ? "%2E" : "." }),
    expect: pathRefused,
  },
  {
    // A JSON-RPC call whose id would become a REST origin's path, without that id: invalid params, as the
    // origin itself answers it (a REST client's path always holds its ids).
    name: "task id missing where the id becomes a URL path",
    policy: "required params",
    klass: "admission",
    applies: (c) => c.wire === "jsonrpc" && c.originWire === "rest",
    call: (c, ctx) => clientCall(c, "get", ctx, { taskId: "" }),
    expect: refused("INVALID_PARAMS"),
    check: (outcome) => expect(outcome.body, "the refusal names the id").toContain("id is required"),
  },
  {
    // 0.3 has no tenants; an empty tenant of a REST route is a path with an empty segment.
    name: "tenant `..` (1.0) where the tenant becomes a URL path",
    policy: "path segments",
    klass: "admission",
    applies: (c) => c.version === "1.0" && (c.wire === "rest" || c.originWire === "rest"),
    call: (c, ctx) => clientCall(c, "get", ctx, { tenant: c.wire === "rest" ? ".%2E" : ".." }),
    expect: pathRefused,
    // A REST path whose `.%2E` segment the URL parser resolves (WHATWG URL: a double-dot segment) is outside REST_PATH.
    unrouted: (c) => c.wire === "rest",
  },
  {
    name: "spoofed A2A-Caller headers dropped, the edge's caller added",
    policy: "A2A-Caller",
    klass: "admission",
    call: (c, ctx) => clientCall(c, "get", ctx),
    expect: () => ({ kind: "admitted" }),
    check: (outcome, _c, ctx) => {
      for (const seen of outcome.received) expect(seen.headers["a2a-caller"]).toBe(`partnerKey:${ctx.caller}`);
    },
  },
  {
    // Mastra's client sends every call to <prefix>/a2a/<agentId>: the same call, the same caller, the same origin.
    name: "a call at Mastra's path is the agent's own call",
    policy: "MASTRA_API_PREFIX",
    klass: "admission",
    applies: (c) => c.wire === "jsonrpc",
    call: (c, ctx) => ({ ...clientCall(c, "send", ctx), path: "/api/a2a/parity" }),
    expect: () => ({ kind: "admitted" }),
    check: (outcome, _c, ctx) => {
      expect(outcome.received).toHaveLength(1);
      for (const seen of outcome.received) expect(seen.headers["a2a-caller"]).toBe(`partnerKey:${ctx.caller}`);
    },
  },
  {
    name: "a call at Mastra's path without the card's credential is refused as at the agent's own",
    policy: "MASTRA_API_PREFIX",
    klass: "admission",
    applies: (c) => c.wire === "jsonrpc",
    call: (c, ctx) => ({ ...clientCall(c, "send", ctx, { key: null }), path: "/api/a2a/parity" }),
    expect: refused("UNAUTHENTICATED"),
  },
  {
    name: "API key consumed, not forwarded",
    policy: "AUTH_FORWARD_CREDENTIALS",
    klass: "admission",
    call: (c, ctx) => clientCall(c, "send", ctx),
    expect: () => ({ kind: "admitted" }),
    check: (outcome) => {
      for (const seen of outcome.received) expect(seen.headers[KEY_HEADER.toLowerCase()]).toBeUndefined();
    },
  },
  {
    name: "caller assertion signed for the origin that receives it, bound to its request",
    policy: "A2A-Caller-Assertion",
    klass: "admission",
    call: (c, ctx) => clientCall(c, "send", ctx),
    expect: () => ({ kind: "admitted" }),
    check: async (outcome, c, ctx) => {
      expect(outcome.received).toHaveLength(1);
      for (const seen of outcome.received) {
        const claims = jwtPayload(seen.headers["a2a-caller-assertion"] ?? "");
        expect(claims).toMatchObject({ sub: `partnerKey:${ctx.caller}`, htm: seen.method, a2a_operation: "SendMessage" });
        // The audience is the origin this attempt went to: ORIGIN_URL, or ORIGIN_REST_URL for a REST origin.
        expect(new URL(String(claims.aud)).pathname).toBe(c.originWire === "rest" ? REST_BASE_PATH : RPC_PATH);
        expect(new URL(String(claims.htu)).pathname).toBe(seen.path.split("?")[0]);
        expect(claims.body_sha256).toBe(await sha256Base64url(seen.body));
      }
    },
  },
  // ---- push notification configs: every webhook URL checked before the origin sees it ----
  ...PUSH_REFUSALS.flatMap(([rule, push, word]) =>
    (["pushSet", "send"] as const).map(
      (operation): Row => ({
        name: `push config ${rule} (${operation === "send" ? "inline in a send" : "CreatePushNotificationConfig"})`,
        policy: "push webhook URL",
        klass: "admission",
        call: (c, ctx) => clientCall(c, operation, ctx, { push }),
        expect: refused("INVALID_PARAMS"),
        check: (outcome) => expect(outcome.body, "the refusal names the rule").toContain(word),
      }),
    ),
  ),
  {
    // JSON-RPC only: a REST 0.3 body's two names for the inline config are refused as one field named twice
    // (src/rest/rest-request.ts). The other generation's place is no field of this one: the strict reading
    // drops it (src/messages/reader.ts), and the origin receives the one config the edge checked and relayed.
    name: "a push config in the other generation's place beside this one's: dropped, never sent",
    policy: "one reading",
    klass: "admission",
    applies: (c) => c.wire === "jsonrpc",
    call: (c, ctx) => clientCall(c, "send", ctx, { push: { url: ALLOWED_WEBHOOK }, pushTwice: true }),
    expect: () => ({ kind: "admitted" }),
    check: (outcome, c) => {
      expect(outcome.received).toHaveLength(1);
      const body = outcome.received[0]?.body ?? "";
      expect(body.match(/\/_push\/[A-Za-z0-9_-]{22}/g), "one relayed config").toHaveLength(1);
      expect(body).not.toContain(ALLOWED_WEBHOOK);
      expect(body).not.toContain(c.originVersion === "1.0" ? '"pushNotificationConfig"' : '"taskPushNotificationConfig"');
    },
  },
  {
    // A ProtoJSON reader (1.0; 0.3's REST) and a2a-python (0.3) take a field by its proto name too: the
    // edge reads it so, and checks it (before, a loopback URL spelled so reached the origin unchecked).
    name: "push config spelled by its proto name, at a loopback address: refused",
    policy: "one reading",
    klass: "admission",
    // 127.0.0.2: loopback, and not the origin's own host (the socket runners' origin is 127.0.0.1).
    call: (c, ctx) => clientCall(c, "send", ctx, { push: { url: "https://127.0.0.2:6379/" }, protoNames: true }),
    expect: refused("INVALID_PARAMS"),
    check: (outcome) => expect(outcome.body).toContain("loopback"),
  },
  {
    name: "a message and push config spelled by proto names, admitted: the origin gets the JSON names, relayed",
    policy: "one reading",
    klass: "admission",
    call: (c, ctx) => clientCall(c, "send", ctx, { push: { url: ALLOWED_WEBHOOK }, protoNames: true }),
    expect: () => ({ kind: "admitted" }),
    check: (outcome) => {
      expect(outcome.received).toHaveLength(1);
      const body = outcome.received[0]?.body ?? "";
      expect(body).toContain('"messageId":"m1"');
      expect(body).toMatch(/\/_push\/[A-Za-z0-9_-]{22}/);
      for (const protoName of ["message_id", "push_notification", "task_push_notification_config"]) expect(body).not.toContain(protoName);
    },
  },
  {
    // Go's encoding/json takes `URL` for `url` (names match ignoring case, the last one wins).
    name: "push config whose url is beside the same name in another case: refused",
    policy: "one reading",
    klass: "admission",
    call: (c, ctx) => clientCall(c, "pushSet", ctx, { push: { url: ALLOWED_WEBHOOK, URL: "https://127.0.0.1:6379/" } }),
    expect: refused("INVALID_PARAMS"),
    check: (outcome) => expect(outcome.body).toContain("in another case"),
  },
  ...(["pushSet", "send"] as const).map(
    (operation): Row => ({
      name: `push config with a public https URL admitted, relayed (${operation === "send" ? "inline in a send" : "CreatePushNotificationConfig"})`,
      policy: "push relay",
      klass: "admission",
      call: (c, ctx) => clientCall(c, operation, ctx, { push: { url: ALLOWED_WEBHOOK, token: "client-token" } }),
      expect: () => ({ kind: "admitted" }),
      check: (outcome) => {
        expect(outcome.received).toHaveLength(1);
        // PUSH_RELAY=on: the origin receives the config (translated, when bridged) with the edge's URL and
        // token in place of the client's, which it never sees.
        const body = outcome.received[0]?.body ?? "";
        expect(body).toMatch(/\/_push\/[A-Za-z0-9_-]{22}/);
        expect(body).not.toContain(ALLOWED_WEBHOOK);
        expect(body).not.toContain("client-token");
      },
    }),
  ),
  // ---- replies: what the origin answers, classified, bounded and rendered by the edge ----
  {
    name: "origin ordinary JSON answer",
    policy: "reply class",
    klass: "reply",
    call: (c, ctx) => clientCall(c, "send", ctx),
    expect: () => ({ kind: "answered" }),
  },
  {
    name: "origin ordinary SSE stream",
    policy: "reply class",
    klass: "reply",
    call: (c, ctx) => clientCall(c, "stream", ctx),
    expect: () => ({ kind: "answered" }),
  },
  {
    name: "origin 500 whose JSON body names internal details",
    policy: "origin status",
    klass: "reply",
    call: (c, ctx) => clientCall(c, "send", ctx),
    origin: internalError,
    expect: () => ({ kind: "failed", reason: "ORIGIN_ERROR" }),
    logs: originFailed,
  },
  {
    name: "origin 302 with a JSON body and Location",
    policy: "origin status",
    klass: "reply",
    call: (c, ctx) => clientCall(c, "send", ctx),
    origin: redirect,
    expect: () => ({ kind: "failed", reason: "ORIGIN_INVALID_RESPONSE" }),
    logs: originFailed,
  },
  {
    name: "origin 200 text/html",
    policy: "origin media type",
    klass: "reply",
    call: (c, ctx) => clientCall(c, "send", ctx),
    origin: () => html(200),
    expect: () => ({ kind: "failed", reason: "ORIGIN_INVALID_RESPONSE" }),
    logs: originFailed,
  },
  {
    name: "origin 404 text/html (keeps its 4xx, the edge's body)",
    policy: "origin media type",
    klass: "reply",
    call: (c, ctx) => clientCall(c, "get", ctx),
    origin: () => html(404),
    expect: () => ({ kind: "failed", reason: "ORIGIN_INVALID_RESPONSE", status: 404 }),
    logs: originFailed,
  },
  {
    name: "origin JSON answer larger than ORIGIN_REPLY_MAX_BYTES",
    policy: "ORIGIN_REPLY_MAX_BYTES",
    klass: "reply",
    call: (c, ctx) => clientCall(c, "send", ctx),
    origin: (seen) => bigJson(seen, 2 * REPLY_MAX),
    expect: (c) => (reads(c) ? { kind: "failed", reason: "ORIGIN_INVALID_RESPONSE" } : { kind: "answered" }),
    logs: (c) => (reads(c) ? ["origin_failed"] : []),
    read: { ms: 10_000, maxBytes: 4 * REPLY_MAX },
  },
  {
    name: "origin application/json whose body is HTML",
    policy: "origin media type",
    klass: "reply",
    call: (c, ctx) => clientCall(c, "send", ctx),
    origin: () => html(200, "application/json"),
    expect: (c) => (reads(c) ? { kind: "failed", reason: "ORIGIN_INVALID_RESPONSE" } : { kind: "answered" }),
    logs: (c) => (reads(c) ? ["origin_failed"] : []),
  },
  {
    name: "extended card larger than ORIGIN_REPLY_MAX_BYTES",
    policy: "ORIGIN_REPLY_MAX_BYTES",
    klass: "reply",
    call: (c, ctx) => clientCall(c, "card", ctx),
    origin: (seen) => bigJson(seen, 2 * REPLY_MAX),
    expect: () => ({ kind: "failed", reason: "ORIGIN_INVALID_RESPONSE" }),
    logs: originFailed,
    read: { ms: 10_000, maxBytes: 4 * REPLY_MAX },
  },
  {
    name: "extended card as application/json whose body is HTML",
    policy: "origin media type",
    klass: "reply",
    call: (c, ctx) => clientCall(c, "card", ctx),
    origin: () => html(200, "application/json"),
    expect: () => ({ kind: "failed", reason: "ORIGIN_INVALID_RESPONSE" }),
    logs: originFailed,
  },
  {
    name: "one SSE event larger than ORIGIN_REPLY_MAX_BYTES (no blank line)",
    policy: "ORIGIN_REPLY_MAX_BYTES",
    klass: "reply",
    call: (c, ctx) => clientCall(c, "stream", ctx),
    origin: endlessEvent,
    expect: (c) => (readsStream(c) ? { kind: "streamError", reason: "ORIGIN_INVALID_RESPONSE" } : { kind: "streamsThrough" }),
    logs: (c) => (readsStream(c) ? ["origin_failed"] : []),
    read: STREAM_READ,
  },
];

// ---- rendering and checking ----

export interface Outcome {
  status: number;
  /** Response headers, names lower case. */
  headers: Record<string, string>;
  /** The body as received (chunked framing removed), up to the read's limit. */
  body: string;
  /** Whether the response ended within the read's time. */
  ended: boolean;
  /** Milliseconds from sending to the end of the read. */
  elapsedMs: number;
  /** What the origin received for this call (the `before` calls excluded). */
  received: OriginSeen[];
  /** What the origin wrote, per request, in order. */
  sent: string[];
}

/** The google.rpc.Code of a JSON-RPC code answered with HTTP 200, as an origin's A2A error maps (A2A 1.0 §5.4, §11.6). */
const CODE_STATUS: Record<number, [number, string]> = {
  [-32700]: [400, "INVALID_ARGUMENT"],
  [-32600]: [400, "INVALID_ARGUMENT"],
  [-32601]: [501, "UNIMPLEMENTED"],
  [-32602]: [400, "INVALID_ARGUMENT"],
  [-32009]: [400, "FAILED_PRECONDITION"],
};

/** The HTTP status and google.rpc.Code a REST client gets for `reason` (`status`: an origin's own 4xx kept). */
function restStatus(reason: FailureReason, status?: number): [number, string] {
  const spec = FAILURES[reason];
  if (status !== undefined) return [status, (STATUS_NAMES as Record<number, string>)[status] ?? "UNKNOWN"];
  if (spec.status !== 200) return [spec.status, STATUS_NAMES[spec.status]];
  const mapped = CODE_STATUS[spec.code];
  if (!mapped) throw new Error(`no REST status for ${reason}`);
  return mapped;
}

const ERROR_INFO = "type.googleapis.com/google.rpc.ErrorInfo";
const hasReason = (list: unknown, reason: string) =>
  Array.isArray(list) && list.some((d) => typeof d === "object" && d !== null && d["@type"] === ERROR_INFO && d.reason === reason);

/** An error body (or SSE error event data) in the client's binding, for `reason`. */
function expectErrorBody(c: Combo, reason: FailureReason, text: string, id: string | null | undefined, status?: number): void {
  const spec = FAILURES[reason];
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error(`the error body is not JSON: ${text.slice(0, 200)}`);
  }
  if (c.wire === "jsonrpc") {
    expect(body, text.slice(0, 300)).toMatchObject({ jsonrpc: "2.0", id, error: { code: spec.code, message: expect.any(String) } });
    expect(hasReason((body.error as { data?: unknown }).data, reason), `ErrorInfo reason ${reason} in ${text.slice(0, 300)}`).toBe(true);
  } else if (c.version === "1.0") {
    const [code, name] = restStatus(reason, status);
    expect(body, text.slice(0, 300)).toMatchObject({
      error: { code, status: name, message: expect.any(String), details: expect.any(Array) },
    });
    expect(hasReason((body.error as { details?: unknown }).details, reason), `ErrorInfo reason ${reason} in ${text.slice(0, 300)}`).toBe(
      true,
    );
  } else {
    expect(body, text.slice(0, 300)).toMatchObject({ code: spec.code, message: expect.any(String) });
  }
}

function expectNoOriginDetail(outcome: Outcome, originHost: string): void {
  const everything = `${Object.entries(outcome.headers)
    .map(([k, v]) => `${k}: ${v}`)
    .join("\n")}\n${outcome.body}`;
  for (const detail of [...ORIGIN_DETAILS, originHost]) expect(everything, `the client saw "${detail}"`).not.toContain(detail);
  expect(outcome.headers.location).toBeUndefined();
}

/** What every admitted call's origin request carries: never the client's credential, never its A2A-Caller* headers. */
function expectAdmittedRequest(seen: OriginSeen, ctx: CallContext): void {
  const all = `${seen.path}\n${Object.entries(seen.headers)
    .map(([k, v]) => `${k}: ${v}`)
    .join("\n")}\n${seen.body}`;
  expect(all, "the client's API key reached the origin").not.toContain(ctx.key);
  expect(seen.headers["a2a-caller"], "a client-sent A2A-Caller reached the origin").not.toBe("spoofed:admin");
  expect(seen.headers["a2a-caller-scopes"] ?? "", "a client-sent A2A-Caller-Scopes reached the origin").not.toContain("admin");
  expect(all).not.toContain("spoofed");
}

/** The SSE events of a body: each block's `event` and joined `data`. */
function sseEvents(text: string): { event: string; data: string }[] {
  return text
    .split(/\r?\n\r?\n/)
    .filter((block) => block.trim() !== "")
    .map((block) => {
      const lines = block.split(/\r?\n/);
      const event =
        lines
          .find((l) => l.startsWith("event:"))
          ?.slice(6)
          .trim() ?? "message";
      const data = lines
        .filter((l) => l.startsWith("data:"))
        .map((l) => l.slice(l.startsWith("data: ") ? 6 : 5))
        .join("\n");
      return { event, data };
    });
}

/** Every check of a row's expectation on one outcome. */
export async function expectOutcome(
  row: Row,
  c: Combo,
  ctx: CallContext,
  call: ClientCall,
  outcome: Outcome,
  originHost: string,
): Promise<void> {
  const expected = row.expect(c);
  const id = call.id;
  const summary = `HTTP ${outcome.status} ${outcome.headers["content-type"] ?? ""}: ${outcome.body.slice(0, 300)}`;
  switch (expected.kind) {
    case "refused": {
      expect(outcome.received, "the origin received a refused call").toEqual([]);
      const status = c.wire === "jsonrpc" ? FAILURES[expected.reason].status : restStatus(expected.reason)[0];
      expect(outcome.status, summary).toBe(status);
      expect(outcome.headers["content-type"], summary).toMatch(/^application\/json/);
      expectErrorBody(c, expected.reason, outcome.body, expected.idNull ? null : id);
      if (expected.header) expect(outcome.headers[expected.header], `${expected.header} header`).toBeDefined();
      break;
    }
    case "failed": {
      expect(outcome.received.length, "the origin was not called").toBeGreaterThan(0);
      const status = expected.status ?? (c.wire === "jsonrpc" ? FAILURES[expected.reason].status : restStatus(expected.reason)[0]);
      expect(outcome.status, summary).toBe(status);
      expect(outcome.headers["content-type"], summary).toMatch(/^application\/json/);
      expectErrorBody(c, expected.reason, outcome.body, id, expected.status);
      expectNoOriginDetail(outcome, originHost);
      break;
    }
    case "answered": {
      expect(outcome.received.length, "the origin was not called").toBeGreaterThan(0);
      expect(outcome.ended, "the reply did not end").toBe(true);
      // A kept stream is read and numbered: each event in the client's form, with its id.
      const kept = c.kept === true && (outcome.headers["content-type"] ?? "").startsWith("text/event-stream");
      if (kept) expect(outcome.body, "a kept stream's events carry ids").toMatch(/^id: [0-9a-f]{64}\.1$/m);
      if (c.native && !kept) {
        expect(outcome.status, summary).toBe(200);
        expect(outcome.body, "a native reply is the origin's bytes").toBe(outcome.sent.at(-1));
      } else {
        expect(outcome.status, summary).toBeGreaterThanOrEqual(200);
        expect(outcome.status, summary).toBeLessThan(300);
        expectAnswerForm(c, outcome, id);
      }
      break;
    }
    case "admitted": {
      expect(outcome.received.length, "the origin was not called").toBeGreaterThan(0);
      expect(outcome.status, summary).toBeGreaterThanOrEqual(200);
      expect(outcome.status, summary).toBeLessThan(300);
      break;
    }
    case "streamError": {
      expect(outcome.received.length, "the origin was not called").toBeGreaterThan(0);
      expect(outcome.ended, `the stream did not end within ${row.read?.ms} ms; got ${outcome.body.length} bytes`).toBe(true);
      expect(outcome.body.length, "bytes the client received").toBeLessThan(REPLY_MAX + 8192);
      expect(outcome.headers["content-type"], summary).toMatch(/^text\/event-stream/);
      const events = sseEvents(outcome.body);
      const errors = events.filter((e) => e.event === "error");
      expect(errors, summary).toHaveLength(1);
      expect(events.at(-1)?.event, "the error event ends the stream").toBe("error");
      expectErrorBody(c, expected.reason, errors[0]!.data, id);
      expectNoOriginDetail(outcome, originHost);
      break;
    }
    case "streamsThrough": {
      expect(outcome.status, summary).toBe(200);
      expect(outcome.body.length, "a native stream passes the event's bytes on as they come").toBeGreaterThanOrEqual(BIG_EVENT / 2);
      expect(outcome.sent.at(-1)?.startsWith(outcome.body), "the bytes are the origin's").toBe(true);
      break;
    }
  }
  if (expected.kind !== "refused") for (const seen of outcome.received) expectAdmittedRequest(seen, ctx);
  await row.check?.(outcome, c, ctx);
}

/** A translated answer in the client's binding: JSON-RPC envelope with the id and a result, REST a body (or events) without an error. */
function expectAnswerForm(c: Combo, outcome: Outcome, id: string | undefined): void {
  const type = outcome.headers["content-type"] ?? "";
  const bodies = type.startsWith("text/event-stream")
    ? sseEvents(outcome.body).map((e) => {
        expect(e.event, outcome.body.slice(0, 300)).not.toBe("error");
        return e.data;
      })
    : [outcome.body];
  expect(bodies.length, "an answer with content").toBeGreaterThan(0);
  for (const text of bodies) {
    const value = JSON.parse(text) as Record<string, unknown>;
    if (c.wire === "jsonrpc") expect(value, text.slice(0, 300)).toMatchObject({ jsonrpc: "2.0", id, result: expect.anything() });
    else {
      expect(value, text.slice(0, 300)).not.toHaveProperty("error");
      expect(value, text.slice(0, 300)).not.toHaveProperty("code");
    }
  }
}

/**
 * The log events a row may produce, and must: its own, and one `access` record per call (`before` and the
 * row's). `exact: false` for a process's output, where a record may trail its reply into the next row's
 * lines: the row's own record is then required, the exact count left to the runner that sees lines in order.
 */
export function expectLogs(row: Row, c: Combo, events: string[], before = 0, exact = true): void {
  const wanted = row.logs?.(c) ?? [];
  for (const event of wanted) expect(events, `log event ${event}`).toContain(event);
  const calls = before + (row.unrouted?.(c) ? 0 : 1);
  const records = events.filter((e) => e === "access").length;
  if (exact) expect(records, "one access record per call").toBe(calls);
  else expect(records, "the call's access record").toBeGreaterThanOrEqual(calls);
  expect(
    events.filter((e) => !wanted.includes(e) && e !== "access"),
    "unexpected log events",
  ).toEqual([]);
}

/** The access record of a row's call, in its binding: status as answered, the origin's side, the trace the origin saw. */
export function expectAccess(row: Row, c: Combo, ctx: CallContext, outcome: Outcome, record: Record<string, unknown> | undefined): void {
  if (row.unrouted?.(c)) return;
  expect(record, "the call's access record").toBeDefined();
  expect(record).toMatchObject({ binding: c.wire === "jsonrpc" ? "jsonrpc" : "http+json", status: outcome.status });
  const traceId = record?.traceId;
  expect(traceId).toMatch(/^[0-9a-f]{32}$/);
  const seen = outcome.received[0];
  if (!seen) {
    expect(record?.attempts, "a refused call reached no origin").toBe(0);
    return;
  }
  expect(record).toMatchObject({ originVersion: c.originVersion, bridged: !c.native, caller: `partnerKey:${ctx.caller}`, attempts: 1 });
  expect(seen.headers.traceparent, "the origin is told the call's trace").toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-0[01]$`));
}

/** Every (row, combination) that applies, with the indices that name its caller. */
/** Every (row, combination) the filter takes; `kept`: run by deployments with STREAM_RESUME=on. */
export function cases(filter: (c: Combo) => boolean = () => true, kept = false) {
  return ROWS.flatMap((row, r) =>
    COMBOS.flatMap((base, c) => {
      const combo = kept ? { ...base, kept } : base;
      return filter(combo) && (row.applies?.(combo) ?? true)
        ? [{ row, combo, rowIndex: r, comboIndex: c, name: `${row.name} | ${combo.name}` }]
        : [];
    }),
  );
}
