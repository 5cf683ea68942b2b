// What an origin agent acts on, read from the request it received by readers that share nothing with the
// edge (DESIGN "One reading": the edge is safe only where it and the origin read a message the same way):
// - @a2a-js/sdk 1.3 itself: its JSON-RPC server decodes params with the generated ts-proto codecs
//   (`SendMessageRequest.fromJSON`, ...: JSON name, else proto name); its REST server reads the body the
//   same way and merges the path's tenant and task id over it;
// - its 0.3 REST router (legacyRestRouter), whose 0.3 proto codecs it does not export: mirrored here
//   (JSON name, else proto name; the task of a create from the body's `name`, send's historyLength unread);
// - a2a-js 0.3 (`a2a-sdk-03`): JSON.parse (the last of a repeated member) and plain property access;
// - Go's encoding/json: every member in order, a field taking the last one whose name equals its name
//   under Unicode simple case folding (`URL` is `url`, `ſ` is `s`, the Kelvin sign is `k`), strict types;
// - a first-match reader (gjson, simdjson's find_field): the first member of exactly the field's name;
// - a2a-python 0.3's pydantic models: the camelCase alias, else the snake_case field name, lax integers.
// The edge's own reading of what it forwarded (src/messages/) is the reference every reader's ids meet.
import {
  CancelTaskRequest,
  GetTaskPushNotificationConfigRequest,
  GetTaskRequest,
  SendMessageRequest,
  TaskPushNotificationConfig,
} from "@a2a-js/sdk";
import type { Operation as EdgeOperation } from "../../src/a2a/operations";
import { readParams, readRestBody } from "../../src/messages/calls";
import { readOrdered } from "./ordered-json";
import {
  CONFIG_V03,
  type Generation,
  matchRoute,
  type Operation,
  operationOf,
  pathParams,
  SCHEMAS,
  sendFromProto,
  type View,
  viewOf,
} from "./origin-shapes";
import { FIRST, GO, isRecord, PYDANTIC, Refusal, readBy, refuse, type Style, TS_PROTO } from "./reader-styles";

/** What the origin received. */
export interface Received {
  httpMethod: string;
  /** The path below the origin's base (REST), or "" (JSON-RPC); the query after `?`. */
  path: string;
  query: URLSearchParams;
  body: string;
}

export interface OriginKind {
  binding: "jsonrpc" | "http+json";
  generation: Generation;
}

/** What one reader takes, or that it refuses the request (takes nothing). */
export type Reading = { reader: string; operation: Operation | undefined } & (View | { refused: string });

/** @a2a-js/sdk 1.3's JSON-RPC server: the codec of each method (jsonrpc_transport_handler). */
const SDK_CODECS: Readonly<Record<string, (params: unknown) => unknown>> = {
  SendMessage: SendMessageRequest.fromJSON,
  GetTask: GetTaskRequest.fromJSON,
  CancelTask: CancelTaskRequest.fromJSON,
  CreateTaskPushNotificationConfig: TaskPushNotificationConfig.fromJSON,
  GetTaskPushNotificationConfig: GetTaskPushNotificationConfigRequest.fromJSON,
};

type Reader = (received: Received) => { operation: Operation | undefined; view: () => View };
const NONE: View = { urls: [], tokens: [], ids: {} };

/** A JSON-RPC reader: the envelope's method and params as `envelope` reads them, the params by `params`. */
function jsonRpc(generation: Generation, envelope: (body: string) => { method: unknown; params: unknown }, params: Style | "raw"): Reader {
  return (received) => {
    const rpc = envelope(received.body);
    const operation = operationOf(rpc.method);
    const object = params === "raw" || params === PYDANTIC ? rpc.params : GO.object(rpc.params);
    const read = () => (params === "raw" ? object : readBy(params, object, SCHEMAS[generation][operation ?? "getTask"]));
    return { operation, view: () => (operation ? viewOf(generation, operation, read()) : NONE) };
  };
}

