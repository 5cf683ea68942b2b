// The other way, for an origin that speaks REST: a JSON-RPC call as the REST
// request of the same version, and the REST answer as the JSON-RPC answer.
// The reverse of rest-request.ts and rest-response.ts, by the same tables:
// 1.0 path variables from the request message (the rest of it is the body of
// a `body: "*"` POST, else the query), 0.3 via 1.0's params (the bridge) and
// its proto's JSON for the two bodies it has.
import { securityRequirementsV03, securitySchemeFromV1 } from "../a2a/correspondence";
import { OPERATIONS, type Operation } from "../a2a/operations";
import { mapValues, presentFields } from "../a2a/presence";
import { ERROR_DOMAIN, ERROR_INFO_TYPE } from "../a2a/v1";
import { METHODS } from "../bridge/params";
import { type Convert, listOf } from "../bridge/reshape";
import { isJsonObject, type JsonObject, jsonObject } from "../json";
import { pushConfigFromProto, pushConfigToProto, sendToProto, streamFromProto, taskFromProto } from "./proto-v03";
import { BODY_V1 } from "./rest-request";
import { A2A_REASONS } from "./rest-response";
import { type RestVersion, restPath } from "./rest-routes";

export interface RestRequest {
  method: string;
  /** Percent-encoded, `/` first, after the REST prefix. */
  path: string;
  /** `?`-prefixed, or "". */
  query: string;
  /** Absent: no body. */
  body?: unknown;
}

/**
 * The REST request for a JSON-RPC call of `version`; undefined for a method
 * that version's REST does not have (0.3 ListTasks, an extension's) or a call
 * without the ids its path needs: the caller answers -32601 / -32602;
 * `invalid` for an id that is not one path segment (the caller answers -32602).
 */
export function jsonRpcToRest(
  call: { method: string; params?: unknown },
  version: RestVersion,
): RestRequest | { invalid: string } | undefined {
  const index = METHODS.findIndex((row) => row[version === "1.0" ? 1 : 0] === call.method);
  const [row, operation] = [METHODS[index], OPERATIONS[index]];
  if (!row || !operation) return undefined;
  // 0.3 params as 1.0's say where each id goes (`id` -> `taskId` under a push config, and so on).
  const params = jsonObject(version === "1.0" ? call.params : row[2](call.params)) ?? {};
  // Under a push config the task is `taskId` and the config `id` (proto requests).
  const push = operation.includes("PushNotification");
  const fields = { tenant: "tenant", id: push ? "taskId" : "id", configId: "id" } as const;
  const value = (name: string) => (typeof params[name] === "string" && params[name] !== "" ? String(params[name]) : undefined);
  const target = restPath(
    operation,
    version,
    presentFields({ tenant: value("tenant"), id: value(fields.id), configId: push ? value("id") : undefined }),
  );
  if (!target) return undefined;
  if ("missing" in target) return { invalid: `${fields[target.missing]} is required` };
  if ("invalid" in target) return { invalid: `${fields[target.invalid]} must be one path segment` };
  const bound: string[] = ["tenant", ...target.names.map((name) => fields[name])];
  const rest = Object.fromEntries(Object.entries(params).filter(([name]) => !bound.includes(name)));
  const body = version === "0.3" ? BODY_V03[operation]?.(call.params) : BODY_V1.has(operation) ? rest : undefined;
  const query = new URLSearchParams();
  if (target.method !== "POST") {
    for (const [name, value] of Object.entries(rest))
      if (["string", "number", "boolean"].includes(typeof value)) query.set(name, String(value));
  }
  const search = query.toString();
  // A body of nothing is no body (CancelTask's, as the SDK client sends it).
  const sent = isJsonObject(body) && Object.keys(body).length === 0 ? undefined : body;
  return { method: target.method, path: target.path, query: search && `?${search}`, ...(sent === undefined ? {} : { body: sent }) };
}

