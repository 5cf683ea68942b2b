// The relay's view of push notification configs (docs/push-notifications.md "The relay"), pure: the config
// the origin receives in place of the client's (the edge's URL, `<base>/_push/<ref>`, and a token of the
// edge's; the client's authentication removed), the configs of an origin's reply that name a relay URL
// (Create, Get and List echo them: the client gets its own URL and token back), and the task and config a
// relayed config belongs to (so Delete ends it). The places configs sit are push-configs.ts's.
import type { Operation } from "../a2a/operations";
import { isJsonObject, type JsonObject } from "../json";
import { configsOf, replaceAt } from "./push-configs";

/** Where the origin POSTs a relayed notification: `<public base>/_push/<ref>`, beside ADMIN_PATH's `/_admin`. */
export const RELAY_PATH = "/_push";

/** A ref: 16 random bytes, unpadded base64url. */
const REF = /^[A-Za-z0-9_-]{22}$/;

/** What the client gave (the origin never sees it), in the shape of the origin's generation. */
export interface ClientWebhook {
  url: string;
  token?: string;
  authentication?: unknown;
}

/** The relay URL and token given to the origin in place of the client's. */
interface RelayEndpoint {
  url: string;
  token: string;
}

export interface RelayedConfig {
  params: unknown;
  client: ClientWebhook;
  /** The config's id and task, when the call names them (else learned from the reply or the first notification). */
  configId: string | undefined;
  taskId: string | undefined;
}

const nonEmpty = (value: unknown): string | undefined => (typeof value === "string" && value !== "" ? value : undefined);

/** The task a create or send names: 1.0 and 0.3 `taskId` of a create, `message.taskId` of a send. */
function taskOf(operation: Operation | undefined, params: JsonObject): string | undefined {
  if (operation === "createPushNotificationConfig") return nonEmpty(params.taskId);
  return isJsonObject(params.message) ? nonEmpty(params.message.taskId) : undefined;
}

/** The call's params with its config's webhook replaced by the relay's; undefined when it carries none. */
export function relayConfigIn(operation: Operation | undefined, params: unknown, relay: RelayEndpoint): RelayedConfig | undefined {
  if (!isJsonObject(params)) return undefined;
  // One config per call (the guard refuses two): the one with a url is the webhook.
  const found = configsOf(operation, params).find(({ value }) => isJsonObject(value) && typeof value.url === "string");
  if (!found || !isJsonObject(found.value)) return undefined;
  const { url, token, authentication, ...rest } = found.value;
  const client: ClientWebhook = { url: String(url) };
  if (typeof token === "string") client.token = token;
  if (authentication !== undefined) client.authentication = authentication;
  const replaced = { ...rest, url: relay.url, token: relay.token };
  return { params: replaceAt(params, found.keys, replaced), client, configId: nonEmpty(found.value.id), taskId: taskOf(operation, params) };
}

/** The host and ref of a relay URL, or undefined for any other URL. */
function relayRefOf(url: unknown): { host: string; hostname: string; ref: string } | undefined {
  if (typeof url !== "string") return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  const at = parsed.pathname.lastIndexOf(`${RELAY_PATH}/`);
  const ref = at < 0 ? "" : parsed.pathname.slice(at + RELAY_PATH.length + 1);
  return REF.test(ref) ? { host: parsed.host, hostname: parsed.hostname, ref } : undefined;
}

/** A config of a reply that names a relay URL, with the task it is of (the nearest `taskId` around it). */
export interface EchoedConfig {
  config: JsonObject;
  taskId: string | undefined;
  host: string;
  hostname: string;
  ref: string;
}

const CONFIG_MEMBERS = ["pushNotificationConfig", "taskPushNotificationConfig", "config", "configs"];

/**
 * The relayed configs of a reply's result, in either generation: 1.0 Create/Get answer the flat
 * TaskPushNotificationConfig, List `{configs: [...]}`; 0.3 set/get `{taskId, pushNotificationConfig}`,
 * list an array of those.
 */
export function echoedConfigs(result: unknown, taskId?: string, depth = 0, out: EchoedConfig[] = []): EchoedConfig[] {
  if (depth > 3) return out;
  if (Array.isArray(result)) {
    for (const item of result) echoedConfigs(item, taskId, depth + 1, out);
    return out;
  }
  if (!isJsonObject(result)) return out;
  const task = nonEmpty(result.taskId) ?? taskId;
  const relay = relayRefOf(result.url);
  if (relay) out.push({ config: result, taskId: task, ...relay });
  for (const member of CONFIG_MEMBERS) if (member in result) echoedConfigs(result[member], task, depth + 1, out);
  return out;
}

/** Puts the client's own webhook back into a config the origin echoed (in place: the outcome is the edge's own copy). */
export function restoreClient(config: JsonObject, client: ClientWebhook): void {
  config.url = client.url;
  if (client.token === undefined) delete config.token;
  else config.token = client.token;
  if (client.authentication === undefined) delete config.authentication;
  else config.authentication = client.authentication;
}

/** The task and config a Delete names: 1.0 `{taskId, id}`, 0.3 `{id, pushNotificationConfigId}`. */
export function deletedConfig(params: unknown): { taskId: string; configId: string | undefined } | undefined {
  if (!isJsonObject(params)) return undefined;
  const taskId = nonEmpty(params.taskId) ?? nonEmpty(params.id);
  if (taskId === undefined) return undefined;
  return { taskId, configId: nonEmpty(params.taskId) !== undefined ? nonEmpty(params.id) : nonEmpty(params.pushNotificationConfigId) };
}

/** The task a send's result is of: 1.0 `{task: {id}}`, 0.3 a Task (`kind: "task"`), or a message's `taskId`. */
export function resultTask(result: unknown): string | undefined {
  if (!isJsonObject(result)) return undefined;
  if (isJsonObject(result.task)) return nonEmpty(result.task.id);
  if (isJsonObject(result.message)) return nonEmpty(result.message.taskId);
  return result.kind === "task" ? nonEmpty(result.id) : nonEmpty(result.taskId);
}
