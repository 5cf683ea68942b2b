// The reader (reader.ts) per call: a JSON-RPC method's params and result by the method's own generation
// (its name says which: 1.0's are PascalCase, 0.3's have slashes, SPEC-NOTES §3.1), and an HTTP+JSON
// body by its route's request message (google.api.http `body`: the request itself, or one of its fields).
// A method no table names (an extension's) is read by nobody here: its params go on as they came.
import type { Operation } from "../a2a/operations";
import { JSONRPC_METHODS } from "../a2a/v1";
import { type Reading, readMessage, type TableName } from "./reader";
import TABLES from "./tables.json";

interface MethodKinds {
  request: string;
  response: string;
  body: string;
  responseShape: string;
}

/** A method's kinds in a table, from its row [request, response, body, response shape] (trailing defaults left out). */
function kindsOf(table: TableName, method: string): MethodKinds | undefined {
  const methods = TABLES[table].methods as Record<string, readonly string[] | undefined>;
  const row = Object.hasOwn(methods, method) ? methods[method] : undefined;
  return row && { request: row[0] ?? "v", response: row[1] ?? "v", body: row[2] ?? "", responseShape: row[3] ?? "" };
}

/** The table and kinds of a JSON-RPC method of either generation. */
function methodOf(method: string): { table: TableName; kinds: MethodKinds } | undefined {
  for (const table of ["1.0", "0.3"] as const) {
    const kinds = kindsOf(table, method);
    if (kinds) return { table, kinds };
  }
  return undefined;
}

const asIs = (value: unknown): Reading => ({ value, changed: false });

/** A client's params, strictly: one canonical form, or why they are refused. */
export function readParams(method: string, params: unknown): Reading {
  const found = methodOf(method);
  return found && params !== undefined ? readMessage(found.table, found.kinds.request, params, true) : asIs(params);
}

/** An origin's result (or one event's) to `method`, leniently: the canonical names, or why it is unreadable. */
export function readResult(method: string, result: unknown): Reading {
  const found = methodOf(method);
  return found ? readMessage(found.table, found.kinds.response, result, false, found.kinds.responseShape) : asIs(result);
}

/** The proto whose ProtoJSON an HTTP+JSON body of `version` is (0.3's REST bodies are its gRPC proto's, not its JSON-RPC shapes). */
const REST_TABLE = { "1.0": "1.0", "0.3": "0.3-proto" } as const;

/** 0.3's rpcs that its proto names otherwise than 1.0's (a2a.proto @ v0.3.0). */
const V03_RPCS: Partial<Record<Operation, string>> = {
  subscribeToTask: "TaskSubscription",
  listPushNotificationConfigs: "ListTaskPushNotificationConfig",
};

/**
 * The kind of the HTTP+JSON body of an operation's request, or of its response: the rpc's request, or the
 * field the body is (0.3's CreateTaskPushNotificationConfig: `config`).
 */
function restKinds(version: "0.3" | "1.0", operation: Operation, side: "request" | "response"): string | undefined {
  const table = REST_TABLE[version];
  const kinds = kindsOf(table, (version === "0.3" ? V03_RPCS[operation] : undefined) ?? JSONRPC_METHODS[operation]);
  if (!kinds || side === "response") return kinds?.response;
  // An rpc whose binding has no body (google.api.http without `body`) reads none: a POST body there is ignored.
  if (kinds.body === "") return undefined;
  if (kinds.body === "*") return kinds.request;
  // The body is one field of the request (its JSON name is the proto name here: `config`).
  const fields = (TABLES[table].messages as Record<string, readonly (readonly string[])[] | undefined>)[kinds.request.slice(2)];
  return fields?.find(([name]) => name === kinds.body)?.[1];
}

/**
 * An HTTP+JSON body (a request's, or an origin's answer): its members by their JSON names, leniently
 * unless `strict` (a 1.0 request's body is its request message: read as a JSON-RPC call's params are).
 */
export function readRestBody(
  version: "0.3" | "1.0",
  operation: Operation,
  side: "request" | "response",
  body: unknown,
  strict = false,
): Reading {
  const kind = body === undefined ? undefined : restKinds(version, operation, side);
  return kind === undefined ? asIs(body) : readMessage(REST_TABLE[version], kind, body, strict);
}

/** One notification an origin POSTs to the relay (1.0 a StreamResponse, 0.3 a stream event), leniently. */
export function readNotification(generation: "0.3" | "1.0", notification: unknown): Reading {
  return readResult(generation === "1.0" ? "SendStreamingMessage" : "message/stream", notification);
}
