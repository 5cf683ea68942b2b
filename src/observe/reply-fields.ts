// What an access record reads from an answer the client received: the error
// code, the ErrorInfo reason, and the task's state and context id when the
// answer has one. Ids and states only, never a message's content. Read from
// the client's own form, whatever the binding and version:
//   JSON-RPC: `{error: {code, data: [ErrorInfo]}}` or `{result: ...}` (A2A 1.0 §9.5, 0.3 §7);
//   HTTP+JSON 1.0: `{error: {status, details: [ErrorInfo]}}` (google.rpc.Status, A2A 1.0 §11.6);
//   HTTP+JSON 0.3: `{code, message}`;
// results: a Task (`status.state`, `contextId`), a Message, 1.0's `{task}` /
// `{message}` / `{statusUpdate}` / `{artifactUpdate}` wrappers, 0.3's `kind`ed events.

export interface ReplyFields {
  /** A JSON-RPC error code, a google.rpc.Code name (1.0 REST) or the 0.3 REST error code. */
  errorCode?: number | string;
  /** The ErrorInfo reason (A2A 1.0 §9.5), when the error carries one. */
  reason?: string;
  taskState?: string;
  contextId?: string;
}

type Json = Record<string, unknown>;
const ERROR_INFO = "type.googleapis.com/google.rpc.ErrorInfo";
const WRAPPERS = ["task", "message", "statusUpdate", "artifactUpdate"];

const objectOf = (value: unknown): Json | undefined =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Json) : undefined;

function reasonIn(details: unknown): string | undefined {
  if (!Array.isArray(details)) return undefined;
  for (const detail of details) {
    const info = objectOf(detail);
    if (info?.["@type"] === ERROR_INFO && typeof info.reason === "string") return info.reason;
  }
  return undefined;
}

/** The error of an answer in any of the three shapes, or undefined for a result. */
function errorOf(body: Json): ReplyFields | undefined {
  const error = objectOf(body.error);
  if (error && typeof error.code === "number" && body.jsonrpc === "2.0") return { errorCode: error.code, reason: reasonIn(error.data) };
  if (error && typeof error.status === "string") return { errorCode: error.status, reason: reasonIn(error.details) };
  if (typeof body.code === "number" && typeof body.message === "string" && !("result" in body)) return { errorCode: body.code };
  return undefined;
}

/** The task (or message, or update) a result is about. */
function subjectOf(result: Json): Json {
  for (const name of WRAPPERS) {
    const inner = objectOf(result[name]);
    if (inner) return inner;
  }
  return result;
}

/** The fields of one answer (a whole JSON body, or one SSE event's data); `{}` when it has none of them. */
export function replyFields(value: unknown): ReplyFields {
  const body = objectOf(value);
  if (!body) return {};
  const error = errorOf(body);
  if (error) return error;
  const result = objectOf(body.jsonrpc === "2.0" ? body.result : body);
  if (!result) return {};
  const subject = subjectOf(result);
  const fields: ReplyFields = {};
  const state = objectOf(subject.status)?.state;
  if (typeof state === "string") fields.taskState = state;
  if (typeof subject.contextId === "string") fields.contextId = subject.contextId;
  return fields;
}
