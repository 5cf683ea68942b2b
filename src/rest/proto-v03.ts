// 0.3's REST bodies are the ProtoJSON of its gRPC proto (a2a.v1 @ A2A v0.3.0),
// not its JSON-RPC shapes: what @a2a-js/sdk 1.3's 0.3 REST client and server
// send (its compat/v0_3 ToProto/FromProto and generated a2a.ts; a2a-python,
// a2a-go and a2a-java 0.3 do the same). The differences from 0.3 JSON-RPC: no
// `kind`; roles `ROLE_*`, states `TASK_STATE_*` (CANCELLED, two Ls); a message
// holds `content`, not `parts`; a part is `{text}`, `{file: {fileWithUri |
// fileWithBytes, mimeType}}` or `{data: {data}}`; the send configuration
// names its push config `pushNotification`; a push config is `{name:
// "tasks/{t}/pushNotificationConfigs/{c}", pushNotificationConfig}`; card
// security schemes are oneof wrappers. Out, only what that proto has is
// written (strict ProtoJSON parsers refuse unknown fields); in, the 0.3
// JSON-RPC forms the a2a-js 0.3 REST server accepted are read too.
import { type OpenApiSecurityScheme, securityRequirementV1, securitySchemeV1 } from "../a2a/correspondence";
import { mapValues, presentFields } from "../a2a/presence";
import * as v03 from "../a2a/v03";
import { V1_STATES, V03_STATES } from "../bridge/events";
import { V1_ROLES, V03_ROLES } from "../bridge/parts";
import { type Convert, enumMap, type Fields, integer, listOf, reshape } from "../bridge/reshape";
import { Unreadable } from "../bridge/unreadable";
import { isJsonObject, type JsonObject, jsonObject } from "../json";

/** proto TaskState of 0.3 in number order: 1.0's names but CANCELLED. */
const PROTO_STATES = V1_STATES.map((state) => state.replace("CANCELED", "CANCELLED"));

// ---- JSON-RPC -> ProtoJSON ----

/** FileWithBytes | FileWithUri -> the FilePart oneof (bytes win, as the bridge decides); `name` has no field there. */
function partToProto(part: unknown): unknown {
  if (!isJsonObject(part)) return part;
  const file = jsonObject(part.file) ?? {};
  if (part.kind === "file")
    return {
      file: reshape(
        file,
        Object.hasOwn(file, "bytes") ? { bytes: "fileWithBytes", mimeType: true } : { uri: "fileWithUri", mimeType: true },
      ),
    };
  if (part.kind === "data") return { data: { data: part.data } };
  return reshape(part, { text: true });
}

const MESSAGE_TO_PROTO: Fields = {
  messageId: true,
  contextId: true,
  taskId: true,
  role: enumMap(V03_ROLES, V1_ROLES, false),
  parts: ["content", listOf(partToProto)],
  metadata: true,
  extensions: true,
};
const messageToProto: Convert = (message) => reshape(message, MESSAGE_TO_PROTO);
const STATUS_TO_PROTO: Fields = { state: enumMap(V03_STATES, PROTO_STATES, false), message: messageToProto, timestamp: true };
const statusToProto: Convert = (status) => reshape(status, STATUS_TO_PROTO);
const ARTIFACT_TO_PROTO: Fields = {
  artifactId: true,
  name: true,
  description: true,
  parts: listOf(partToProto),
  metadata: true,
  extensions: true,
};
const artifactToProto: Convert = (artifact) => reshape(artifact, ARTIFACT_TO_PROTO);
const TASK_TO_PROTO: Fields = {
  id: true,
  contextId: true,
  status: statusToProto,
  artifacts: listOf(artifactToProto),
  history: listOf(messageToProto),
  metadata: true,
};
export const taskToProto: Convert = (task) => reshape(task, TASK_TO_PROTO);

