// Every push notification config a call carries, in the canonical params of either generation, and the
// checks of its fields besides the URL. Where configs sit (official schemas, a2a/schema/):
// - 1.0 CreateTaskPushNotificationConfig: the params are the TaskPushNotificationConfig itself (flat `url`,
//   `token`, `authentication`); SendMessage / SendStreamingMessage: `configuration.taskPushNotificationConfig`;
// - 0.3 tasks/pushNotificationConfig/set: `pushNotificationConfig` of TaskPushNotificationConfig;
//   message/send, message/stream: `configuration.pushNotificationConfig`.
// Both generations' places are searched in every call (and `config`, where some 1.0 drafts and SDKs put
// it): a config in the other generation's place is no less a URL the origin may call, and the bridge
// could move it there.
import type { Operation } from "../a2a/operations";
import { isJsonObject } from "../json";
import { type PushUrlRules, pushUrlRefusal, withinBytes } from "./url-guard";

/** A config found: where (for the refusal's detail) and the value there. */
interface FoundConfig {
  path: string;
  value: unknown;
}

const CREATE_PLACES = ["pushNotificationConfig", "config"] as const;
const SEND_PLACES = ["pushNotificationConfig", "taskPushNotificationConfig"] as const;

/** The configs of a call's params: none for an operation that carries none (get, list, delete, ...). */
function configsOf(operation: Operation | undefined, params: unknown): FoundConfig[] {
  if (!isJsonObject(params)) return [];
  const found: FoundConfig[] = [];
  if (operation === "createPushNotificationConfig") {
    // 1.0's flat form: the params are the config.
    found.push({ path: "params", value: params });
    for (const place of CREATE_PLACES) if (place in params) found.push({ path: `params.${place}`, value: params[place] });
  } else if (operation === "sendMessage" || operation === "sendStreamingMessage") {
    const configuration = params.configuration;
    if (!isJsonObject(configuration)) return found;
    for (const place of SEND_PLACES)
      if (place in configuration) found.push({ path: `params.configuration.${place}`, value: configuration[place] });
  }
  return found;
}

/** C0 controls and DEL: a token or credential the origin sends as a header value must not split or end it. */
const hasControl = (text: string) => [...text].some((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f);

/** Why a header-bound field (token, credentials, scheme) is refused, or undefined. */
function fieldRefusal(path: string, value: unknown, maxBytes: number): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "string") return `${path} must be a string`;
  if (hasControl(value)) return `${path} must not contain CR, LF or other control characters`;
  if (!withinBytes(value, maxBytes)) return `${path} is longer than ${maxBytes} bytes (PUSH_FIELD_MAX_BYTES)`;
  return undefined;
}

/** Why one config is refused, or undefined. A config without `url` names nothing to call: the origin judges it. */
function configRefusal({ path, value }: FoundConfig, rules: PushUrlRules): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (Array.isArray(value)) return `${path} must be one config, not a list (one push config per call)`;
  if (!isJsonObject(value)) return `${path} must be an object`;
  if ("url" in value) {
    const why = pushUrlRefusal(value.url, rules);
    if (why) return `${path}.${why}`;
  }
  const token = fieldRefusal(`${path}.token`, value.token, rules.maxBytes);
  if (token) return token;
  const auth = value.authentication;
  if (auth === undefined) return undefined;
  if (!isJsonObject(auth)) return `${path}.authentication must be an object`;
  const schemes = Array.isArray(auth.schemes) ? auth.schemes : [];
  for (const [name, field] of [["credentials", auth.credentials], ["scheme", auth.scheme], ...schemes.map((s) => ["schemes[]", s])]) {
    const why = fieldRefusal(`${path}.authentication.${name}`, field, rules.maxBytes);
    if (why) return why;
  }
  return undefined;
}

/** Why a call's push configs may not reach the origin (the first rule a config breaks), or undefined. */
export function pushConfigRefusal(operation: Operation | undefined, params: unknown, rules: PushUrlRules): string | undefined {
  const found = configsOf(operation, params);
  // Two configs in one call (both generations' places, or flat and nested): which one an origin reads is up to
  // its parser, so the edge would have checked a URL the origin may not use. The schemas allow one per call.
  if (found.filter(({ value }) => isJsonObject(value) && "url" in value).length > 1) {
    return "push notification config refused: more than one push config in one call";
  }
  for (const config of found) {
    const why = configRefusal(config, rules);
    if (why) return `push notification config refused: ${why}`;
  }
  return undefined;
}
