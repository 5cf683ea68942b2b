// Request params and results of each operation, between 0.3 (a2a.json @
// v0.3.0: MessageSendParams, TaskQueryParams, TaskIdParams, the push-config
// params) and 1.0 (proto @ v1.0.1 request messages), per operation
// in one table of methods. 0.3 names a task `id` everywhere; 1.0 names it `id`
// where the task is the resource and `taskId` under a push config, whose own
// id is 0.3's `pushNotificationConfigId`. 0.3 allows `metadata` on every
// TaskIdParams; 1.0 has it on CancelTaskRequest only, so the others drop it.
import { isJsonObject } from "../json";
import { streamEventV03, streamResponseV1, taskV1, taskV03 } from "./events";
import { messageV1, messageV03 } from "./parts";
import { type Convert, type Fields, integer, listOf, negate, reshape } from "./reshape";

// ---- push notification configs ----

/**
 * 0.3 PushNotificationAuthenticationInfo lists `schemes`; 1.0
 * AuthenticationInfo has one REQUIRED `scheme`. The first is kept (as the
 * a2a-js and a2a-go compat layers do), others are dropped; none is the proto
 * default "".
 */
const AUTH_V1: Fields = { schemes: ["scheme", (schemes) => (Array.isArray(schemes) ? (schemes[0] ?? "") : schemes)], credentials: true };
const AUTH_V03: Fields = { scheme: ["schemes", (scheme) => (scheme === "" ? [] : [scheme])], credentials: true };

const PUSH_CONFIG_V1: Fields = { id: true, url: true, token: true, authentication: (auth) => reshape(auth, AUTH_V1) };
/** 1.0 TaskPushNotificationConfig -> 0.3 PushNotificationConfig: `taskId` and `tenant` have no field there. */
const pushConfigV03 = (config: unknown) =>
  reshape(config, { ...PUSH_CONFIG_V1, authentication: (auth) => reshape(auth, AUTH_V03, { schemes: [] }) });

/** 0.3 TaskPushNotificationConfig `{taskId, pushNotificationConfig}` -> 1.0's flat TaskPushNotificationConfig. */
function taskPushConfigV1(config: unknown): unknown {
  if (!isJsonObject(config)) return config;
  const inner = isJsonObject(config.pushNotificationConfig) ? reshape(config.pushNotificationConfig, PUSH_CONFIG_V1) : {};
  return { ...reshape(config, { taskId: true }), ...inner };
}

/** 0.3 requires `taskId`; a 1.0 config without one has the proto default, "". */
function taskPushConfigV03(config: unknown): unknown {
  if (!isJsonObject(config)) return config;
  return { taskId: config.taskId ?? "", pushNotificationConfig: pushConfigV03(config) };
}

// ---- params ----

/**
 * 0.3 `blocking` <-> 1.0 `returnImmediately`, its negation. Absent stays
 * absent: each origin keeps its own default (1.0: wait, proto comment; 0.3 does
 * not say), and an explicit false is written out so that it survives the way back.
 */
const CONFIGURATION_V1: Fields = {
  acceptedOutputModes: true,
  historyLength: true,
  blocking: ["returnImmediately", negate],
  pushNotificationConfig: ["taskPushNotificationConfig", (config) => reshape(config, PUSH_CONFIG_V1)],
};
const CONFIGURATION_V03: Fields = {
  acceptedOutputModes: true,
  historyLength: integer,
  returnImmediately: ["blocking", negate],
  taskPushNotificationConfig: ["pushNotificationConfig", pushConfigV03],
};

