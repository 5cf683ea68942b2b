// Request params and results of each operation, between 0.3 (a2a.json @
// v0.3.0: MessageSendParams, TaskQueryParams, TaskIdParams, the push-config
// params) and 1.0 (proto @ v1.0.1 request messages), per operation
// (src/a2a/operations.ts). 0.3 names a task `id` everywhere; 1.0 names it `id`
// where the task is the resource and `taskId` under a push config, whose own
// id is 0.3's `pushNotificationConfigId`.
import type { Operation } from "../a2a/operations";
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

/**
 * 0.3 params -> 1.0 params, by operation. 0.3 allows `metadata` on every
 * TaskIdParams; 1.0 has it on CancelTaskRequest only, so the others drop it.
 */
const PARAMS_V1: Record<Operation, Convert> = {
  sendMessage: (params) => reshape(params, SEND_V1),
  sendStreamingMessage: (params) => reshape(params, SEND_V1),
  getTask: (params) => reshape(params, { id: true, historyLength: true }),
  listTasks: (params) => params,
  cancelTask: (params) => reshape(params, { id: true, metadata: true }),
  subscribeToTask: (params) => reshape(params, { id: true }),
  createPushNotificationConfig: taskPushConfigV1,
  getPushNotificationConfig: (params) => reshape(params, { id: "taskId", pushNotificationConfigId: "id" }),
  listPushNotificationConfigs: (params) => reshape(params, { id: "taskId" }),
  deletePushNotificationConfig: (params) => reshape(params, { id: "taskId", pushNotificationConfigId: "id" }),
  // 0.3 sends no params; 1.0's GetExtendedAgentCardRequest is an object (of a tenant at most).
  getExtendedAgentCard: () => ({}),
};

/**
 * 1.0 params -> 0.3 params, by operation. `tenant` has no 0.3 field (0.3
 * routes by URL alone) and is dropped everywhere; so are the push-config
 * list's `pageSize`/`pageToken` (0.3 lists every config at once).
 * ListTasks has no 0.3 method (SPEC-NOTES §3.1) and never gets here.
 */
const PARAMS_V03: Record<Operation, Convert> = {
  sendMessage: (params) => reshape(params, SEND_V03),
  sendStreamingMessage: (params) => reshape(params, SEND_V03),
  getTask: (params) => reshape(params, { id: true, historyLength: integer }),
  listTasks: (params) => params,
  cancelTask: (params) => reshape(params, { id: true, metadata: true }),
  subscribeToTask: (params) => reshape(params, { id: true }),
  createPushNotificationConfig: taskPushConfigV03,
  getPushNotificationConfig: (params) => reshape(params, { taskId: "id", id: "pushNotificationConfigId" }),
  listPushNotificationConfigs: (params) => reshape(params, { taskId: "id" }),
  deletePushNotificationConfig: (params) => reshape(params, { taskId: "id", id: "pushNotificationConfigId" }),
  // agent/getAuthenticatedExtendedCard takes no params (a2a.json GetAuthenticatedExtendedCardRequest).
  getExtendedAgentCard: () => undefined,
};

export const PARAMS = { "1.0": PARAMS_V1, "0.3": PARAMS_V03 } as const;

// ---- results ----

/** Cards are rewritten per version elsewhere (src/card/), so the extended card passes as it came. */
const asIs: Convert = (result) => result;

/** 0.3 results -> 1.0 results, by operation. */
const RESULTS_V1: Record<Operation, Convert> = {
  sendMessage: streamResponseV1,
  sendStreamingMessage: streamResponseV1,
  getTask: taskV1,
  listTasks: asIs,
  cancelTask: taskV1,
  subscribeToTask: streamResponseV1,
  createPushNotificationConfig: taskPushConfigV1,
  getPushNotificationConfig: taskPushConfigV1,
  // 0.3 answers a bare list, all of it: no next page.
  listPushNotificationConfigs: (result) => (Array.isArray(result) ? { configs: result.map(taskPushConfigV1) } : result),
  // 0.3 answers null; 1.0 google.protobuf.Empty, `{}` in ProtoJSON.
  deletePushNotificationConfig: (result) => (result === null ? {} : result),
  getExtendedAgentCard: asIs,
};

/** 1.0 results -> 0.3 results, by operation. */
const RESULTS_V03: Record<Operation, Convert> = {
  sendMessage: streamEventV03,
  sendStreamingMessage: streamEventV03,
  getTask: taskV03,
  listTasks: asIs,
  cancelTask: taskV03,
  subscribeToTask: streamEventV03,
  createPushNotificationConfig: taskPushConfigV03,
  getPushNotificationConfig: taskPushConfigV03,
  // ProtoJSON omits an empty list. A `nextPageToken` cannot be handed on: 0.3 has no pages.
  listPushNotificationConfigs: (result) => (isJsonObject(result) ? listOf(taskPushConfigV03)(result.configs ?? []) : result),
  deletePushNotificationConfig: (result) => (isJsonObject(result) && Object.keys(result).length === 0 ? null : result),
  getExtendedAgentCard: asIs,
};

export const RESULTS = { "1.0": RESULTS_V1, "0.3": RESULTS_V03 } as const;
