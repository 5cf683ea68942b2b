// The A2A operations, named by what they do rather than by any version's
// method name (SPEC-NOTES §3.1): each version module maps them to its own
// JSON-RPC methods, so "the same call in another version" is one look-up.

export const OPERATIONS = [
  /** Send a message (unary). */
  "sendMessage",
  /** Send a message and stream the task's events (SSE). */
  "sendStreamingMessage",
  "getTask",
  /** 1.0 only over JSON-RPC (0.3 had it on gRPC/REST only). */
  "listTasks",
  "cancelTask",
  /** Re-attach to a running task's event stream (SSE). */
  "subscribeToTask",
  "createPushNotificationConfig",
  "getPushNotificationConfig",
  "listPushNotificationConfigs",
  "deletePushNotificationConfig",
  /** The authenticated (extended) Agent Card. */
  "getExtendedAgentCard",
] as const;
export type Operation = (typeof OPERATIONS)[number];
