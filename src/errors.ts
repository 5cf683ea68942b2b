// Typed HTTP errors, rendered by one function as a google.rpc.Status-shaped
// body (the A2A 1.0 HTTP+JSON error form, §11.6). Messages are fixed strings
// chosen here: they never carry request data, stacks or origin URLs.
import { log } from "./log";

export const HTTP_STATUS = {
  400: "INVALID_ARGUMENT",
  401: "UNAUTHENTICATED",
  403: "PERMISSION_DENIED",
  404: "NOT_FOUND",
  405: "METHOD_NOT_ALLOWED",
  408: "DEADLINE_EXCEEDED",
  409: "ABORTED",
  412: "FAILED_PRECONDITION",
  428: "FAILED_PRECONDITION",
  429: "RESOURCE_EXHAUSTED",
  413: "PAYLOAD_TOO_LARGE",
  415: "UNSUPPORTED_MEDIA_TYPE",
  422: "INVALID_ARGUMENT",
  500: "INTERNAL",
  502: "UNAVAILABLE",
  503: "UNAVAILABLE",
  504: "DEADLINE_EXCEEDED",
} as const;
export type HttpStatus = keyof typeof HTTP_STATUS;

export class HttpError extends Error {
  constructor(
    readonly status: HttpStatus,
    message: string,
    readonly headers: Record<string, string> = {},
    readonly details?: unknown,
  ) {
    super(message);
    this.name = "HttpError";
  }
}

const JSON_HEADERS = { "content-type": "application/json" } as const;

export function errorResponse(status: HttpStatus, message: string, headers: Record<string, string> = {}, details?: unknown): Response {
  const error: Record<string, unknown> = { code: status, status: HTTP_STATUS[status], message };
  if (details !== undefined) error.details = details;
  return new Response(JSON.stringify({ error }), { status, headers: { ...JSON_HEADERS, ...headers } });
}

/** The one place a thrown error becomes a response. */
export function renderError(error: unknown): Response {
  if (error instanceof HttpError) return errorResponse(error.status, error.message, error.headers, error.details);
  const { name, message } = error instanceof Error ? error : { name: "NonError", message: String(error) };
  log("error", "unhandled_error", { error: name, message });
  return errorResponse(500, "Internal error");
}
