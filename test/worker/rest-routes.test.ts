// The REST route table (src/rest/rest-routes.ts): every route of both
// versions, the 1.0 ones read from the official proto's google.api.http
// annotations (main binding and `/{tenant}` additional binding), the 0.3 ones
// as @a2a-js/sdk 1.3's legacy REST router has them; paths that name nothing
// (404), methods a path does not have (405 and Allow), path variables that are
// not one segment.
import { describe, expect, it } from "vitest";
import { methodFor } from "../../src/a2a/correspondence";
import { OPERATIONS, type Operation } from "../../src/a2a/operations";
import { METHODS } from "../../src/bridge/params";
import { matchRestRoute, type PathParams, type RestMatch, type RestVersion } from "../../src/rest";
import proto from "../schema/a2a-v1.0.1.proto?raw";

const route = (operation: Operation, version: RestVersion, pathParams: PathParams = {}): RestMatch => ({ operation, version, pathParams });

describe("the table's operations", () => {
  it("line up with the bridge's METHODS rows, which the request mapper reads the method names from", () => {
    expect(METHODS).toHaveLength(OPERATIONS.length);
    for (const [index, operation] of OPERATIONS.entries()) {
      expect(METHODS[index]?.[0]).toBe(methodFor("0.3", operation));
      expect(METHODS[index]?.[1]).toBe(methodFor("1.0", operation));
    }
  });
});

/** Each rpc's HTTP bindings in the proto: `[rpc, verb, path template]`, the additional (`/{tenant}`) ones too. */
function protoBindings(): [string, string, string][] {
  const bindings: [string, string, string][] = [];
  for (const [, rpc, options] of proto.matchAll(/rpc (\w+)\([^)]*\) returns \([^)]*\) \{([\s\S]*?)\n {2}\}/g)) {
    for (const [, verb, path] of (options ?? "").matchAll(/(get|post|delete|put|patch): "([^"]+)"/g))
      bindings.push([rpc ?? "", verb ?? "", path ?? ""]);
  }
  return bindings;
}

describe("1.0: the proto's google.api.http bindings", () => {
  const bindings = protoBindings();

  it("reads 22 bindings: 11 rpcs, each with its /{tenant} twin", () => {
    expect(bindings).toHaveLength(22);
    expect(bindings.filter(([, , path]) => path.startsWith("/{tenant}/"))).toHaveLength(11);
  });

  it.each(bindings)("%s: %s %s", (rpc, verb, template) => {
    // {id=*} is the task (or, under a push config, the config); {task_id=*} the task of a push config.
    const path = template.replace("{tenant}", "acme%20corp").replace("{task_id=*}", "task-1").replace("{id=*}", "x%3Ay");
    const match = matchRestRoute(verb.toUpperCase(), path, "1.0");
    const operation = OPERATIONS.find((name) => methodFor("1.0", name) === rpc);
    if (!operation) throw new Error(`no operation for ${rpc}`);
    const ids: PathParams = template.includes("{task_id=*}")
      ? { id: "task-1", configId: template.includes("{id=*}") ? "x:y" : undefined }
      : {};
    if (!template.includes("{task_id=*}") && template.includes("{id=*}")) ids.id = "x:y";
    const tenant: PathParams = template.startsWith("/{tenant}") ? { tenant: "acme corp" } : {};
    expect(match).toEqual(route(operation, "1.0", JSON.parse(JSON.stringify({ ...tenant, ...ids }))));
  });

  it("takes subscribe by POST too, as spec §5.3 and §11.3 write it (the proto says GET)", () => {
    expect(matchRestRoute("POST", "/tasks/t-1:subscribe", "1.0")).toEqual(route("subscribeToTask", "1.0", { id: "t-1" }));
    expect(matchRestRoute("POST", "/acme/tasks/t-1:subscribe", "1.0")).toEqual(
      route("subscribeToTask", "1.0", { tenant: "acme", id: "t-1" }),
    );
  });
});

