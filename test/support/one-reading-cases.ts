// The requests of the differential suite (test/worker/one-reading.test.ts): every call that carries a
// push config or an id a policy or the origin acts on, in every binding and version a client speaks,
// each field spelled by spellings.ts. A push config sits inline in a send (1.0
// `configuration.taskPushNotificationConfig`, 0.3 `configuration.pushNotificationConfig`, 0.3 REST
// `configuration.pushNotification`) or in a create of its own (1.0 flat, 0.3 `pushNotificationConfig`,
// 0.3 REST `{name, pushNotificationConfig}`); CancelTask is the operation METHOD_ALLOWLIST refuses.
import fc from "fast-check";
import { type Json, Obj, obj, write } from "./ordered-json";
import type { Generation, Operation } from "./origin-shapes";
import { field, fixed, type Members, optional, type Piece, stray, values } from "./spellings";

interface Carrier {
  binding: "jsonrpc" | "http+json";
  generation: Generation;
}

export interface Case {
  carrier: Carrier;
  /** The operation asked for (a JSON-RPC call's: its last `method` member, as JSON.parse reads it). */
  operation: Operation;
  request: { path: string; method: string; headers: Record<string, string>; body?: string };
  labels: readonly string[];
}

/** The operations generated, CancelTask (refused by METHOD_ALLOWLIST) least often. */
const OPERATIONS = fc.constantFrom<Operation>(
  ...(["sendMessage", "sendMessage", "sendMessage", "createPushNotificationConfig", "createPushNotificationConfig"] as const),
  ...(["createPushNotificationConfig", "getTask", "getTask", "getPushNotificationConfig", "cancelTask"] as const),
);

const METHODS: Record<Generation, Record<Operation, string>> = {
  "1.0": {
    sendMessage: "SendMessage",
    createPushNotificationConfig: "CreateTaskPushNotificationConfig",
    getTask: "GetTask",
    getPushNotificationConfig: "GetTaskPushNotificationConfig",
    cancelTask: "CancelTask",
  },
  "0.3": {
    sendMessage: "message/send",
    createPushNotificationConfig: "tasks/pushNotificationConfig/set",
    getTask: "tasks/get",
    getPushNotificationConfig: "tasks/pushNotificationConfig/get",
    cancelTask: "tasks/cancel",
  },
};

/** An object of the members given, in order. */
const object = (...parts: fc.Arbitrary<Members>[]): fc.Arbitrary<Piece> =>
  fc.tuple(...parts).map((all) => ({ value: new Obj(all.flatMap((m) => m.entries)), labels: all.flatMap((m) => m.labels) }));

