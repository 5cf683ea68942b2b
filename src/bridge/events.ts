// Tasks and the events of a stream. 0.3 sends each as a bare object told apart
// by `kind` (`task`, `message`, `status-update`, `artifact-update`; a2a.json
// @ v0.3.0 SendStreamingMessageSuccessResponse); 1.0 wraps it in a
// StreamResponse oneof (`{task}|{message}|{statusUpdate}|{artifactUpdate}`,
// proto @ v1.0.1; SPEC-NOTES §3.3), and SendMessage's result in the
// SendMessageResponse oneof `{task}|{message}`: one table serves both.
import { eventKindOf } from "../a2a/v03";
import { isJsonObject } from "../json";
import { artifactV1, artifactV03, messageV1, messageV03 } from "./parts";
import { type Convert, enumMap, type Fields, listOf, reshape, unlessEmpty } from "./reshape";
import { Unreadable } from "./unreadable";

/** proto `TaskState` in number order, and the 0.3 state at the same position. */
export const V1_STATES = [
  "TASK_STATE_UNSPECIFIED",
  "TASK_STATE_SUBMITTED",
  "TASK_STATE_WORKING",
  "TASK_STATE_COMPLETED",
  "TASK_STATE_FAILED",
  "TASK_STATE_CANCELED",
  "TASK_STATE_INPUT_REQUIRED",
  "TASK_STATE_REJECTED",
  "TASK_STATE_AUTH_REQUIRED",
];
/** 0.3 `unknown` is 1.0's TASK_STATE_UNSPECIFIED ("an unknown or indeterminate state", proto comment). */
export const V03_STATES = [
  "unknown",
  "submitted",
  "working",
  "completed",
  "failed",
  "canceled",
  "input-required",
  "rejected",
  "auth-required",
];

/**
 * 1.0 removed `final` (A2A #1308: the stream's end says it); 0.3 requires it,
 * "the final event in the stream". A 1.0 server ends a stream after a terminal
 * state or input-required (proto SendMessageConfiguration.return_immediately;
 * @a2a-js/sdk 1.3 `events()`), while auth-required keeps it open for the
 * credentials that resume the task, so only the former are final.
 */
const FINAL_V03_STATES: ReadonlySet<unknown> = new Set(["completed", "failed", "canceled", "rejected", "input-required"]);

// ---- 0.3 -> 1.0 ----

const STATUS_V1: Fields = { state: enumMap(V03_STATES, V1_STATES, false), message: messageV1, timestamp: true };
const statusV1 = (status: unknown) => reshape(status, STATUS_V1);

const TASK_V1: Fields = {
  id: true,
  contextId: unlessEmpty,
  status: statusV1,
  artifacts: listOf(artifactV1),
  history: listOf(messageV1),
  metadata: true,
};
export const taskV1 = (task: unknown): unknown => reshape(task, TASK_V1);

/** `final` dropped (see FINAL_V03_STATES). */
const STATUS_UPDATE_V1: Fields = { taskId: true, contextId: true, status: statusV1, metadata: true };
const ARTIFACT_UPDATE_V1: Fields = { taskId: true, contextId: true, artifact: artifactV1, append: true, lastChunk: true, metadata: true };

// ---- 1.0 -> 0.3 ----

const STATUS_V03: Fields = { state: enumMap(V1_STATES, V03_STATES, true), message: messageV03, timestamp: true };
const statusV03 = (status: unknown) => reshape(status, STATUS_V03);

const TASK_V03: Fields = { ...TASK_V1, contextId: true, status: statusV03, artifacts: listOf(artifactV03), history: listOf(messageV03) };
/** 0.3 requires `contextId`; a 1.0 task without one has the proto default, "". */
export const taskV03 = (task: unknown): unknown => reshape(task, TASK_V03, { kind: "task", contextId: "" });

function statusUpdateV03(event: unknown): unknown {
  const out = reshape(event, { ...STATUS_UPDATE_V1, status: statusV03 }, { kind: "status-update" });
  if (!isJsonObject(out)) return out;
  const state = isJsonObject(out.status) ? out.status.state : undefined;
  return { ...out, final: FINAL_V03_STATES.has(state) };
}

const artifactUpdateV03 = (event: unknown) => reshape(event, { ...ARTIFACT_UPDATE_V1, artifact: artifactV03 }, { kind: "artifact-update" });

// ---- the stream ----

/** 0.3 `kind`, 1.0 oneof member, and the converters each way. */
const EVENTS: readonly (readonly [kind: string, member: string, toV1: Convert, toV03: Convert])[] = [
  ["task", "task", taskV1, taskV03],
  ["message", "message", messageV1, messageV03],
  ["status-update", "statusUpdate", (event) => reshape(event, STATUS_UPDATE_V1), statusUpdateV03],
  ["artifact-update", "artifactUpdate", (event) => reshape(event, ARTIFACT_UPDATE_V1), artifactUpdateV03],
];

/**
 * A 0.3 event (or SendMessage result) -> its 1.0 StreamResponse (or SendMessageResponse). Read by `kind`,
 * or by its shape when `kind` is absent (eventKindOf); anything else is Unreadable, never handed on.
 */
export function streamResponseV1(event: unknown): unknown {
  const kind = isJsonObject(event) ? eventKindOf(event) : undefined;
  const entry = EVENTS.find(([name]) => name === kind);
  return entry ? { [entry[1]]: entry[2](event) } : new Unreadable("a 0.3 result or event of no known kind");
}

/**
 * A 1.0 StreamResponse (or SendMessageResponse) -> the bare 0.3 event. Either oneof style is read: the
 * member-named wrapper (ProtoJSON, `{"task": {...}}`) or the bare object known by its shape.
 */
export function streamEventV03(response: unknown): unknown {
  if (!isJsonObject(response)) return new Unreadable("a 1.0 result or event that is not an object");
  const member = EVENTS.find(([, name]) => Object.hasOwn(response, name));
  if (member) return member[3](response[member[1]]);
  const kind = eventKindOf(response);
  const bare = EVENTS.find(([name]) => name === kind);
  return bare ? bare[3](response) : new Unreadable("a 1.0 result or event of no StreamResponse member");
}
