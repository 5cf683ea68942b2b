// A JSON-RPC answer as the REST answer of the same version: status and body,
// and each SSE event of a stream. 1.0 REST bodies are the proto messages'
// JSON, which is what 1.0 JSON-RPC results already are (spec §11.4); 0.3's
// are its proto's JSON (proto-v03.ts). Errors: 1.0 answers a
// google.rpc.Status (spec §11.6) with the status of the §5.4 table; 0.3 the
// JSON-RPC error object itself (@a2a-js/sdk 1.3 toCompatErrorBody), with the
// same statuses (its LEGACY_CODE_TO_HTTP_STATUS).
import type { Operation } from "../a2a/operations";
import { ERROR_DOMAIN, ERROR_INFO_TYPE } from "../a2a/v1";
import { errorFor, REASONS } from "../bridge/error-data";
import type { Convert } from "../bridge/reshape";
import { isUnreadable, unreadableError } from "../bridge/unreadable";
import { isJsonObject, jsonObject } from "../json";
import { cardToProto, pushConfigToProto, streamToProto, taskToProto } from "./proto-v03";
import type { RestVersion } from "./rest-routes";

export interface RestResponse {
  status: number;
  /** Absent for 204 No Content. */
  body?: unknown;
}

/**
 * google.rpc.Code names and their HTTP mapping (google/rpc/code.proto), which
 * is also spec §5.4's: an A2A error's HTTP status is its gRPC status's.
 */
const HTTP_STATUS: Readonly<Record<string, number>> = {
  NOT_FOUND: 404,
  FAILED_PRECONDITION: 400,
  INVALID_ARGUMENT: 400,
  INTERNAL: 500,
  UNIMPLEMENTED: 501,
  UNKNOWN: 500,
};
const [NOT_FOUND, FAILED, INVALID, INTERNAL] = ["NOT_FOUND", "FAILED_PRECONDITION", "INVALID_ARGUMENT", "INTERNAL"];

/** gRPC status of -32001 ... -32009 in order (spec §5.4; src/a2a/v1.ts A2A_ERRORS, which the tests hold this list to). */
const A2A_STATUS = [NOT_FOUND, FAILED, FAILED, FAILED, INVALID, INTERNAL, FAILED, FAILED, FAILED];
/** ErrorInfo reasons of -32001 ... -32009: the bridge's seven and 1.0's two more (spec §9.5). */
export const A2A_REASONS = [...REASONS, "EXTENSION_SUPPORT_REQUIRED", "VERSION_NOT_SUPPORTED"];

/**
 * JSON-RPC's own errors have no row in §5.4: each takes the google.rpc.Code
 * that means it: a request the agent cannot read is INVALID_ARGUMENT, a method
 * it does not have UNIMPLEMENTED (501, as @a2a-js/sdk 1.3 answers 0.3 REST
 * -32601), its own failure INTERNAL. Any other code is UNKNOWN.
 */
const RPC_STATUS: Readonly<Record<number, string>> = {
  [-32700]: INVALID,
  [-32600]: INVALID,
  [-32601]: "UNIMPLEMENTED",
  [-32602]: INVALID,
  [-32603]: INTERNAL,
};

/** gRPC status name and ErrorInfo reason (A2A errors only) of a JSON-RPC error code. */
function statusOf(code: unknown): readonly [string, string | undefined] {
  if (typeof code !== "number") return ["UNKNOWN", undefined];
  return [A2A_STATUS[-32001 - code] ?? RPC_STATUS[code] ?? "UNKNOWN", A2A_REASONS[-32001 - code]];
}

/**
 * A JSON-RPC `error` object as a REST error. 1.0: `details` are the error's
 * `data` (a list of ProtoJSON Any; other data rides as a google.protobuf.Value,
 * bridge/error-data.ts), with the ErrorInfo that §11.6 requires of an A2A error
 * added when missing.
 */