const parsed = (body: string) => JSON.parse(body) as { method: unknown; params: unknown };
/** The envelope of every member kept, its method and params as `style` finds them. */
const orderedEnvelope = (style: Style) => (body: string) => {
  const envelope = readOrdered(body);
  return { method: style.member(envelope, "method"), params: style.member(envelope, "params") };
};

const sdkJsonRpc: Reader = (received) => {
  const rpc = parsed(received.body);
  const method = typeof rpc.method === "string" && Object.hasOwn(SDK_CODECS, rpc.method) ? rpc.method : undefined;
  const operation = operationOf(method);
  return { operation, view: () => (method && operation ? viewOf("1.0", operation, SDK_CODECS[method]?.(rpc.params ?? {})) : NONE) };
};

/**
 * A REST reader: `body` reads the JSON body into the call's params (the JSON-RPC shape of its generation);
 * the path's variables go over them, or under them where the body is what the server reads (`bodyWins`).
 */
function rest(
  generation: Generation,
  body: (operation: Operation, text: string, vars: Record<string, string>) => Record<string, unknown>,
  historyLength: (query: URLSearchParams) => unknown,
  bodyWins = false,
): Reader {
  return (received) => {
    const route = matchRoute(generation, received.httpMethod, received.path);
    const operation = route?.operation;
    const view = () => {
      if (!route || !operation) return NONE;
      const fromBody = received.httpMethod === "POST" ? body(operation, received.body || "{}", route.vars) : {};
      const history = operation === "getTask" ? historyLength(received.query) : undefined;
      const fromPath = pathParams(generation, operation, route.vars, history);
      return viewOf(generation, operation, bodyWins ? { ...fromPath, ...fromBody } : { ...fromBody, ...fromPath });
    };
    return { operation, view };
  };
}

/** @a2a-js/sdk 1.3's REST server (restHandler): the codecs on the body, the path's tenant set into it first. */
const sdkRest = rest(
  "1.0",
  (operation, text, vars) => {
    const body = { ...(JSON.parse(text) as Record<string, unknown>), ...(vars.tenant ? { tenant: vars.tenant } : {}) };
    const codec = operation === "sendMessage" ? SendMessageRequest.fromJSON : TaskPushNotificationConfig.fromJSON;
    return codec(body) as unknown as Record<string, unknown>;
  },
  (query) => (query.has("historyLength") ? Number.parseInt(query.get("historyLength") ?? "", 10) : undefined),
);

/** A send's historyLength unread (FromProto.messageSendConfiguration of the 0.3 REST router hands none on). */
const withoutSendHistory =
  (reader: Reader): Reader =>
  (received) => {
    const found = reader(received);
    const view = () => {
      const { ids, ...rest } = found.view();
      const { historyLength: _unread, ...others } = ids;
      return { ...rest, ids: found.operation === "sendMessage" ? others : ids };
    };
    return { operation: found.operation, view };
  };

/** Its 0.3 REST router: SendMessageRequest/TaskPushNotificationConfig of the 0.3 proto, then FromProto. */
const sdkLegacyRest = withoutSendHistory(
  rest(
    "0.3",
    (operation, text) => {
      const body = JSON.parse(text) as unknown;
      if (operation === "sendMessage") {
        const read = readBy(TS_PROTO, body, { message: { taskId: "s" }, configuration: { pushNotification: CONFIG_V03 } });
        return read.message ? sendFromProto(read) : refuse("SendMessageRequest missing message");
      }
      const read = readBy(TS_PROTO, body, { name: "s", pushNotificationConfig: CONFIG_V03 });
      const task = /^tasks\/([^/]+)(?:\/|$)/.exec(String(read.name ?? ""))?.[1] ?? refuse("no task in name");
      return { taskId: task, pushNotificationConfig: read.pushNotificationConfig ?? refuse("missing pushNotificationConfig") };
    },
    (query) => {
      const value = query.get("historyLength") ?? query.get("history_length");
      return value === null ? undefined : Number.parseInt(value, 10);
    },
    true,
  ),
);