/** 0.3's two bodies, in its proto's JSON (its other POSTs, cancel and subscribe, carry none). */
const BODY_V03: Partial<Record<Operation, Convert>> = {
  sendMessage: sendToProto,
  sendStreamingMessage: sendToProto,
  createPushNotificationConfig: pushConfigToProto,
};

/** The proto's card -> the 0.3 JSON card: security schemes in the `type` form, requirements `{name: [scopes]}` (src/a2a/correspondence.ts). */
function cardFromProto(card: unknown): unknown {
  if (!isJsonObject(card)) return card;
  const { securitySchemes: schemes, security, skills } = card;
  const skill: Convert = (value) =>
    isJsonObject(value) ? presentFields({ ...value, security: securityRequirementsV03(value.security, undefined) }) : value;
  const securitySchemes = isJsonObject(schemes) ? mapValues(schemes, securitySchemeFromV1) : schemes;
  return presentFields({ ...card, securitySchemes, security: securityRequirementsV03(security, undefined), skills: listOf(skill)(skills) });
}

/** 0.3 results from its proto's JSON (the reverse of rest-response.ts PROTO_RESULTS). */
const JSONRPC_RESULTS: Partial<Record<Operation, Convert>> = {
  sendMessage: streamFromProto,
  sendStreamingMessage: streamFromProto,
  subscribeToTask: streamFromProto,
  getTask: taskFromProto,
  cancelTask: taskFromProto,
  createPushNotificationConfig: pushConfigFromProto,
  getPushNotificationConfig: pushConfigFromProto,
  listPushNotificationConfigs: (result) =>
    isJsonObject(result) ? (Array.isArray(result.configs) ? result.configs : []).map((c) => pushConfigFromProto(c)) : result,
  deletePushNotificationConfig: () => null,
  getExtendedAgentCard: cardFromProto,
};

/**
 * A REST error body as a JSON-RPC error. 1.0: the A2A error its ErrorInfo
 * reason names (spec §11.6), else by status: INVALID_ARGUMENT is -32602, a
 * route or method the origin lacks (404/501 without a reason) -32601, anything
 * else -32603; `details` become `data`. 0.3: the body is the JSON-RPC error.
 */
function jsonRpcError(version: RestVersion, status: number, body: unknown): JsonObject {
  if (version === "0.3" && isJsonObject(body) && typeof body.code === "number") return body;
  const error = jsonObject(jsonObject(body)?.error) ?? {};
  const details = Array.isArray(error.details) ? error.details : [];
  const info = details.map(jsonObject).find((detail) => detail?.["@type"] === ERROR_INFO_TYPE && detail.domain === ERROR_DOMAIN);
  const at = A2A_REASONS.indexOf(String(info?.reason));
  const code = at >= 0 ? -32001 - at : status === 400 ? -32602 : status === 404 || status === 501 ? -32601 : -32603;
  const message = typeof error.message === "string" ? error.message : `HTTP ${status}`;
  return details.length > 0 && version === "1.0" ? { code, message, data: details } : { code, message };
}

/** The origin's REST answer to `operation` as the JSON-RPC response with `id` (a 204's empty body is 1.0's Empty `{}`, 0.3's null). */
export function restResponseToJsonRpc(operation: Operation, version: RestVersion, status: number, body: unknown, id: unknown): JsonObject {
  if (status < 200 || status > 299) return { jsonrpc: "2.0", id, error: jsonRpcError(version, status, body) };
  const toJsonRpc = version === "0.3" ? JSONRPC_RESULTS[operation] : undefined;
  const result = toJsonRpc ? toJsonRpc(body) : (body ?? {});
  return { jsonrpc: "2.0", id, result };
}

/** One SSE event of the origin's REST stream (`event` its type, `data` parsed) as the JSON-RPC envelope of that event. */
export function restEventToJsonRpc(version: RestVersion, event: string | undefined, data: unknown, id: unknown): JsonObject {
  if (event === "error") return { jsonrpc: "2.0", id, error: jsonRpcError(version, 500, data) };
  return { jsonrpc: "2.0", id, result: version === "0.3" ? streamFromProto(data) : data };
}
