// A REST call as the JSON-RPC call of the same version: 1.0 REST becomes 1.0
// JSON-RPC (method names of src/a2a/v1.ts), 0.3 REST becomes 0.3 JSON-RPC. A
// call for an origin of the other version is then the bridge's (src/bridge/).
// 1.0 follows proto transcoding (google.api.http of proto @ v1.0.1): a POST
// with `body: "*"` is the request message, path variables set their fields
// (and win over the body's); a GET or DELETE reads every other field from the
// query (`camelCase`, spec §11.5; proto names too, as ProtoJSON parsers do).
// The tenant comes from the path, else from the body or query (as the
// @a2a-js/sdk 1.3 REST server does).
import { OPERATIONS, type Operation } from "../a2a/operations";
import { METHODS, type MethodRow } from "../bridge/params";
import { isJsonObject, type JsonObject, jsonObject } from "../json";
import { pushConfigFromProto, sendFromProto } from "./proto-v03";
import type { RestRoute } from "./rest-routes";

export interface RestCall {
  method: string;
  /** Absent for 0.3 agent/getAuthenticatedExtendedCard, which takes none. */
  params?: JsonObject;
}

/** Why the call is refused (HTTP 400) before anything is sent. */
export interface RestInvalid {
  invalid: string;
}

/** 1.0 operations whose POST body is the request message (`body: "*"`); CancelTask's may be empty (the SDK client sends none). */
export const BODY_V1: ReadonlySet<Operation> = new Set([
  "sendMessage",
  "sendStreamingMessage",
  "cancelTask",
  "createPushNotificationConfig",
]);

/** Query fields of the 1.0 GET/DELETE request messages besides `tenant` (proto ListTasksRequest, GetTaskRequest, ListTaskPushNotificationConfigsRequest). */
const QUERY_V1: Partial<Record<Operation, string>> = {
  getTask: "historyLength",
  listTasks: "contextId status pageSize pageToken historyLength statusTimestampAfter includeArtifacts",
  listPushNotificationConfigs: "pageSize pageToken",
};

/**
 * A query value as its field's ProtoJSON value; undefined when it is not one.
 * Enums: the proto name, its number, or the lower-case form of spec §11.5's
 * example (`status=working`, `input-required`), which names the same state.
 */
function fieldValue(name: string, raw: string): unknown {
  if (name === "includeArtifacts") return raw === "true" ? true : raw === "false" ? false : undefined;
  if (name === "historyLength" || name === "pageSize") return /^\d{1,9}$/.test(raw) ? Number(raw) : undefined;
  if (name !== "status") return raw;
  if (/^\d{1,2}$/.test(raw)) return Number(raw);
  return raw.startsWith("TASK_STATE_") ? raw : `TASK_STATE_${raw.toUpperCase().replaceAll("-", "_")}`;
}

/**
 * The named query fields present (by JSON name or proto name); a name whose value does not parse, or that
 * is given twice (two values, or both names: readers take the first or the last), is returned instead.
 */
function queryFields(names: string[], query: URLSearchParams): JsonObject | BadQuery {
  const fields: JsonObject = {};
  for (const name of names) {
    const protoName = name.replace(/[A-Z]/g, (upper) => `_${upper.toLowerCase()}`);
    const values = [...query.getAll(name), ...(protoName === name ? [] : query.getAll(protoName))];
    const [raw] = values;
    if (raw === undefined) continue;
    if (values.length > 1) return new BadQuery(`query parameter ${name} is given twice`);
    const value = fieldValue(name, raw);
    if (value === undefined) return new BadQuery(`query parameter ${name} has no valid value`);
    fields[name] = value;
  }
  return fields;
}

class BadQuery {
  constructor(readonly message: string) {}
}

const NOT_AN_OBJECT = "the body must be a JSON object";

/** The a2a-js 0.3 REST server's JSON-RPC forms beside the proto's, in one send body: the same field twice. */
function twoForms(body: JsonObject): string | undefined {
  const message = jsonObject(body.message);
  const configuration = jsonObject(body.configuration);
  if (message && "content" in message && "parts" in message) return "message names its parts twice (content and parts)";
  if (configuration && "pushNotification" in configuration && "pushNotificationConfig" in configuration)
    return "configuration names its push config twice (pushNotification and pushNotificationConfig)";
  return undefined;
}

/**
 * The params of the route's version, or why there are none. 0.3's are 1.0's
 * made 0.3 by the bridge (its METHODS rows: `id` and `pushNotificationConfigId`,
 * no tenant, no paging), but for the bodies of send and set, which are 0.3's
 * proto JSON.
 */
function paramsOf(route: RestRoute, query: URLSearchParams, body: unknown, row: MethodRow): JsonObject | string | undefined {
  const { operation, version, pathParams } = route;
  const { tenant, id, configId } = pathParams;
  if (version === "0.3" && operation.startsWith("send"))
    return isJsonObject(body) ? (twoForms(body) ?? jsonObject(sendFromProto(body))) : NOT_AN_OBJECT;
  if (version === "0.3" && operation === "createPushNotificationConfig") {
    if (!isJsonObject(body)) return NOT_AN_OBJECT;
    // The task twice, in the path and in the body (its resource name, or the JSON-RPC form's taskId): an origin
    // may read either (a2a-js 1.3's 0.3 router takes the name's), so both must name one task.
    const named = [/^tasks\/([^/]+)/.exec(String(body.name ?? ""))?.[1], body.taskId].filter((task) => task !== undefined);
    if (id !== undefined && named.some((task) => task !== id)) return "the body names another task than the path";
    return pushConfigFromProto(body, id);
  }
  let params: JsonObject | BadQuery;
  if (version === "0.3" || !BODY_V1.has(operation)) params = queryFields(["tenant", ...(QUERY_V1[operation]?.split(" ") ?? [])], query);
  else if (isJsonObject(body)) params = { ...body };
  else if (operation === "cancelTask" && body == null) params = {};
  else return NOT_AN_OBJECT;
  if (params instanceof BadQuery) return params.message;
  if (tenant !== undefined) params.tenant = tenant;
  // Under a push config, the task is `taskId` and the config `id` (proto TaskPushNotificationConfig and its requests).
  if (operation.includes("PushNotification")) {
    params.taskId = id;
    if (configId !== undefined) params.id = configId;
  } else if (id !== undefined) params.id = id;
  return version === "1.0" ? params : jsonObject(row[3](params));
}

/** The JSON-RPC call a matched REST request makes, or why it is refused (400). `body` is the parsed JSON body, undefined when there is none. */
export function restToJsonRpc(route: RestRoute, query: URLSearchParams, body: unknown): RestCall | RestInvalid {
  // The bridge's METHODS rows are in OPERATIONS order (test/worker/rest-routes.test.ts): [0.3 name, 1.0 name, ...].
  const row = METHODS[OPERATIONS.indexOf(route.operation)];
  const method = row?.[route.version === "1.0" ? 1 : 0];
  if (!row || method === undefined) return { invalid: `${route.operation} has no A2A ${route.version} method` };
  const params = paramsOf(route, query, body, row);
  if (typeof params === "string") return { invalid: params };
  return params === undefined ? { method } : { method, params };
}