describe("0.3: the paths of spec v0.3.0 §3.5.6 under /v1, as the SDK's legacy REST router has them", () => {
  const ROUTES: [string, string, Operation, PathParams][] = [
    ["POST", "/v1/message:send", "sendMessage", {}],
    ["POST", "/v1/message:stream", "sendStreamingMessage", {}],
    ["GET", "/v1/tasks/t-1", "getTask", { id: "t-1" }],
    ["POST", "/v1/tasks/t-1:cancel", "cancelTask", { id: "t-1" }],
    ["GET", "/v1/tasks/t-1:subscribe", "subscribeToTask", { id: "t-1" }],
    ["POST", "/v1/tasks/t-1:subscribe", "subscribeToTask", { id: "t-1" }],
    ["POST", "/v1/tasks/t-1/pushNotificationConfigs", "createPushNotificationConfig", { id: "t-1" }],
    ["GET", "/v1/tasks/t-1/pushNotificationConfigs", "listPushNotificationConfigs", { id: "t-1" }],
    ["GET", "/v1/tasks/t-1/pushNotificationConfigs/c-1", "getPushNotificationConfig", { id: "t-1", configId: "c-1" }],
    ["DELETE", "/v1/tasks/t-1/pushNotificationConfigs/c-1", "deletePushNotificationConfig", { id: "t-1", configId: "c-1" }],
    ["GET", "/v1/card", "getExtendedAgentCard", {}],
  ];

  it.each(ROUTES)("%s %s", (method, path, operation, pathParams) => {
    expect(matchRestRoute(method, path, "0.3")).toEqual(route(operation, "0.3", pathParams));
    // Without a version, /v1/... is 0.3's before it is a 1.0 tenant's.
    expect(matchRestRoute(method, path)).toEqual(route(operation, "0.3", pathParams));
  });

  it("covers every 0.3 operation, and has no ListTasks (nor does 0.3 JSON-RPC)", () => {
    expect(new Set(ROUTES.map(([, , operation]) => operation))).toEqual(new Set(OPERATIONS.filter((name) => name !== "listTasks")));
    expect(matchRestRoute("GET", "/v1/tasks", "0.3")).toEqual({ notFound: true });
  });

  it("has no tenant routes and no 1.0 paths", () => {
    expect(matchRestRoute("POST", "/acme/v1/message:send", "0.3")).toEqual({ notFound: true });
    expect(matchRestRoute("POST", "/message:send", "0.3")).toEqual({ notFound: true });
    expect(matchRestRoute("GET", "/v1/extendedAgentCard", "0.3")).toEqual({ notFound: true });
  });
});

describe("choosing between versions and between routes", () => {
  it("reads /v1/... as 1.0's tenant `v1` when the caller speaks 1.0", () => {
    expect(matchRestRoute("POST", "/v1/message:send", "1.0")).toEqual(route("sendMessage", "1.0", { tenant: "v1" }));
    expect(matchRestRoute("GET", "/v1/tasks", "1.0")).toEqual(route("listTasks", "1.0", { tenant: "v1" }));
    expect(matchRestRoute("GET", "/v1/card", "1.0")).toEqual({ notFound: true });
  });

  it("without a version, takes a path 0.3 does not have as 1.0's", () => {
    expect(matchRestRoute("POST", "/message:send")).toEqual(route("sendMessage", "1.0"));
    expect(matchRestRoute("GET", "/v1/tasks")).toEqual(route("listTasks", "1.0", { tenant: "v1" }));
  });

  it("prefers the untenanted route where both fit, and picks by method where the path fits two", () => {
    expect(matchRestRoute("GET", "/tasks/tasks", "1.0")).toEqual(route("getTask", "1.0", { id: "tasks" }));
    expect(matchRestRoute("GET", "/tasks/tasks/pushNotificationConfigs", "1.0")).toEqual(
      route("listPushNotificationConfigs", "1.0", { id: "tasks" }),
    );
    // POST fits the tenant "tasks" sending a message, not GetTask of "message:send".
    expect(matchRestRoute("POST", "/tasks/message:send", "1.0")).toEqual(route("sendMessage", "1.0", { tenant: "tasks" }));
    expect(matchRestRoute("GET", "/tasks/message:send", "1.0")).toEqual(route("getTask", "1.0", { id: "message:send" }));
  });

  it("reads a custom verb at the last literal colon; an encoded colon is the id's", () => {
    expect(matchRestRoute("POST", "/tasks/urn:uuid:1:cancel", "1.0")).toEqual(route("cancelTask", "1.0", { id: "urn:uuid:1" }));
    expect(matchRestRoute("POST", "/tasks/a%3Acancel:cancel", "1.0")).toEqual(route("cancelTask", "1.0", { id: "a:cancel" }));
    // As an Express router with the SDK's table reads it: GET of `a:cancel` is the task of that name.
    expect(matchRestRoute("GET", "/tasks/a:cancel", "1.0")).toEqual(route("getTask", "1.0", { id: "a:cancel" }));
    expect(matchRestRoute("GET", "/tasks/a%3Acancel", "1.0")).toEqual(route("getTask", "1.0", { id: "a:cancel" }));
  });
});