/** 0.3 `kind` -> StreamResponse (and SendMessageResponse) member, and its fields. */
const EVENTS: readonly (readonly [kind: string, member: string, fields: Fields])[] = [
  ["task", "task", TASK_TO_PROTO],
  ["message", "message", MESSAGE_TO_PROTO],
  ["status-update", "statusUpdate", { taskId: true, contextId: true, status: statusToProto, final: true, metadata: true }],
  [
    "artifact-update",
    "artifactUpdate",
    { taskId: true, contextId: true, artifact: artifactToProto, append: true, lastChunk: true, metadata: true },
  ],
];

/**
 * A 0.3 event or message/send result -> its StreamResponse / SendMessageResponse: read by `kind`, or by
 * its shape when `kind` is absent (v03.eventKindOf); anything else is Unreadable, never handed on.
 */
export function streamToProto(event: unknown): unknown {
  const kind = isJsonObject(event) ? v03.eventKindOf(event) : undefined;
  const entry = EVENTS.find(([name]) => name === kind);
  return entry && isJsonObject(event) ? { [entry[1]]: reshape(event, entry[2]) } : new Unreadable("a 0.3 result or event of no known kind");
}

/** `{taskId, pushNotificationConfig}` -> `{name, pushNotificationConfig}` (the proto names resources, SDK id_decoding.ts). */
export function pushConfigToProto(config: unknown): unknown {
  if (!isJsonObject(config)) return config;
  const inner = jsonObject(config.pushNotificationConfig);
  return { name: `tasks/${config.taskId ?? ""}/pushNotificationConfigs/${inner?.id ?? ""}`, pushNotificationConfig: inner };
}

/** Cast: unchecked card JSON is read as the typed form; a member of another shape yields what the mapper makes of it, never a throw. */
const requirementToProto: Convert = (requirement) =>
  isJsonObject(requirement) ? securityRequirementV1(requirement as v03.SecurityRequirement) : requirement;

/** The 0.3 card with the proto's security forms (the same as 1.0's: oneof wrappers, `{schemes: {name: {list}}}`). */
export function cardToProto(card: unknown): unknown {
  if (!isJsonObject(card)) return card;
  const { securitySchemes: schemes, security, skills } = card;
  const securitySchemes = isJsonObject(schemes)
    ? mapValues(schemes, (scheme) => (isJsonObject(scheme) ? securitySchemeV1(scheme as OpenApiSecurityScheme) : scheme))
    : schemes;
  const requirements = listOf(requirementToProto);
  const skill: Convert = (value) => (isJsonObject(value) ? presentFields({ ...value, security: requirements(value.security) }) : value);
  return presentFields({ ...card, securitySchemes, security: requirements(security), skills: listOf(skill)(skills) });
}

// ---- ProtoJSON -> JSON-RPC ----

const FILE_FROM_PROTO: Fields = { fileWithUri: "uri", fileWithBytes: "bytes", mimeType: true, name: true };

/** A part already in the 0.3 JSON-RPC form (`kind`), or of no form known, passes as it is. */
function partFromProto(part: unknown): unknown {
  if (!isJsonObject(part) || Object.hasOwn(part, "kind")) return part;
  if (Object.hasOwn(part, "file"))
    return reshape(part, { file: (file) => reshape(file, FILE_FROM_PROTO), metadata: true }, { kind: "file" });
  if (Object.hasOwn(part, "data")) return reshape(part, { data: (data) => jsonObject(data)?.data, metadata: true }, { kind: "data" });
  return Object.hasOwn(part, "text") ? reshape(part, { text: true, metadata: true }, { kind: "text" }) : part;
}

const MESSAGE_FROM_PROTO: Fields = {
  ...MESSAGE_TO_PROTO,
  role: enumMap(V1_ROLES, V03_ROLES, true),
  content: ["parts", listOf(partFromProto)],
  parts: listOf(partFromProto),
  referenceTaskIds: true,
};
const messageFromProto: Convert = (message) => reshape(message, MESSAGE_FROM_PROTO, { kind: "message" });