/** The params (1.0 JSON-RPC and REST bodies: proto messages; 0.3 JSON-RPC: its JSON Schema shapes) of each call. */
function paramsOf(generation: Generation, operation: Operation, tricky: boolean, rest: boolean): fc.Arbitrary<Piece> {
  const v = values(tricky);
  const f = (json: string, proto: string | undefined, value: fc.Arbitrary<Piece>, other: string[] = []) =>
    field(json, proto, value, tricky, other);
  const tenant = optional(f("tenant", undefined, v.tenant));
  const history = optional(f("historyLength", "history_length", v.history));
  if (generation === "1.0") {
    const auth = object(optional(f("scheme", undefined, v.token)), optional(f("credentials", undefined, v.token)));
    const config = (withTask: boolean) =>
      object(
        f("url", undefined, v.url),
        optional(f("token", undefined, v.token)),
        optional(f("authentication", undefined, auth)),
        optional(f("id", undefined, v.config)),
        withTask ? f("taskId", "task_id", v.task) : optional(f("taskId", "task_id", v.task)),
        tenant,
        // Where 0.3 and some drafts keep a create's config (push/push-configs.ts searches both).
        stray("pushNotificationConfig", object(f("url", undefined, v.url)), tricky),
        stray("config", object(f("url", undefined, v.url)), tricky),
      );
    const message = object(
      f("messageId", "message_id", v.message),
      fixed(["role", "ROLE_USER"], ["parts", [obj(["text", "hi"])]]),
      optional(f("taskId", "task_id", v.task)),
    );
    const place = f("taskPushNotificationConfig", "task_push_notification_config", config(false), ["pushNotificationConfig"]);
    const configuration = object(optional(place), history);
    const byOperation: Record<Operation, () => fc.Arbitrary<Piece>> = {
      sendMessage: () => object(tenant, f("message", undefined, message), optional(f("configuration", undefined, configuration))),
      // A REST create names its task in the path.
      createPushNotificationConfig: () => config(!rest),
      getTask: () => object(f("id", undefined, v.task), history, tenant),
      getPushNotificationConfig: () => object(f("taskId", "task_id", v.task), f("id", undefined, v.config), tenant),
      cancelTask: () => object(f("id", undefined, v.task), tenant),
    };
    return byOperation[operation]();
  }
  const auth = object(f("schemes", undefined, v.schemes), optional(f("credentials", undefined, v.token)));
  const config = object(
    f("url", undefined, v.url),
    optional(f("token", undefined, v.token)),
    optional(f("authentication", undefined, auth)),
    optional(f("id", undefined, v.config)),
  );
  const message = object(
    fixed(["kind", "message"]),
    f("messageId", "message_id", v.message),
    fixed(["role", "user"], ["parts", [obj(["kind", "text"], ["text", "hi"])]]),
    optional(f("taskId", "task_id", v.task)),
  );
  const place = f("pushNotificationConfig", "push_notification_config", config, ["taskPushNotificationConfig"]);
  const byOperation: Record<Operation, () => fc.Arbitrary<Piece>> = {
    sendMessage: () =>
      object(
        f("message", rest ? "request" : undefined, message),
        optional(f("configuration", undefined, object(optional(place), history))),
      ),
    // A REST create names its task in the path (and in the body's `name`, withName).
    createPushNotificationConfig: () =>
      object(
        rest ? fixed() : f("taskId", "task_id", v.task),
        f("pushNotificationConfig", "push_notification_config", config),
        stray("config", config, tricky),
        stray("url", v.url, tricky),
      ),
    getTask: () => object(f("id", undefined, v.task), history),
    // With its config named: 1.0 has no call for "the task's config" (GetTaskPushNotificationConfig needs its id).
    getPushNotificationConfig: () =>
      object(f("id", undefined, v.task), f("pushNotificationConfigId", "push_notification_config_id", v.config)),
    cancelTask: () => object(f("id", undefined, v.task)),
  };
  return byOperation[operation]();
}

/** A JSON-RPC request: the envelope's members spelled too (`Method`, a repeated `method`, `Params`), the method a refused one at times. */
function jsonRpcCase(generation: Generation, operation: Operation, tricky: boolean): fc.Arbitrary<Case> {
  const method = fc.oneof(
    { weight: 4, arbitrary: fc.constant<Piece>({ value: METHODS[generation][operation], labels: [] }) },
    { weight: 1, arbitrary: fc.constant<Piece>({ value: METHODS[generation].cancelTask, labels: ["refused method"] }) },
  );
  const envelope = object(
    fixed(["jsonrpc", "2.0"], ["id", 1]),
    field("method", undefined, method, tricky),
    field("params", undefined, paramsOf(generation, operation, tricky, false), tricky),
  );
  return envelope.map(({ value, labels }) => {
    const body = write(value);
    const asked = (JSON.parse(body) as { method?: string }).method;
    const headers = { "content-type": "application/json", "A2A-Version": generation };
    return {
      carrier: { binding: "jsonrpc", generation },
      operation: asked === METHODS[generation].cancelTask ? "cancelTask" : operation,
      request: { path: "/", method: "POST", headers, body },
      labels,
    };
  });
}

const segment = (value: unknown) => encodeURIComponent(String(value));

