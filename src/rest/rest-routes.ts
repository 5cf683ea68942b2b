// The HTTP+JSON (REST) routes of A2A 1.0 and 0.3 and the operation each one
// names. 1.0: the google.api.http annotations of proto @ v1.0.1 (SPEC-NOTES
// §3.5): no /v1 prefix (A2A #1269), every route also under `/{tenant}`
// (`additional_bindings`); subscribe is `get` in the proto but POST in spec
// §5.3/§11.3, so both. 0.3: spec v0.3.0 §3.5.6 and @a2a-js/sdk 1.3
// legacyRestRouter: the same paths under /v1, the extended card at
// `GET /v1/card`, subscribe by GET or POST, no ListTasks (no 0.3 REST route;
// the SDK's 0.3 REST client refuses it).
import { OPERATIONS, type Operation } from "../a2a/operations";

export type RestVersion = "0.3" | "1.0";

/** Path variables, percent-decoded; `id` is the task, `configId` a push config. */
export interface PathParams {
  tenant?: string;
  id?: string;
  configId?: string;
}

export interface RestRoute {
  operation: Operation;
  version: RestVersion;
  pathParams: PathParams;
}

/** `methodNotAllowed` lists the methods the path has (the `Allow` header of a 405). */
export type RestMatch = RestRoute | { notFound: true } | { methodNotAllowed: string[] };

const PUSH = "tasks/{id}/pushNotificationConfigs";
type OperationIndex = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10;

/**
 * Methods, path (1.0's) and operation: its position in OPERATIONS, which is
 * also its row in the bridge's METHODS table (test/worker/rest-routes.test.ts
 * holds the three together). Order matters where one path fits two templates:
 * `/tasks/a:cancel` is CancelTask for POST, GetTask (of task "a:cancel") for
 * GET, as an Express router with the same table answers.
 */
const TEMPLATES: readonly (readonly [methods: string, path: string, operation: OperationIndex])[] = [
  ["POST", "message:send", 0], // sendMessage
  ["POST", "message:stream", 1], // sendStreamingMessage
  ["POST", "tasks/{id}:cancel", 4], // cancelTask
  ["GET POST", "tasks/{id}:subscribe", 5], // subscribeToTask
  ["GET", "tasks/{id}", 2], // getTask
  ["GET", "tasks", 3], // listTasks: no 0.3 route
  ["POST", PUSH, 6], // createPushNotificationConfig
  ["GET", PUSH, 8], // listPushNotificationConfigs
  ["GET", `${PUSH}/{configId}`, 7], // getPushNotificationConfig
  ["DELETE", `${PUSH}/{configId}`, 9], // deletePushNotificationConfig
  ["GET", "extendedAgentCard", 10], // getExtendedAgentCard: 0.3 `v1/card`
];

interface CompiledRoute {
  version: RestVersion;
  /** The template, `/` first: `{name}` for each variable. */
  path: string;
  methods: string[];
  operation: Operation;
  pattern: RegExp;
  names: (keyof PathParams)[];
}

const VARIABLE = /\{(\w+)\}/g;

function compile(version: RestVersion, path: string, methods: string, index: OperationIndex): CompiledRoute {
  // Names are tenant, id, configId: the keys of PathParams, and the only ones the templates use.
  const names = [...path.matchAll(VARIABLE)].map((found) => found[1] as keyof PathParams);
  // A variable is one non-empty segment (`{id=*}`): empty segments and a trailing slash match nothing.
  return {
    version,
    path: `/${path}`,
    methods: methods.split(" "),
    operation: OPERATIONS[index],
    pattern: new RegExp(`^/${path.replace(VARIABLE, "([^/]+)")}$`),
    names,
  };
}

/** 0.3 first: a 1.0 tenant named "v1" is reached with `version` "1.0" (A2A-Version: 1.0); untenanted before tenanted. */
const ROUTES: readonly CompiledRoute[] = [
  ...TEMPLATES.filter(([, , operation]) => operation !== 3).map(([methods, path, operation]) =>
    compile("0.3", operation === 10 ? "v1/card" : `v1/${path}`, methods, operation),
  ),
  ...TEMPLATES.map(([methods, path, operation]) => compile("1.0", path, methods, operation)),
  ...TEMPLATES.map(([methods, path, operation]) => compile("1.0", `{tenant}/${path}`, methods, operation)),
];

/**
 * Whether a caller's value can stand as one path segment: not empty, no `/`, and not a dot segment, which
 * URL resolution (RFC 3986 §5.2.4; WHATWG URL also reads `%2e` as a dot) would climb out of the base with.
 */
function isPathSegment(value: string): boolean {
  return value !== "" && value !== "." && value !== ".." && !value.includes("/");
}

/** A path variable percent-decoded; undefined when it does not decode or is not one segment (`%2e%2e`, `a%2Fb`). */
function decoded(raw: string): string | undefined {
  try {
    const value = decodeURIComponent(raw);
    return isPathSegment(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function pathParams(route: CompiledRoute, found: RegExpExecArray): PathParams | undefined {
  const params: PathParams = {};
  for (const [index, name] of route.names.entries()) {
    const value = decoded(found[index + 1] ?? "");
    if (value === undefined) return undefined;
    params[name] = value;
  }
  return params;
}

/**
 * The route of `method` (upper case, as HTTP sends it) and `path` (after the
 * REST prefix, without the query), in `version` when given (the caller's
 * A2A-Version), else in either. A path some route has but not for this method
 * is `methodNotAllowed`, with every method it has.
 */
export function matchRestRoute(method: string, path: string, version?: RestVersion): RestMatch {
  const allowed = new Set<string>();
  for (const route of ROUTES) {
    const found = version === undefined || route.version === version ? route.pattern.exec(path) : null;
    const params = found && pathParams(route, found);
    if (!params) continue;
    if (route.methods.includes(method)) return { operation: route.operation, version: route.version, pathParams: params };
    for (const allow of route.methods) allowed.add(allow);
  }
  return allowed.size > 0 ? { methodNotAllowed: [...allowed] } : { notFound: true };
}

/**
 * The path of `operation` in `version` for a REST origin (the reverse of
 * matchRestRoute): the first route's method (GET for subscribe, as the proto
 * binds it), variables percent-encoded (a `:` too, as @a2a-js/sdk's clients
 * write them), under `/{tenant}` when a tenant is given; `names`: the
 * variables it took. Undefined when the version has no route for it;
 * `missing` naming a variable the route needs that the call lacks; `invalid` naming a variable whose value
 * is not one path segment (`..` would reach outside the origin's base).
 */
export function restPath(
  operation: Operation,
  version: RestVersion,
  pathParams: PathParams,
):
  | { method: string; path: string; names: (keyof PathParams)[] }
  | { invalid: keyof PathParams }
  | { missing: keyof PathParams }
  | undefined {
  const tenanted = pathParams.tenant !== undefined;
  const route = ROUTES.find((r) => r.version === version && r.operation === operation && r.names.includes("tenant") === tenanted);
  if (!route?.methods[0]) return undefined;
  // The operation has a route, but the call lacks an id it needs: invalid params (-32602), as the origin
  // itself would answer, never "method not found".
  const missing = route.names.find((name) => !pathParams[name]);
  if (missing) return { missing };
  const invalid = route.names.find((name) => !isPathSegment(pathParams[name] ?? ""));
  if (invalid) return { invalid };
  const path = route.path.replace(VARIABLE, (_, name: keyof PathParams) => encodeURIComponent(pathParams[name] ?? ""));
  return { method: route.methods[0], path, names: route.names };
}
