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
import type { FieldViolation } from "../errors/failures";
import { isJsonObject } from "../json";
import { hasControl, type PushUrlRules, pushUrlRefusal, withinBytes } from "./url-guard";

/** A config found: where (for the refusal's detail, and as keys from the params) and the value there. */
export interface FoundConfig {
  path: string;
  /** The members from the params to the config: [] when the params are the config (1.0's flat create). */
  keys: readonly string[];
  value: unknown;
}

const CREATE_PLACES = ["pushNotificationConfig", "config"] as const;
const SEND_PLACES = ["pushNotificationConfig", "taskPushNotificationConfig"] as const;

/** The configs of a call's params: none for an operation that carries none (get, list, delete, ...). */
export function configsOf(operation: Operation | undefined, params: unknown): FoundConfig[] {
  if (!isJsonObject(params)) return [];
  const found: FoundConfig[] = [];
  if (operation === "createPushNotificationConfig") {
    // 1.0's flat form: the params are the config.
    found.push({ path: "params", keys: [], value: params });
    for (const place of CREATE_PLACES) if (place in params) found.push({ path: `params.${place}`, keys: [place], value: params[place] });
  } else if (operation === "sendMessage" || operation === "sendStreamingMessage") {
    const configuration = params.configuration;
    if (!isJsonObject(configuration)) return found;
    for (const place of SEND_PLACES)
      if (place in configuration)
        found.push({ path: `params.configuration.${place}`, keys: ["configuration", place], value: configuration[place] });
  }
  return found;
}

/** Why a header-bound field (token, credentials, scheme) is refused (what is wrong with it), or undefined. */
function fieldRefusal(value: unknown, maxBytes: number): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "string") return "must be a string";
  if (hasControl(value)) return "must not contain CR, LF or other control characters";
  if (!withinBytes(value, maxBytes)) return `is longer than ${maxBytes} bytes (PUSH_FIELD_MAX_BYTES)`;
  return undefined;
}

/** The refused field of an authentication object, or undefined. */
function authRefusal(path: string, auth: unknown, maxBytes: number): FieldViolation | undefined {
  if (auth === undefined) return undefined;
  if (!isJsonObject(auth)) return { path, message: "must be an object" };
  const schemes = Array.isArray(auth.schemes) ? auth.schemes : [];
  const fields: [string, unknown][] = [
    ["credentials", auth.credentials],
    ["scheme", auth.scheme],
    ...schemes.map((s): [string, unknown] => ["schemes[]", s]),
  ];
  for (const [name, field] of fields) {
    const why = fieldRefusal(field, maxBytes);
    if (why) return { path: `${path}.${name}`, message: why };
  }
  return undefined;
}

/** The refused field of one config, or undefined. A config without `url` names nothing to call: the origin judges it. */
function configRefusal({ path, value }: FoundConfig, rules: PushUrlRules): FieldViolation | undefined {
  if (value === undefined || value === null) return undefined;
  if (Array.isArray(value)) return { path, message: "must be one config, not a list (one push config per call)" };
  if (!isJsonObject(value)) return { path, message: "must be an object" };
  if ("url" in value) {
    const why = pushUrlRefusal(value.url, rules);
    if (why) return { path: `${path}.url`, message: why };
  }
  const token = fieldRefusal(value.token, rules.maxBytes);
  if (token) return { path: `${path}.token`, message: token };
  return authRefusal(`${path}.authentication`, value.authentication, rules.maxBytes);
}

/** `params` with `value` at `keys` (copied along the way; the caller's params stay as they were). */
export function replaceAt(params: unknown, keys: readonly string[], value: unknown): unknown {
  const [first, ...rest] = keys;
  if (first === undefined || !isJsonObject(params)) return value;
  return { ...params, [first]: replaceAt(params[first], rest, value) };
}

/**
 * The params with every config's URL in its serialized form (WHATWG URL `href`, as the guard read it:
 * lower-case scheme and host, IPv4 in dotted decimal, the default port dropped), so that the origin's
 * HTTP client reads the URL the guard checked; undefined when every URL already is. Only for URLs the
 * guard admitted.
 */
export function serializedUrls(operation: Operation | undefined, params: unknown): unknown {
  let out: unknown;
  for (const { keys, value } of configsOf(operation, params)) {
    if (!isJsonObject(value) || typeof value.url !== "string") continue;
    const href = new URL(value.url).href;
    if (href !== value.url) out = replaceAt(out ?? params, keys, { ...value, url: href });
  }
  return out;
}

/** The first field of a call's push configs that may not reach the origin (the rule it breaks), or undefined. */
export function pushConfigRefusal(
  operation: Operation | undefined,
  params: unknown,
  /** The rules, or how to make them: built only for a call that carries a config (most carry none). */
  rulesOf: PushUrlRules | (() => PushUrlRules),
): FieldViolation | undefined {
  const found = configsOf(operation, params);
  if (found.length === 0) return undefined;
  const rules = typeof rulesOf === "function" ? rulesOf() : rulesOf;
  // Two configs in one call (both generations' places, or flat and nested): which one an origin reads is up to
  // its parser, so the edge would have checked a URL the origin may not use. The schemas allow one per call.
  if (found.filter(({ value }) => isJsonObject(value) && "url" in value).length > 1) {
    return { path: "params", message: "holds more than one push config in one call" };
  }
  for (const config of found) {
    const refused = configRefusal(config, rules);
    if (refused) return refused;
  }
  return undefined;
}