/** Go's encoding/json (or another ordered reader) on a REST body (its proto's JSON names), the path over it, the query by exact name. */
function orderedRest(generation: Generation, style: Style): Reader {
  return rest(
    generation,
    (operation, text) => {
      const body = readOrdered(text);
      if (generation === "1.0") return readBy(style, style.object(body), SCHEMAS["1.0"][operation]);
      if (operation !== "sendMessage") return readBy(style, style.object(body), { pushNotificationConfig: CONFIG_V03 });
      const send = { message: { taskId: "s" }, configuration: { pushNotification: CONFIG_V03, historyLength: "i" } } as const;
      return sendFromProto(readBy(style, style.object(body), send));
    },
    (query) => {
      const value = query.get("historyLength");
      return value === null ? undefined : /^-?\d+$/.test(value) ? Number(value) : refuse("historyLength is no int");
    },
  );
}

const READERS: Record<string, Readonly<Record<string, Reader>>> = {
  "jsonrpc 1.0": {
    "@a2a-js/sdk 1.3": sdkJsonRpc,
    "Go encoding/json": jsonRpc("1.0", orderedEnvelope(GO), GO),
    "first member wins": jsonRpc("1.0", orderedEnvelope(FIRST), FIRST),
  },
  "jsonrpc 0.3": {
    "a2a-js 0.3": jsonRpc("0.3", parsed, "raw"),
    "Go encoding/json": jsonRpc("0.3", orderedEnvelope(GO), GO),
    "first member wins": jsonRpc("0.3", orderedEnvelope(FIRST), FIRST),
    "pydantic (a2a-python 0.3)": jsonRpc("0.3", parsed, PYDANTIC),
  },
  "http+json 1.0": {
    "@a2a-js/sdk 1.3 REST": sdkRest,
    "Go encoding/json": orderedRest("1.0", GO),
    "first member wins": orderedRest("1.0", FIRST),
  },
  "http+json 0.3": {
    "@a2a-js/sdk 1.3 REST (0.3 router)": sdkLegacyRest,
    "Go encoding/json": orderedRest("0.3", GO),
    "first member wins": orderedRest("0.3", FIRST),
  },
};

/**
 * The edge's own reading (src/messages/) of what it forwarded, for the ids every reader must agree with;
 * `changed`: reading it again would change it (it was not forwarded in its canonical form).
 */
export function readAsEdge(origin: OriginKind, received: Received): (View & { changed: boolean }) | { refused: string } {
  let changed = false;
  const canonical = (read: ReturnType<typeof readParams>) => {
    if ("refused" in read) refuse(`${read.refused.path} ${read.refused.message}`);
    changed ||= "changed" in read && read.changed;
    return "value" in read ? read.value : undefined;
  };
  const reader: Reader =
    origin.binding === "jsonrpc"
      ? (received) => {
          const rpc = parsed(received.body);
          const operation = operationOf(rpc.method);
          const params = canonical(readParams(String(rpc.method), rpc.params));
          return { operation, view: () => (operation ? viewOf(origin.generation, operation, params) : NONE) };
        }
      : rest(
          origin.generation,
          (operation, text) => {
            const body = canonical(readRestBody(origin.generation, operation as EdgeOperation, "request", JSON.parse(text)));
            return origin.generation === "1.0" ? (isRecord(body) ? body : {}) : sendFromProto(body);
          },
          (query) => (query.has("historyLength") ? Number(query.get("historyLength")) : undefined),
        );
  try {
    return { ...reader(received).view(), changed };
  } catch (error) {
    if (error instanceof Refusal) return { refused: error.message };
    throw error;
  }
}

/** Every reader that fits the origin, each on what it received: what it takes, or its refusal. */
export function readAsOrigins(origin: OriginKind, received: Received): Reading[] {
  return Object.entries(READERS[`${origin.binding} ${origin.generation}`] ?? {}).map(([reader, read]) => {
    let operation: Operation | undefined;
    try {
      const found = read(received);
      operation = found.operation;
      return { reader, operation, ...found.view() };
    } catch (error) {
      if (error instanceof Refusal || error instanceof SyntaxError) return { reader, operation, refused: error.message };
      throw error;
    }
  });
}