export function restError(version: RestVersion, error: unknown): RestResponse {
  const { code, message } = jsonObject(error) ?? {};
  const [name, reason] = statusOf(code);
  const status = HTTP_STATUS[name] ?? 500;
  if (version === "0.3") return { status, body: isJsonObject(error) ? error : { code: -32603, message: "Internal error" } };
  const data = jsonObject(errorFor(error, "1.0"))?.data;
  const details = Array.isArray(data) ? [...data] : [];
  if (reason && !details.some((detail) => jsonObject(detail)?.["@type"] === ERROR_INFO_TYPE)) {
    details.unshift({ "@type": ERROR_INFO_TYPE, reason, domain: ERROR_DOMAIN });
  }
  return { status, body: { error: { code: status, status: name, message: typeof message === "string" ? message : "", details } } };
}

/** 0.3 results as its proto's JSON; the streaming operations' are events (message/send's result is a SendMessageResponse, the same members). */
const PROTO_RESULTS: Partial<Record<Operation, Convert>> = {
  sendMessage: streamToProto,
  sendStreamingMessage: streamToProto,
  subscribeToTask: streamToProto,
  getTask: taskToProto,
  cancelTask: taskToProto,
  createPushNotificationConfig: pushConfigToProto,
  getPushNotificationConfig: pushConfigToProto,
  // 0.3 answers the bare list; the proto a ListTaskPushNotificationConfigResponse (no next page: 0.3 lists all at once).
  listPushNotificationConfigs: (result) => (Array.isArray(result) ? { configs: result.map(pushConfigToProto) } : result),
  getExtendedAgentCard: cardToProto,
};

/**
 * A whole JSON-RPC response to `operation` as the REST response. Success is
 * 200, except as the @a2a-js/sdk 1.3 REST server answers: 201 for a created
 * push config (and for 0.3 message:send), 204 without a body for a deleted one
 * (1.0 google.protobuf.Empty, 0.3 null). A reply with neither result nor error
 * is InvalidAgentResponseError.
 */
export function jsonRpcToRestResponse(operation: Operation, version: RestVersion, envelope: unknown): RestResponse {
  const reply = jsonObject(envelope);
  if (reply && Object.hasOwn(reply, "error")) return restError(version, reply.error);
  if (!reply || !Object.hasOwn(reply, "result")) {
    return restError(version, { code: -32006, message: "Invalid agent response" });
  }
  if (operation === "deletePushNotificationConfig") return { status: 204 };
  const created = operation === "createPushNotificationConfig" || (version === "0.3" && operation === "sendMessage");
  const toProto = version === "0.3" ? PROTO_RESULTS[operation] : undefined;
  const body = toProto ? toProto(reply.result) : reply.result;
  // A result no reader can make out is the origin's InvalidAgentResponseError, never a half-translated body.
  if (isUnreadable(body)) return restError(version, unreadableError(version === "0.3" ? "0.3" : "1.0"));
  return { status: created ? 201 : 200, body };
}

/** An SSE event after which the stream ends: the origin sent something the edge cannot read. */
export interface LastEvent {
  text: string;
  end: true;
  /** What was unreadable, for the log. */
  unreadable: string;
}

/**
 * One SSE event of a stream (message:stream, subscribe), from the JSON-RPC
 * envelope of the event to the lines of the REST event (no blank line after):
 * REST streams carry the StreamResponse itself, no envelope (spec §11.7; 0.3:
 * its proto's StreamResponse); an error is an `event: error` with the REST
 * error body (@a2a-js/sdk 1.3 formatSSEErrorEvent). An envelope or event the
 * edge cannot read is the REST error of InvalidAgentResponseError, the last
 * event of the stream: never `data: undefined` or a half-translated object.
 */
export function jsonRpcEventToRestEvent(version: RestVersion, envelope: unknown): string | LastEvent {
  const reply = jsonObject(envelope);
  if (reply && Object.hasOwn(reply, "error")) return `event: error\ndata: ${JSON.stringify(restError(version, reply.error).body)}`;
  const result = reply && Object.hasOwn(reply, "result") ? reply.result : reply;
  const event = result === undefined ? undefined : version === "0.3" ? streamToProto(result) : result;
  if (event !== undefined && !isUnreadable(event)) return `data: ${JSON.stringify(event)}`;
  const unreadable = event === undefined ? "an SSE event that is not a JSON-RPC result" : event.what;
  const error = restError(version, unreadableError(version === "0.3" ? "0.3" : "1.0")).body;
  return { text: `event: error\ndata: ${JSON.stringify(error)}`, end: true, unreadable };
}
