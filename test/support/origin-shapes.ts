// Where each A2A call keeps what an origin acts on (a2a/schema/, the proto of each version), in two forms
// the origin readers share (origin-readers.ts): a schema per call (the fields a struct- or model-based
// reader declares, by JSON name) and the places of its push config and ids, from which one normalized
// view is taken whatever reader produced the object.

export type Generation = "0.3" | "1.0";
/** The calls the differential suite makes, by operation (src/a2a/operations.ts names them the same). */
export type Operation = "sendMessage" | "createPushNotificationConfig" | "getTask" | "cancelTask" | "getPushNotificationConfig";

/** A field's kind: a string, an integer, a list of strings, or a message of fields. */
export type Kind = "s" | "i" | "[s]" | Schema;
export interface Schema {
  readonly [jsonName: string]: Kind;
}

const AUTH_V1: Schema = { scheme: "s", credentials: "s" };
const CONFIG_V1: Schema = { tenant: "s", id: "s", taskId: "s", url: "s", token: "s", authentication: AUTH_V1 };
const AUTH_V03: Schema = { schemes: "[s]", credentials: "s" };
export const CONFIG_V03: Schema = { id: "s", url: "s", token: "s", authentication: AUTH_V03 };

/** The fields each call's params declare (1.0: proto messages; 0.3: the JSON-RPC shapes of its JSON Schema). */
export const SCHEMAS: Record<Generation, Record<Operation, Schema>> = {
  "1.0": {
    sendMessage: { tenant: "s", message: { taskId: "s" }, configuration: { taskPushNotificationConfig: CONFIG_V1, historyLength: "i" } },
    createPushNotificationConfig: CONFIG_V1,
    getTask: { tenant: "s", id: "s", historyLength: "i" },
    cancelTask: { tenant: "s", id: "s" },
    getPushNotificationConfig: { tenant: "s", taskId: "s", id: "s" },
  },
  "0.3": {
    sendMessage: { message: { taskId: "s" }, configuration: { pushNotificationConfig: CONFIG_V03, historyLength: "i" } },
    createPushNotificationConfig: { taskId: "s", pushNotificationConfig: CONFIG_V03 },
    getTask: { id: "s", historyLength: "i" },
    cancelTask: { id: "s" },
    getPushNotificationConfig: { id: "s", pushNotificationConfigId: "s" },
  },
};

type Path = readonly string[];
interface Places {
  config?: Path;
  ids: Readonly<Record<string, Path>>;
}

const PLACES: Record<Generation, Record<Operation, Places>> = {
  "1.0": {
    sendMessage: {
      config: ["configuration", "taskPushNotificationConfig"],
      ids: {
        tenant: ["tenant"],
        taskId: ["message", "taskId"],
        historyLength: ["configuration", "historyLength"],
        configId: ["configuration", "taskPushNotificationConfig", "id"],
        configTaskId: ["configuration", "taskPushNotificationConfig", "taskId"],
      },
    },
    createPushNotificationConfig: { config: [], ids: { tenant: ["tenant"], taskId: ["taskId"], configId: ["id"] } },
    getTask: { ids: { tenant: ["tenant"], id: ["id"], historyLength: ["historyLength"] } },
    cancelTask: { ids: { tenant: ["tenant"], id: ["id"] } },
    getPushNotificationConfig: { ids: { tenant: ["tenant"], taskId: ["taskId"], configId: ["id"] } },
  },
  "0.3": {
    sendMessage: {
      config: ["configuration", "pushNotificationConfig"],
      ids: {
        taskId: ["message", "taskId"],
        historyLength: ["configuration", "historyLength"],
        configId: ["configuration", "pushNotificationConfig", "id"],
      },
    },
    createPushNotificationConfig: {
      config: ["pushNotificationConfig"],
      ids: { taskId: ["taskId"], configId: ["pushNotificationConfig", "id"] },
    },
    getTask: { ids: { id: ["id"], historyLength: ["historyLength"] } },
    cancelTask: { ids: { id: ["id"] } },
    getPushNotificationConfig: { ids: { id: ["id"], configId: ["pushNotificationConfigId"] } },
  },
};

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

function at(value: unknown, path: Path): unknown {
  let here = value;
  for (const key of path) here = isRecord(here) && Object.hasOwn(here, key) ? here[key] : undefined;
  return here;
}

/** What a reader took of a field: unset, null and "" are all "nothing" (proto3 defaults, pydantic's None). */
const taken = (value: unknown): unknown => (value === undefined || value === null || value === "" ? null : value);
const asText = (value: unknown): string => (typeof value === "string" ? value : JSON.stringify(value));

/** The normalized view: every push URL, every header-bound field (token, credentials, scheme), the ids. */
export interface View {
  urls: string[];
  tokens: string[];
  ids: Record<string, unknown>;
}

