// A notification the origin POSTed to the relay, as the client's generation shapes it. A 1.0 agent sends a
// StreamResponse (`{task}|{message}|{statusUpdate}|{artifactUpdate}`, application/a2a+json, @a2a-js/sdk's
// V1PushNotificationSerializer); a 0.3 agent the bare object of a stream event, a Task most often
// (application/json). When the call was bridged, the bridge's stream-event translation makes one the other
// (src/bridge/events.ts): what it cannot read is refused, never delivered half-translated.
import type { ProtocolGeneration } from "../a2a/correspondence";
import { isUnreadable, translateStreamEvent } from "../bridge";
import { isJsonObject } from "../json";

/** The generations on the two sides of the relayed config's call. */
export interface RelayGenerations {
  clientGeneration: ProtocolGeneration;
  originGeneration: ProtocolGeneration;
}

const MEDIA = { "1.0": "application/a2a+json", "0.3": "application/json" } as const;
const V1_MEMBERS = ["task", "message", "statusUpdate", "artifactUpdate"];

const text = (value: unknown): string | undefined => (typeof value === "string" && value !== "" ? value : undefined);

/** The task a notification is of, in either generation: a task's `id`, an event's or message's `taskId`. */
function notificationTask(notification: unknown): string | undefined {
  if (!isJsonObject(notification)) return undefined;
  const member = V1_MEMBERS.find((name) => isJsonObject(notification[name]));
  const event = member ? notification[member] : notification;
  if (!isJsonObject(event)) return undefined;
  const isTask = member === "task" || (member === undefined && event.kind === "task");
  return isTask ? text(event.id) : text(event.taskId);
}

/** The body delivered to the client and its media type, or why the notification is refused. */
export function notificationFor(
  notification: unknown,
  sides: RelayGenerations,
): { body: string; contentType: string; taskId: string | undefined } | { refused: string } {
  if (!isJsonObject(notification)) return { refused: "not_an_object" };
  const shaped = translateStreamEvent(notification, sides.originGeneration, sides.clientGeneration);
  if (isUnreadable(shaped)) return { refused: "unreadable" };
  return { body: JSON.stringify(shaped), contentType: MEDIA[sides.clientGeneration], taskId: notificationTask(notification) };
}