const PUSH_FROM_PROTO: Fields = { id: true, url: true, token: true, authentication: true };
const CONFIGURATION_FROM_PROTO: Fields = {
  acceptedOutputModes: true,
  pushNotification: ["pushNotificationConfig", (config) => reshape(config, PUSH_FROM_PROTO)],
  pushNotificationConfig: (config) => reshape(config, PUSH_FROM_PROTO),
  historyLength: integer,
  blocking: true,
};

/** SendMessageRequest (`message`, or its proto name `request`) -> MessageSendParams. */
export const sendFromProto: Convert = (request) =>
  reshape(request, {
    request: ["message", messageFromProto],
    message: messageFromProto,
    configuration: (configuration) => reshape(configuration, CONFIGURATION_FROM_PROTO),
    metadata: true,
  });

/** The body's push config (the proto's TaskPushNotificationConfig `{name, pushNotificationConfig}`), for task `taskId` (of the path, else of its name). */
export const pushConfigFromProto = (body: unknown, taskId?: unknown): JsonObject => ({
  taskId: taskId ?? /^tasks\/([^/]+)/.exec(String(jsonObject(body)?.name))?.[1],
  pushNotificationConfig: reshape(jsonObject(body)?.pushNotificationConfig, PUSH_FROM_PROTO),
});

// ---- for a REST origin: JSON-RPC requests -> ProtoJSON, ProtoJSON results -> JSON-RPC ----

const CONFIGURATION_TO_PROTO: Fields = {
  acceptedOutputModes: true,
  pushNotificationConfig: ["pushNotification", (config) => reshape(config, PUSH_FROM_PROTO)],
  historyLength: true,
  blocking: true,
};

/** MessageSendParams -> SendMessageRequest. */
export const sendToProto: Convert = (params) =>
  reshape(params, {
    message: messageToProto,
    configuration: (configuration) => reshape(configuration, CONFIGURATION_TO_PROTO),
    metadata: true,
  });

const STATUS_FROM_PROTO: Fields = { state: enumMap(PROTO_STATES, V03_STATES, true), message: messageFromProto, timestamp: true };
const statusFromProto: Convert = (status) => reshape(status, STATUS_FROM_PROTO);
const ARTIFACT_FROM_PROTO: Fields = { ...ARTIFACT_TO_PROTO, parts: listOf(partFromProto) };
const TASK_FROM_PROTO: Fields = {
  ...TASK_TO_PROTO,
  status: statusFromProto,
  artifacts: listOf((a) => reshape(a, ARTIFACT_FROM_PROTO)),
  history: listOf(messageFromProto),
};
export const taskFromProto: Convert = (task) => reshape(task, TASK_FROM_PROTO, { kind: "task" });

/** StreamResponse member -> 0.3 kind, fields, and what 0.3 requires that ProtoJSON leaves out at its default (`final: false`). */
const EVENTS_FROM_PROTO: readonly (readonly [member: string, kind: string, fields: Fields, base?: JsonObject])[] = [
  ["task", "task", TASK_FROM_PROTO],
  ["message", "message", MESSAGE_FROM_PROTO],
  [
    "statusUpdate",
    "status-update",
    { taskId: true, contextId: true, status: statusFromProto, final: true, metadata: true },
    { final: false },
  ],
  [
    "artifactUpdate",
    "artifact-update",
    { taskId: true, contextId: true, artifact: (a) => reshape(a, ARTIFACT_FROM_PROTO), append: true, lastChunk: true, metadata: true },
  ],
];

/** A StreamResponse (or SendMessageResponse) -> the bare 0.3 event; one with no known member is handed on. */
export function streamFromProto(response: unknown): unknown {
  const entry = isJsonObject(response) ? EVENTS_FROM_PROTO.find(([member]) => Object.hasOwn(response, member)) : undefined;
  return entry && isJsonObject(response) ? reshape(response[entry[0]], entry[2], { kind: entry[1], ...entry[3] }) : response;
}