/** The view of `value`, an object of the call's params shape (plain JSON, or an SDK's decoded message: same names). */
export function viewOf(generation: Generation, operation: Operation, value: unknown): View {
  const { config: place, ids } = PLACES[generation][operation];
  const config = place && at(value, place);
  const auth = at(config, ["authentication"]);
  const schemes = at(auth, ["schemes"]);
  const fields = [at(config, ["token"]), at(auth, ["credentials"]), at(auth, ["scheme"]), ...(Array.isArray(schemes) ? schemes : [])];
  return {
    urls: [at(config, ["url"])]
      .map(taken)
      .filter((url) => url !== null)
      .map(asText),
    tokens: fields
      .map(taken)
      .filter((field) => field !== null)
      .map(asText),
    ids: Object.fromEntries(Object.entries(ids).map(([name, path]) => [name, taken(at(value, path))])),
  };
}

const OPERATIONS: Readonly<Record<string, Operation>> = {
  SendMessage: "sendMessage",
  "message/send": "sendMessage",
  GetTask: "getTask",
  "tasks/get": "getTask",
  CancelTask: "cancelTask",
  "tasks/cancel": "cancelTask",
  CreateTaskPushNotificationConfig: "createPushNotificationConfig",
  "tasks/pushNotificationConfig/set": "createPushNotificationConfig",
  GetTaskPushNotificationConfig: "getPushNotificationConfig",
  "tasks/pushNotificationConfig/get": "getPushNotificationConfig",
};

/** The operation a JSON-RPC method names (either generation's name), or undefined. */
export const operationOf = (method: unknown): Operation | undefined =>
  typeof method === "string" && Object.hasOwn(OPERATIONS, method) ? OPERATIONS[method] : undefined;

/** The path variables and query as a REST server hands them on: tenant, the task and config ids, historyLength. */
export function pathParams(generation: Generation, operation: Operation, vars: Record<string, string>, historyLength: unknown) {
  const { tenant, taskId, configId } = vars;
  // Under a push config the task is `taskId` and the config `id` (1.0), 0.3's get names them `id` and `pushNotificationConfigId`.
  const onConfig = operation === "createPushNotificationConfig" || operation === "getPushNotificationConfig";
  const ids =
    generation === "1.0"
      ? onConfig
        ? { taskId, ...(configId === undefined ? {} : { id: configId }) }
        : { id: taskId }
      : operation === "createPushNotificationConfig"
        ? { taskId }
        : { id: taskId, ...(configId === undefined ? {} : { pushNotificationConfigId: configId }) };
  return { ...(tenant === undefined ? {} : { tenant }), ...ids, ...(historyLength === undefined ? {} : { historyLength }) };
}

/** A 0.3 REST send (its proto's `configuration.pushNotification`) in the JSON-RPC shape its view reads; other bodies as they are. */
export function sendFromProto(body: unknown): Record<string, unknown> {
  const record = isRecord(body) ? body : {};
  const configuration = isRecord(record.configuration) ? record.configuration : undefined;
  if (!configuration || !("pushNotification" in configuration)) return record;
  const { pushNotification, historyLength } = configuration;
  return { ...record, configuration: { pushNotificationConfig: pushNotification, historyLength } };
}

/** An HTTP+JSON route of the origin (@a2a-js/sdk 1.3's Express routers: 1.0 restHandler, 0.3 legacyRestRouter). */
const ROUTES: readonly (readonly [httpMethod: string, template: string, operation: Operation])[] = [
  ["POST", "/message:send", "sendMessage"],
  ["POST", "/tasks/{taskId}:cancel", "cancelTask"],
  ["GET", "/tasks/{taskId}", "getTask"],
  ["POST", "/tasks/{taskId}/pushNotificationConfigs", "createPushNotificationConfig"],
  ["GET", "/tasks/{taskId}/pushNotificationConfigs/{configId}", "getPushNotificationConfig"],
];

export interface RouteMatch {
  operation: Operation;
  vars: Record<string, string>;
}

/**
 * The route of a request path (below the REST base), as an Express router matches it: in registration
 * order, each 1.0 route first as written and then under `/:tenant`, 0.3's under `/v1`; a variable is
 * one segment, matched on the raw path and then percent-decoded.
 */
export function matchRoute(generation: Generation, httpMethod: string, path: string): RouteMatch | undefined {
  for (const [method, template, operation] of ROUTES) {
    const forms = generation === "1.0" ? [template, `/{tenant}${template}`] : [`/v1${template}`];
    for (const form of forms) {
      const names = [...form.matchAll(/\{(\w+)\}/g)].map((found) => found[1] ?? "");
      const found = new RegExp(`^${form.replace(/\{\w+\}/g, "([^/]+)")}$`).exec(path);
      if (method !== httpMethod || !found) continue;
      return { operation, vars: Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(found[i + 1] ?? "")])) };
    }
  }
  return undefined;
}
