// The two renderers of the failure table: the JSON-RPC error envelope (RPC
// path; it carries the request id) and the A2A HTTP error shape
// (google.rpc.Status with ErrorInfo details, A2A 1.0 §11.6) for every other route.
import { HTTPException } from "hono/http-exception";
import { log } from "../log";
import { currentTraceId } from "../observe/current";
import { EdgeError, FAILURES, type Failure, type FieldViolation, STATUS_NAMES } from "./failures";

export type RpcId = string | number | null;

interface RpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

const ERROR_INFO = "type.googleapis.com/google.rpc.ErrorInfo";

function errorInfo(failure: Failure): Record<string, unknown> {
  const spec = FAILURES[failure.reason];
  const info: Record<string, unknown> = {
    "@type": ERROR_INFO,
    reason: failure.reason,
    domain: "a2a" in spec ? "a2a-protocol.org" : "agent-card-edge",
  };
  if (failure.metadata) info.metadata = failure.metadata;
  return info;
}

/**
 * The call's W3C trace id as google.rpc.RequestInfo `requestId` ("metadata about the request that clients
 * can attach when filing a bug"), so a user can quote it and an operator find every line of the call.
 */
function withRequestInfo(details: unknown[]): unknown[] {
  const traceId = currentTraceId();
  if (traceId !== undefined) details.push({ "@type": "type.googleapis.com/google.rpc.RequestInfo", requestId: traceId });
  return details;
}

/** The JSON-RPC `error` member: the table's code and message (plus a fixed detail), ErrorInfo in `data` (A2A 1.0 §9.5). */
function rpcErrorObject(failure: Failure): RpcErrorObject {
  const { code, message } = FAILURES[failure.reason];
  // Field violations (a refused push config's field) travel as google.rpc.BadRequest beside the ErrorInfo.
  const data = withRequestInfo(failure.violations ? [errorInfo(failure), badRequest(failure.violations)] : [errorInfo(failure)]);
  return { code, message: failure.detail ? `${message}: ${failure.detail}` : message, data };
}

export function rpcErrorBody(id: RpcId, failure: Failure): string {
  return JSON.stringify({ jsonrpc: "2.0", id, error: rpcErrorObject(failure) });
}

/** A JSON-RPC error envelope with the request's id, at the table's HTTP status. */
export function rpcFailureResponse(failure: Failure, id: RpcId, headers?: Headers): Response {
  const out = new Headers(headers);
  out.set("content-type", "application/json");
  for (const [name, value] of Object.entries(failure.headers ?? {})) out.set(name, value);
  return new Response(rpcErrorBody(id, failure), { status: failure.status ?? FAILURES[failure.reason].status, headers: out });
}

/** Field-level problems as google.rpc.BadRequest (the detail google.rpc defines for invalid arguments). */
function badRequest(violations: readonly FieldViolation[]): Record<string, unknown> {
  return {
    "@type": "type.googleapis.com/google.rpc.BadRequest",
    fieldViolations: violations.map((v) => ({ field: v.path, description: v.message })),
  };
}

/** `{"error":{"code":404,"status":"NOT_FOUND","message":...,"details":[ErrorInfo, BadRequest?]}}` and its status. */
export function httpFailureBody(failure: Failure): { status: number; body: string } {
  const { status, message } = FAILURES[failure.reason];
  const details: unknown[] = [errorInfo(failure)];
  if (failure.violations) details.push(badRequest(failure.violations));
  withRequestInfo(details);
  // An origin's own 4xx keeps its status (classify), with the edge's body.
  const code = failure.status ?? status;
  const names: Readonly<Record<number, string>> = STATUS_NAMES;
  const error = { code, status: names[code] ?? names[status] ?? "UNKNOWN", message: failure.detail ?? message, details };
  return { status: code, body: JSON.stringify({ error }) };
}

export function httpFailureResponse(failure: Failure): Response {
  const { status, body } = httpFailureBody(failure);
  return new Response(body, { status, headers: { "content-type": "application/json", ...failure.headers } });
}

/** The one place a thrown error becomes a response (Hono's onError and the card fast path). */
export function renderError(error: unknown): Response {
  if (error instanceof EdgeError) return httpFailureResponse(error.failure);
  // Hono's middleware (bearer-auth) throws its answer, already rendered by our failure table.
  if (error instanceof HTTPException) return error.getResponse();
  const { name, message } = error instanceof Error ? error : { name: "NonError", message: String(error) };
  log("error", "unhandled_error", { error: name, message });
  return httpFailureResponse({ failed: true, reason: "INTERNAL" });
}