const SEND_V1: Fields = { message: messageV1, configuration: (c) => reshape(c, CONFIGURATION_V1), metadata: true };
const SEND_V03: Fields = { message: messageV03, configuration: (c) => reshape(c, CONFIGURATION_V03), metadata: true };
const sendV1: Convert = (params) => reshape(params, SEND_V1);
const sendV03: Convert = (params) => reshape(params, SEND_V03);
/** 0.3 TaskIdParams `{id}` (its `metadata` has no 1.0 field here) <-> 1.0 `{id}`; `tenant` has no 0.3 field (0.3 routes by URL alone). */
const taskId: Convert = (params) => reshape(params, { id: true });
/** Push configs: 0.3 names the task `id` and the config `pushNotificationConfigId`, 1.0 `taskId` and `id`. */
const configIdsV1: Convert = (params) => reshape(params, { id: "taskId", pushNotificationConfigId: "id" });
const configIdsV03: Convert = (params) => reshape(params, { taskId: "id", id: "pushNotificationConfigId" });
const asIs: Convert = (value) => value;

// ---- the methods ----

/** A method of both generations: its names, how its params go each way, how its result comes back each way. */
export type MethodRow = readonly [
  v03: string | undefined,
  v1: string,
  paramsV1: Convert,
  paramsV03: Convert,
  resultV1: Convert,
  resultV03: Convert,
];

/**
 * Every JSON-RPC method (SPEC-NOTES §3.1; the same pairs as src/a2a/, which
 * test/worker/bridge.test.ts holds this table to).
 */
export const METHODS: readonly MethodRow[] = [
  // A SendMessage result is a Task or a Message: 0.3 bare with `kind`, 1.0 in the SendMessageResponse oneof.
  ["message/send", "SendMessage", sendV1, sendV03, streamResponseV1, streamEventV03],
  ["message/stream", "SendStreamingMessage", sendV1, sendV03, streamResponseV1, streamEventV03],
  [
    "tasks/get",
    "GetTask",
    (params) => reshape(params, { id: true, historyLength: true }),
    (params) => reshape(params, { id: true, historyLength: integer }),
    taskV1,
    taskV03,
  ],
  // No 0.3 method (SPEC-NOTES §3.1): a 0.3 origin cannot be asked.
  [undefined, "ListTasks", asIs, asIs, asIs, asIs],
  [
    "tasks/cancel",
    "CancelTask",
    (params) => reshape(params, { id: true, metadata: true }),
    (params) => reshape(params, { id: true, metadata: true }),
    taskV1,
    taskV03,
  ],
  ["tasks/resubscribe", "SubscribeToTask", taskId, taskId, streamResponseV1, streamEventV03],
  [
    "tasks/pushNotificationConfig/set",
    "CreateTaskPushNotificationConfig",
    taskPushConfigV1,
    taskPushConfigV03,
    taskPushConfigV1,
    taskPushConfigV03,
  ],
  ["tasks/pushNotificationConfig/get", "GetTaskPushNotificationConfig", configIdsV1, configIdsV03, taskPushConfigV1, taskPushConfigV03],
  [
    "tasks/pushNotificationConfig/list",
    "ListTaskPushNotificationConfigs",
    // 1.0 `pageSize`/`pageToken` dropped: 0.3 lists every config at once, so its bare list is all there is (no next page).
    (params) => reshape(params, { id: "taskId" }),
    (params) => reshape(params, { taskId: "id" }),
    (result) => (Array.isArray(result) ? { configs: result.map(taskPushConfigV1) } : result),
    // ProtoJSON omits an empty list; a `nextPageToken` cannot be handed on.
    (result) => (isJsonObject(result) ? listOf(taskPushConfigV03)(result.configs ?? []) : result),
  ],
  [
    "tasks/pushNotificationConfig/delete",
    "DeleteTaskPushNotificationConfig",
    configIdsV1,
    configIdsV03,
    // 0.3 answers null; 1.0 google.protobuf.Empty, `{}` in ProtoJSON (an SDK's null passes as null).
    (result) => (result === null ? {} : result),
    (result) => (isJsonObject(result) && Object.keys(result).length === 0 ? null : result),
  ],
  // 0.3 sends no params, 1.0 a GetExtendedAgentCardRequest (of a tenant at most). The card passes as it came: cards are rewritten per version elsewhere (src/card/).
  ["agent/getAuthenticatedExtendedCard", "GetExtendedAgentCard", () => ({}), () => undefined, asIs, asIs],
];