describe("paths that name nothing: 404", () => {
  it.each([
    "",
    "/",
    "/message",
    "/message:send/",
    "/message:sends",
    "/Message:send",
    "/message%3Asend",
    "/tasks/",
    "/tasks//pushNotificationConfigs",
    "/tasks/t-1/",
    "/tasks/t-1/pushNotificationConfigs/",
    "/tasks/t-1/pushNotificationConfigs/c-1/x",
    "//message:send",
    "/a/b/message:send",
    "/v1/v1/card",
    "tasks/t-1",
    "/extendedAgentCard/x",
  ])("%j", (path) => {
    expect(matchRestRoute("GET", path)).toEqual({ notFound: true });
    expect(matchRestRoute("POST", path)).toEqual({ notFound: true });
  });

  it.each([
    ["an encoded slash", "/tasks/a%2Fb"],
    ["an encoded slash, lower case", "/tasks/a%2fb:cancel"],
    ["a malformed escape", "/tasks/%E0%A4%A"],
    ["a lone escape", "/tasks/50%"],
    ["an encoded slash in a config id", "/tasks/t-1/pushNotificationConfigs/%2F"],
    ["an encoded slash in a tenant", "/a%2Fb/tasks"],
  ])("refuses a variable with %s", (_, path) => {
    const method = path.endsWith(":cancel") ? "POST" : "GET";
    expect(matchRestRoute(method, path, "1.0")).toEqual({ notFound: true });
  });

  it("decodes every other escape, and an empty id is no id", () => {
    expect(matchRestRoute("GET", "/tasks/%C3%A9t%C3%A9%20%3F%23", "1.0")).toEqual(route("getTask", "1.0", { id: "été ?#" }));
    // No task is CancelTask's: the path is GetTask's, of a task named ":cancel".
    expect(matchRestRoute("POST", "/tasks/:cancel", "1.0")).toEqual({ methodNotAllowed: ["GET"] });
    expect(matchRestRoute("GET", "/tasks/:subscribe", "1.0")).toEqual(route("getTask", "1.0", { id: ":subscribe" }));
  });
});

describe("methods a path does not have: 405 with Allow", () => {
  it.each([
    ["GET", "/message:send", ["POST"]],
    ["PUT", "/message:stream", ["POST"]],
    ["POST", "/tasks/t-1", ["GET"]],
    ["DELETE", "/tasks", ["GET"]],
    ["DELETE", "/tasks/t-1:cancel", ["POST", "GET"]],
    ["PUT", "/tasks/t-1:subscribe", ["GET", "POST"]],
    ["DELETE", "/tasks/t-1/pushNotificationConfigs", ["POST", "GET"]],
    ["POST", "/tasks/t-1/pushNotificationConfigs/c-1", ["GET", "DELETE"]],
    ["PATCH", "/acme/tasks/t-1/pushNotificationConfigs/c-1", ["GET", "DELETE"]],
    ["POST", "/extendedAgentCard", ["GET"]],
    ["get", "/tasks", ["GET"]],
    ["HEAD", "/tasks/t-1", ["GET"]],
  ])("%s %s", (method, path, allow) => {
    const match = matchRestRoute(method, path, "1.0");
    expect(match).toEqual({ methodNotAllowed: expect.any(Array) });
    if ("methodNotAllowed" in match) expect(match.methodNotAllowed.sort()).toEqual([...allow].sort());
  });

  it("in 0.3 too", () => {
    expect(matchRestRoute("GET", "/v1/message:send", "0.3")).toEqual({ methodNotAllowed: ["POST"] });
    expect(matchRestRoute("DELETE", "/v1/card", "0.3")).toEqual({ methodNotAllowed: ["GET"] });
  });
});
