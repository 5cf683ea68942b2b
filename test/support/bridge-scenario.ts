// The calls of the bridge scenario, each written once per generation as a
// client of that generation sends it (method and params; `{{id-N}}` is the
// N-th id the agent created (a UUID: task and context ids)). test/support/capture-bridge.ts plays them to an
// @a2a-js/sdk 1.3 agent; test/worker/bridge-sdk.test.ts checks that the bridge
// turns each into the other and every answer into the other's.

export interface BridgeStep {
  name: string;
  v03: { method: string; params?: unknown };
  v1: { method: string; params: unknown };
}

const FILE = { name: "notes.txt", mimeType: "text/plain" };
const userMessage = {
  v03: {
    kind: "message",
    messageId: "msg-user-1",
    contextId: "ctx-1",
    role: "user",
    parts: [
      { kind: "text", text: "stream" },
      { kind: "file", file: { ...FILE, bytes: "aGVsbG8=" }, metadata: { source: "upload" } },
      { kind: "file", file: { ...FILE, uri: "https://files.example.com/notes.txt" } },
      { kind: "data", data: { city: "Paris", days: 3 } },
    ],
    metadata: { client: "test" },
    extensions: ["https://example.com/ext/trace"],
  },
  v1: {
    messageId: "msg-user-1",
    contextId: "ctx-1",
    role: "ROLE_USER",
    parts: [
      { text: "stream" },
      { raw: "aGVsbG8=", filename: "notes.txt", mediaType: "text/plain", metadata: { source: "upload" } },
      { url: "https://files.example.com/notes.txt", filename: "notes.txt", mediaType: "text/plain" },
      { data: { city: "Paris", days: 3 } },
    ],
    metadata: { client: "test" },
    extensions: ["https://example.com/ext/trace"],
  },
};

const said = (word: string, messageId: string) => ({
  v03: { kind: "message", messageId, role: "user", parts: [{ kind: "text", text: word }] },
  v1: { messageId, role: "ROLE_USER", parts: [{ text: word }] },
});

const step = (name: string, v03: BridgeStep["v03"], v1: BridgeStep["v1"]): BridgeStep => ({ name, v03, v1 });

export const BRIDGE_SCENARIO: readonly BridgeStep[] = [
  step(
    "stream a task through every event",
    {
      method: "message/stream",
      params: {
        message: userMessage.v03,
        configuration: { acceptedOutputModes: ["text/plain", "application/json"] },
        metadata: { trace: "t-1" },
      },
    },
    {
      method: "SendStreamingMessage",
      params: {
        message: userMessage.v1,
        configuration: { acceptedOutputModes: ["text/plain", "application/json"] },
        metadata: { trace: "t-1" },
      },
    },
  ),
  step(
    "send, blocking, until input is required",
    { method: "message/send", params: { message: said("input", "msg-user-2").v03, configuration: { blocking: true, historyLength: 10 } } },
    {
      method: "SendMessage",
      params: { message: said("input", "msg-user-2").v1, configuration: { returnImmediately: false, historyLength: 10 } },
    },
  ),
  step(
    "send, answered by a message",
    { method: "message/send", params: { message: said("message", "msg-user-3").v03 } },
    { method: "SendMessage", params: { message: said("message", "msg-user-3").v1 } },
  ),
  step(
    "get a task",
    { method: "tasks/get", params: { id: "{{id-1}}", historyLength: 1 } },
    { method: "GetTask", params: { id: "{{id-1}}", historyLength: 1 } },
  ),
  step(
    "get an unknown task",
    { method: "tasks/get", params: { id: "no-such-task" } },
    { method: "GetTask", params: { id: "no-such-task" } },
  ),
  step(
    "cancel a completed task",
    { method: "tasks/cancel", params: { id: "{{id-1}}" } },
    { method: "CancelTask", params: { id: "{{id-1}}" } },
  ),
  step(
    "set a push config",
    {
      method: "tasks/pushNotificationConfig/set",
      params: {
        taskId: "{{id-2}}",
        pushNotificationConfig: {
          id: "push-1",
          url: "https://client.example.com/push",
          token: "tok-1",
          authentication: { schemes: ["Bearer"], credentials: "secret" },
        },
      },
    },
    {
      method: "CreateTaskPushNotificationConfig",
      params: {
        taskId: "{{id-2}}",
        id: "push-1",
        url: "https://client.example.com/push",
        token: "tok-1",
        authentication: { scheme: "Bearer", credentials: "secret" },
      },
    },
  ),
  step(
    "get a push config",
    { method: "tasks/pushNotificationConfig/get", params: { id: "{{id-2}}", pushNotificationConfigId: "push-1" } },
    { method: "GetTaskPushNotificationConfig", params: { taskId: "{{id-2}}", id: "push-1" } },
  ),
  step(
    "list push configs",
    { method: "tasks/pushNotificationConfig/list", params: { id: "{{id-2}}" } },
    { method: "ListTaskPushNotificationConfigs", params: { taskId: "{{id-2}}" } },
  ),
  step(
    "delete a push config",
    { method: "tasks/pushNotificationConfig/delete", params: { id: "{{id-2}}", pushNotificationConfigId: "push-1" } },
    { method: "DeleteTaskPushNotificationConfig", params: { taskId: "{{id-2}}", id: "push-1" } },
  ),
  step(
    "get the extended card of an agent without one",
    { method: "agent/getAuthenticatedExtendedCard" },
    { method: "GetExtendedAgentCard", params: {} },
  ),
  step(
    "resubscribe to a finished task",
    { method: "tasks/resubscribe", params: { id: "{{id-1}}" } },
    { method: "SubscribeToTask", params: { id: "{{id-1}}" } },
  ),
];