/** A REST request: the route's path (ids percent-encoded, a 1.0 tenant in the path at times), the query, the body. */
function restCase(generation: Generation, operation: Operation, tricky: boolean): fc.Arbitrary<Case> {
  const v = values(tricky);
  const query = fc.tuple(
    // A query value is text (A2A 1.0 §11.5 query parameters): `3.0` or `1e1` is no integer's text there.
    v.history.map((h) => ({ text: write(h.value).replaceAll('"', ""), labels: h.labels.length > 0 ? ["bad value"] : [] })),
    fc.constantFrom(["historyLength"], ["history_length"], ["historyLength", "history_length"], ["historyLength", "historyLength"], []),
  );
  const tenantInPath = generation === "1.0" ? fc.option(fc.constantFrom("acme", "beta"), { nil: undefined }) : fc.constant(undefined);
  const body = paramsOf(generation, operation, tricky, true);
  const form = fc.constantFrom<Form>("proto", "proto", "json-rpc", ...(tricky ? (["both"] as const) : []));
  const ids = fc
    .tuple(v.task, v.config, v.task, form)
    .map(([task, config, named, form]) => ({ task: task.value, config: config.value, named: named.value, form }));
  return fc
    .tuple(body, ids, tenantInPath, query)
    .map(([params, { task, config, named, form }, tenant, [{ text: history, labels: historyLabels }, names]]) => {
      const base = `/rest${generation === "0.3" ? "/v1" : tenant === undefined ? "" : `/${tenant}`}`;
      const tasks = `${base}/tasks/${segment(task)}`;
      const routes: Record<Operation, [string, string, boolean]> = {
        sendMessage: ["POST", `${base}/message:send`, true],
        createPushNotificationConfig: ["POST", `${tasks}/pushNotificationConfigs`, true],
        getTask: ["GET", `${tasks}?${names.map((name) => `${name}=${encodeURIComponent(history)}`).join("&")}`, false],
        getPushNotificationConfig: ["GET", `${tasks}/pushNotificationConfigs/${segment(config)}`, false],
        cancelTask: ["POST", `${tasks}:cancel`, false],
      };
      const [method, path, withBody] = routes[operation];
      const created = generation === "0.3" && operation === "createPushNotificationConfig";
      // 0.3 REST bodies are its proto's: the send's config is `pushNotification`, a create's `{name, pushNotificationConfig}`.
      const text = write(created ? withName(params.value, named) : generation === "0.3" ? asProto(params.value, form) : params.value);
      return {
        carrier: { binding: "http+json", generation },
        operation,
        request: {
          path,
          method,
          headers: { "content-type": "application/json", "A2A-Version": generation },
          ...(withBody ? { body: text } : {}),
        },
        labels: [
          ...(withBody ? params.labels : []),
          ...(operation === "getTask" && names.length > 1 ? ["query given twice"] : []),
          ...(created && named !== task ? ["name names another task"] : []),
          ...(withBody && generation === "0.3" && form === "both" && /"pushNotification"/.test(text) ? ["both config forms"] : []),
          ...(operation === "getTask" && names.length > 0 ? historyLabels : []),
        ],
      };
    });
}

/** 0.3's TaskPushNotificationConfig of its proto: `name` first, naming the task (the path's, or another). */
function withName(params: Json, task: Json): Obj {
  const entries = params instanceof Obj ? params.entries : [];
  return new Obj([["name", `tasks/${String(task)}/pushNotificationConfigs/cfg-1`], ...entries]);
}

/** Where a 0.3 REST send puts its config: the proto's `pushNotification`, the JSON-RPC form, or both (one of them bad). */
type Form = "proto" | "json-rpc" | "both";

/**
 * A 0.3 send's params in its proto's JSON: `content` for parts, roles `ROLE_*`, the config as `pushNotification`,
 * or as the JSON-RPC `pushNotificationConfig` that a2a-js 0.3's REST server read too, or as both.
 */
function asProto(params: Json, form: Form): Json {
  if (!(params instanceof Obj)) return params;
  const rename: Record<string, string> = { push_notification_config: "push_notification" };
  if (form !== "json-rpc") rename.pushNotificationConfig = "pushNotification";
  const entries = params.entries.flatMap(([key, value]): (readonly [string, Json])[] => {
    if (key === "role") return [[key, "ROLE_USER"]];
    if (key === "parts") return [["content", [obj(["text", "hi"])]]];
    if (key === "kind") return [];
    const renamed = [rename[key] ?? key, asProto(value, form)] as const;
    return form === "both" && renamed[0] === "pushNotification"
      ? [renamed, ["pushNotificationConfig", obj(["url", "https://10.0.0.5/admin"])]]
      : [renamed];
  });
  return new Obj(entries);
}

/** One request of any carrier: a clean one (JSON and proto names, mostly good values) two times in five. */
export const caseArb: fc.Arbitrary<Case> = fc
  .tuple(
    fc.constantFrom<Carrier>(
      { binding: "jsonrpc", generation: "1.0" },
      { binding: "jsonrpc", generation: "0.3" },
      { binding: "http+json", generation: "1.0" },
      { binding: "http+json", generation: "0.3" },
    ),
    OPERATIONS,
    fc.oneof({ weight: 2, arbitrary: fc.constant(false) }, { weight: 3, arbitrary: fc.constant(true) }),
  )
  .chain(([carrier, operation, tricky]) =>
    (carrier.binding === "jsonrpc" ? jsonRpcCase : restCase)(carrier.generation, operation, tricky).map((found) => ({
      ...found,
      labels: [...found.labels, tricky ? "tricky" : "clean"],
    })),
  );
