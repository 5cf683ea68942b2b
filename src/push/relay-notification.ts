// A notification the origin POSTed to the relay, as the client's generation shapes it. A 1.0 agent sends a
// StreamResponse (`{task}|{message}|{statusUpdate}|{artifactUpdate}`, application/a2a+json, @a2a-js/sdk's
// V1PushNotificationSerializer); a 0.3 agent the bare object of a stream event, a Task most often
// (application/json). It is read once (src/messages/: canonical names; two members of the StreamResponse
// oneof are refused), and every member of it that names a task must name the same one: the relay takes a
// notification about its config's task alone. When the call was bridged, the bridge's stream-event
// translation makes one generation the other (src/bridge/events.ts): what it cannot read is refused, never
// delivered half-translated.
import type { ProtocolGeneration } from "../a2a/correspondence";
import { eventKindOf } from "../a2a/v03";
import { isUnreadable, translateStreamEvent } from "../bridge";
import { isJsonObject, jsonObject } from "../json";
import { readNotification } from "../messages/calls";

/** The generations on the two sides of the relayed config's call. */
export interface RelayGenerations {
  clientGeneration: ProtocolGeneration;
  originGeneration: ProtocolGeneration;
}

const MEDIA = { "1.0": "application/a2a+json", "0.3": "application/json" } as const;
const V1_MEMBERS = ["task", "message", "statusUpdate", "artifactUpdate"];

/**
 * Every task a notification names (canonical names, either generation): a task's `id`; the `taskId` of an
 * event, of a message, of the message in a status and of each message in a task's history. Referenced
 * tasks (`referenceTaskIds`) name other tasks by design and are not among them.
 */
function namedTasks(notification: unknown): unknown[] {
  const outer = jsonObject(notification) ?? {};
  const member = V1_MEMBERS.find((name) => isJsonObject(outer[name]));
  const event = member ? (jsonObject(outer[member]) ?? {}) : outer;
  const isTask = member === "task" || (member === undefined && eventKindOf(event) === "task");
  const status = jsonObject(event.status);
  const history = Array.isArray(event.history) ? event.history : [];
  const messages = [jsonObject(status?.message), ...history.map(jsonObject)];
  const named = [...(isTask ? [event.id] : []), event.taskId, ...messages.map((message) => message?.taskId)];
  return named.filter((id) => id !== undefined);
}

/** The body delivered to the client and its media type, or why the notification is refused. */
export function notificationFor(
  received: unknown,
  sides: RelayGenerations,
): { body: string; contentType: string; taskId: string | undefined } | { refused: string } {
  if (!isJsonObject(received)) return { refused: "not_an_object" };
  const read = readNotification(sides.originGeneration, received);
  if ("refused" in read) return { refused: "unreadable" };
  const tasks = namedTasks(read.value);
  const [taskId] = tasks;
  if (tasks.some((id) => typeof id !== "string" || id === "" || id !== taskId)) return { refused: "tasks_differ" };
  const shaped = translateStreamEvent(read.value, sides.originGeneration, sides.clientGeneration);
  if (isUnreadable(shaped)) return { refused: "unreadable" };
  return {
    body: JSON.stringify(shaped),
    contentType: MEDIA[sides.clientGeneration],
    taskId: typeof taskId === "string" ? taskId : undefined,
  };
}
