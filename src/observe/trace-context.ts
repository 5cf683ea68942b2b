// W3C Trace Context (Level 1, https://www.w3.org/TR/trace-context/): the
// client's `traceparent` and `tracestate` are read as the spec says and only
// then passed on; the edge is one span of the trace, so the origin receives
// the edge's own parent-id (§3.2.2.4: "the ID of this request as known by the
// caller"). A header the edge cannot read is never forwarded: the call gets a
// fresh trace instead (§4.3: "If the traceparent header is not valid, the
// vendor creates a new trace").

export interface TraceContext {
  /** 32 lower-case hex digits, never all zero (§3.2.2.3). */
  traceId: string;
  /** The edge's span: the parent-id the origin receives (§3.2.2.4). */
  spanId: string;
  /** The client's span, when the client sent a valid traceparent. */
  parentId: string | undefined;
  /** trace-flags, two hex digits (§3.2.2.5); bit 0 is `sampled`. */
  flags: string;
  /** The client's tracestate, when it and traceparent were valid (§3.3). */
  state: string | undefined;
}

const HEX = "0123456789abcdef";
const ZERO_TRACE = "0".repeat(32);
const ZERO_SPAN = "0".repeat(16);
// §3.2.2: version 00 is exactly four fields; a later version may add fields after a `-`, and `ff` is invalid.
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
// §3.3.1.3.1/2: a simple key or `tenant@system`; a value of printable ASCII without `,` and `=`, not ending in a space.
const STATE_MEMBER =
  /^([a-z][_0-9a-z\-*/]{0,255}|[a-z0-9][_0-9a-z\-*/]{0,240}@[a-z][_0-9a-z\-*/]{0,13})=[\x20-\x2b\x2d-\x3c\x3e-\x7e]{0,255}[\x21-\x2b\x2d-\x3c\x3e-\x7e]$/;
/** §3.3.1.1: at most 32 list-members; a header longer than 512 characters may be dropped whole (§3.3.1.5). */
const MAX_STATE_MEMBERS = 32;
const MAX_STATE_CHARS = 512;

/** `n` random bytes as lower-case hex (§3.2.2.3 and §3.2.2.4 ask for random ids). */
function randomHex(bytes: number): string {
  const values = crypto.getRandomValues(new Uint8Array(bytes));
  let out = "";
  for (const byte of values) out += HEX.charAt(byte >> 4) + HEX.charAt(byte & 15);
  return out;
}

/** A fresh trace-id and span-id from one draw of the runtime's random source. */
function freshIds(): RuntimeSpan {
  const hex = randomHex(24);
  return { traceId: hex.slice(0, 32), spanId: hex.slice(32) };
}

/** The client's traceparent, when valid: trace-id, parent-id and flags; undefined for anything else. */
function parseTraceparent(value: string | null): { traceId: string; parentId: string; flags: string } | undefined {
  if (value === null) return undefined;
  const match = TRACEPARENT.exec(value.trim());
  if (!match) return undefined;
  const [, version, traceId, parentId, flags, rest] = match as unknown as [string, string, string, string, string, string | undefined];
  if (version === "ff" || (version === "00" && rest !== undefined)) return undefined;
  if (traceId === ZERO_TRACE || parentId === ZERO_SPAN) return undefined;
  // §3.2.4: a version the edge does not know is read as version 00, and passed on as 00.
  return { traceId, parentId, flags };
}

/** The client's tracestate, when every list-member is well formed; else none at all (§3.3.1.1 and §3.3.1.5). */
function parseTracestate(value: string | null): string | undefined {
  if (value === null || value.length > MAX_STATE_CHARS) return undefined;
  const members = value
    .split(",")
    .map((member) => member.trim())
    .filter((member) => member !== "");
  if (members.length === 0 || members.length > MAX_STATE_MEMBERS) return undefined;
  const keys = new Set<string>();
  for (const member of members) {
    if (!STATE_MEMBER.test(member)) return undefined;
    const key = member.slice(0, member.indexOf("="));
    if (keys.has(key)) return undefined;
    keys.add(key);
  }
  return members.join(",");
}

/** A span the runtime traces (Workers automatic tracing): its ids become a fresh trace's, so both views name one trace. */
export interface RuntimeSpan {
  traceId: string;
  spanId: string;
}

/**
 * The call's trace: the client's (its trace-id and flags, a new span of the edge's) when its traceparent is
 * valid, else a fresh one (the runtime's own span when it traces this request, else random ids) whose
 * `sampled` flag says whether the edge records the call (§3.2.2.5.1).
 */
export function traceOf(headers: Headers, recorded: boolean, runtime?: RuntimeSpan): TraceContext {
  const client = parseTraceparent(headers.get("traceparent"));
  if (client) {
    const state = parseTracestate(headers.get("tracestate"));
    return { traceId: client.traceId, spanId: randomHex(8), parentId: client.parentId, flags: client.flags, state };
  }
  const ids = runtime && runtime.traceId !== ZERO_TRACE ? runtime : freshIds();
  return { traceId: ids.traceId, spanId: ids.spanId, parentId: undefined, flags: recorded ? "01" : "00", state: undefined };
}

/** The headers the origin receives (§3.2 and §3.3): the edge as the parent, the client's tracestate as it came. */
export function setTraceHeaders(headers: Headers, trace: TraceContext): void {
  headers.set("traceparent", `00-${trace.traceId}-${trace.spanId}-${trace.flags}`);
  if (trace.state === undefined) headers.delete("tracestate");
  else headers.set("tracestate", trace.state);
}
