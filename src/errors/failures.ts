// Every failure the edge answers by itself, in one table (as @a2a-js/sdk keeps
// its error specs): a reason (A2A 1.0 §9.5 ErrorInfo `reason`, UPPER_SNAKE_CASE),
// the HTTP status, the JSON-RPC code and a fixed message. Messages never carry
// request data, stacks or origin addresses; a row may add a fixed detail.
// Both renderers (errors/responses.ts) read this table: the JSON-RPC envelope
// on the RPC path, the A2A HTTP error shape (google.rpc.Status, §11.6) elsewhere.

/** google.rpc.Code names by HTTP status (A2A 1.0 §11.6 maps one to the other). */
export const STATUS_NAMES = {
  200: "OK",
  400: "INVALID_ARGUMENT",
  401: "UNAUTHENTICATED",
  403: "PERMISSION_DENIED",
  404: "NOT_FOUND",
  405: "METHOD_NOT_ALLOWED",
  408: "DEADLINE_EXCEEDED",
  409: "ABORTED",
  412: "FAILED_PRECONDITION",
  413: "PAYLOAD_TOO_LARGE",
  415: "UNSUPPORTED_MEDIA_TYPE",
  422: "INVALID_ARGUMENT",
  429: "RESOURCE_EXHAUSTED",
  500: "INTERNAL",
  502: "UNAVAILABLE",
  503: "UNAVAILABLE",
  504: "DEADLINE_EXCEEDED",
} as const;
type HttpStatus = keyof typeof STATUS_NAMES;

interface FailureSpec {
  /** HTTP status. JSON-RPC errors about the call itself travel with 200, as the A2A SDKs send and expect them. */
  status: HttpStatus;
  /** JSON-RPC 2.0 / A2A error code. */
  code: number;
  message: string;
  /** Errors A2A defines carry domain "a2a-protocol.org" (§9.5); the edge's own, "agent-card-edge". */
  a2a?: true;
}

const JSON_RPC = { code: -32603, message: "Internal error" } as const;
const INVALID = { code: -32600, message: "Request payload validation error" } as const;

export const FAILURES = {
  // The call itself (JSON-RPC 2.0 §5.1, A2A 1.0 §9.5).
  PARSE_ERROR: { status: 200, code: -32700, message: "Invalid JSON payload" },
  INVALID_REQUEST: { status: 200, ...INVALID },
  METHOD_NOT_FOUND: { status: 200, code: -32601, message: "Method not found" },
  INVALID_PARAMS: { status: 200, code: -32602, message: "Invalid parameters" },
  VERSION_NOT_SUPPORTED: { status: 200, code: -32009, message: "Protocol version not supported", a2a: true },
  // The request's framing, refused before the call is read.
  PAYLOAD_TOO_LARGE: { status: 413, ...INVALID },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, ...INVALID },
  REQUEST_TIMEOUT: { status: 408, ...INVALID },
  // The origin.
  ORIGIN_NOT_CONFIGURED: { status: 503, ...JSON_RPC },
  ORIGIN_UNREACHABLE: { status: 502, ...JSON_RPC },
  ORIGIN_TIMEOUT: { status: 504, ...JSON_RPC },
  ORIGIN_ERROR: { status: 502, ...JSON_RPC },
  ORIGIN_INVALID_RESPONSE: { status: 502, ...JSON_RPC },
  ORIGIN_STREAM_BROKEN: { status: 502, ...JSON_RPC },
  // A kept stream (STREAM_RESUME=on) ended by the edge: its log's bound, its object lost, its client too far behind.
  STREAM_CUT: { status: 502, ...JSON_RPC, message: "Stream cut" },
  // HTTP routes (cards, JWKS, page, admin).
  NOT_FOUND: { status: 404, code: -32601, message: "Not found" },
  METHOD_NOT_ALLOWED: { status: 405, code: -32601, message: "Method not allowed" },
  BAD_REQUEST: { status: 400, ...INVALID },
  UNAUTHENTICATED: { status: 401, code: -32600, message: "Authentication required" },
  PERMISSION_DENIED: { status: 403, code: -32600, message: "Permission denied" },
  RATE_LIMITED: { status: 429, ...JSON_RPC, message: "Too many requests" },
  CONFLICT: { status: 409, ...INVALID },
  PRECONDITION_FAILED: { status: 412, ...INVALID },
  INVALID_DOCUMENT: { status: 422, ...INVALID },
  UNAVAILABLE: { status: 503, ...JSON_RPC },
  // A host's card-source document exists but cannot be read, and no good copy of it is kept.
  CARD_UNAVAILABLE: { status: 503, ...JSON_RPC, message: "Agent card unavailable" },
  INTERNAL: { status: 500, ...JSON_RPC },
} as const satisfies Record<string, FailureSpec>;

export type FailureReason = keyof typeof FAILURES;

/** A failure as the pipeline passes it on: a row of the table, plus what this occurrence adds. */
export interface Failure {
  failed: true;
  reason: FailureReason;
  /** A fixed sentence chosen by the code (never request data) appended to the message. */
  detail?: string | undefined;
  /** google.rpc.ErrorInfo metadata (strings), e.g. the supported versions. */
  metadata?: Record<string, string> | undefined;
  /** Response headers this failure needs (Allow, WWW-Authenticate, Retry-After). */
  headers?: Record<string, string> | undefined;
  /** The HTTP status when it is not the table's: only an origin's own 4xx, passed on with the edge's body. */
  status?: number | undefined;
  /** What is wrong with which field (e.g. the zod issues of a refused document). */
  violations?: readonly FieldViolation[] | undefined;
}

/** One field-level problem: a dotted path into the input and what is wrong there. */
export interface FieldViolation {
  path: string;
  message: string;
}

type FailureExtra = Omit<Failure, "failed" | "reason" | "detail">;

export function failure(reason: FailureReason, detail?: string, extra: FailureExtra = {}): Failure {
  return { failed: true, reason, detail, ...extra };
}

/** Pipeline stages return a value or a Failure; this tells them apart. */
export function isFailure(value: unknown): value is Failure {
  return typeof value === "object" && value !== null && (value as { failed?: unknown }).failed === true;
}

/** A failure thrown from a Hono handler; `onError` renders it in the A2A HTTP error shape. */
export class EdgeError extends Error {
  readonly failure: Failure;
  constructor(reason: FailureReason, detail?: string, extra: FailureExtra = {}) {
    super(detail ?? FAILURES[reason].message);
    this.name = "EdgeError";
    this.failure = failure(reason, detail, extra);
  }
}
