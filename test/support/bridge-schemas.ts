// Which official schema definition each JSON-RPC call and answer of the bridge
// must satisfy, per generation: whole envelopes for 0.3 (a2a.json @ v0.3.0
// defines them), params and results for 1.0 (the proto messages; the
// JSON-RPC envelope of 1.0 is the spec's §9, not a schema definition).
import { isJsonObject } from "../../src/json";
import { schemaErrors } from "./schemas";

const V03_REQUESTS: Record<string, string> = {
  "message/send": "SendMessageRequest",
  "message/stream": "SendStreamingMessageRequest",
  "tasks/get": "GetTaskRequest",
  "tasks/cancel": "CancelTaskRequest",
  "tasks/resubscribe": "TaskResubscriptionRequest",
  "tasks/pushNotificationConfig/set": "SetTaskPushNotificationConfigRequest",
  "tasks/pushNotificationConfig/get": "GetTaskPushNotificationConfigRequest",
  "tasks/pushNotificationConfig/list": "ListTaskPushNotificationConfigRequest",
  "tasks/pushNotificationConfig/delete": "DeleteTaskPushNotificationConfigRequest",
  "agent/getAuthenticatedExtendedCard": "GetAuthenticatedExtendedCardRequest",
};

const V03_RESULTS: Record<string, string> = {
  "message/send": "SendMessageSuccessResponse",
  "message/stream": "SendStreamingMessageSuccessResponse",
  "tasks/get": "GetTaskSuccessResponse",
  "tasks/cancel": "CancelTaskSuccessResponse",
  "tasks/resubscribe": "SendStreamingMessageSuccessResponse",
  "tasks/pushNotificationConfig/set": "SetTaskPushNotificationConfigSuccessResponse",
  "tasks/pushNotificationConfig/get": "GetTaskPushNotificationConfigSuccessResponse",
  "tasks/pushNotificationConfig/list": "ListTaskPushNotificationConfigSuccessResponse",
  "tasks/pushNotificationConfig/delete": "DeleteTaskPushNotificationConfigSuccessResponse",
  "agent/getAuthenticatedExtendedCard": "GetAuthenticatedExtendedCardSuccessResponse",
};

const V1_PARAMS: Record<string, string> = {
  SendMessage: "SendMessageRequest",
  SendStreamingMessage: "SendMessageRequest",
  GetTask: "GetTaskRequest",
  ListTasks: "ListTasksRequest",
  CancelTask: "CancelTaskRequest",
  SubscribeToTask: "SubscribeToTaskRequest",
  CreateTaskPushNotificationConfig: "TaskPushNotificationConfig",
  GetTaskPushNotificationConfig: "GetTaskPushNotificationConfigRequest",
  ListTaskPushNotificationConfigs: "ListTaskPushNotificationConfigsRequest",
  DeleteTaskPushNotificationConfig: "DeleteTaskPushNotificationConfigRequest",
  GetExtendedAgentCard: "GetExtendedAgentCardRequest",
};

/** DeleteTaskPushNotificationConfig returns google.protobuf.Empty: no definition, `{}` in ProtoJSON. */
const V1_RESULTS: Record<string, string | undefined> = {
  SendMessage: "SendMessageResponse",
  SendStreamingMessage: "StreamResponse",
  GetTask: "Task",
  ListTasks: "ListTasksResponse",
  CancelTask: "Task",
  SubscribeToTask: "StreamResponse",
  CreateTaskPushNotificationConfig: "TaskPushNotificationConfig",
  GetTaskPushNotificationConfig: "TaskPushNotificationConfig",
  ListTaskPushNotificationConfigs: "ListTaskPushNotificationConfigsResponse",
  DeleteTaskPushNotificationConfig: undefined,
  GetExtendedAgentCard: "AgentCard",
};

function definition(table: Record<string, string | undefined>, method: string): string | undefined {
  if (!Object.hasOwn(table, method)) throw new Error(`no schema definition listed for ${method}`);
  return table[method];
}

/** Schema errors of a 0.3 call, as the whole JSON-RPC request it becomes. */
export function v03CallErrors(call: { method: string; params?: unknown }): string[] {
  return schemaErrors.v03(definition(V03_REQUESTS, call.method) ?? "")({ jsonrpc: "2.0", id: 1, ...call });
}

/** Schema errors of a 1.0 call's params. */
export function v1CallErrors(call: { method: string; params?: unknown }): string[] {
  return schemaErrors.v1(definition(V1_PARAMS, call.method) ?? "")(call.params);
}

/** Schema errors of a 0.3 response envelope (result or error) to `method`. */
export function v03ResponseErrors(method: string, response: unknown): string[] {
  const error = isJsonObject(response) && Object.hasOwn(response, "error");
  return schemaErrors.v03(error ? "JSONRPCErrorResponse" : (definition(V03_RESULTS, method) ?? ""))(response);
}

/** 1.0 §9.5: `error.data`, when present, is a list of ProtoJSON Any (objects naming their `@type`). */
function v1ErrorErrors(error: unknown): string[] {
  if (!isJsonObject(error) || !Number.isInteger(error.code) || typeof error.message !== "string") return ["error: code and message"];
  const { data } = error;
  if (data === undefined) return [];
  const isAny = (detail: unknown) => isJsonObject(detail) && typeof detail["@type"] === "string";
  return Array.isArray(data) && data.every(isAny) ? [] : [`error.data is not a list of Any: ${JSON.stringify(data)}`];
}

/** Schema errors of a 1.0 response envelope (its result or its error) to `method`. */
export function v1ResponseErrors(method: string, response: unknown): string[] {
  if (!isJsonObject(response)) return ["not an object"];
  if (Object.hasOwn(response, "error")) return v1ErrorErrors(response.error);
  const name = definition(V1_RESULTS, method);
  if (name !== undefined) return schemaErrors.v1(name)(response.result);
  return isJsonObject(response.result) && Object.keys(response.result).length === 0 ? [] : ["Empty is {}"];
}
