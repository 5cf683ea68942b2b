// The per-version A2A knowledge (src/a2a/) against SPEC-NOTES §1 and §3: the
// method table and its 0.3 <-> 1.0 correspondence, error codes, the two
// security-scheme forms, and field presence.
import { describe, expect, it } from "vitest";
import {
  methodFor,
  operationOf,
  schemeTypeOfV1Member,
  securityRequirementV1,
  securitySchemeV1,
  securitySchemeV03,
  V1_SCHEME_MEMBER_BY_TYPE,
  v1MethodOf,
  v03MethodOf,
} from "../../src/a2a/correspondence";
import { OPERATIONS } from "../../src/a2a/operations";
import { presentFields } from "../../src/a2a/presence";
import * as v1 from "../../src/a2a/v1";
import * as v03 from "../../src/a2a/v03";

/** SPEC-NOTES §3.1, row by row: 0.3.0 method, 1.0 method. */
const METHOD_TABLE: [string | undefined, string][] = [
  ["message/send", "SendMessage"],
  ["message/stream", "SendStreamingMessage"],
  ["tasks/get", "GetTask"],
  [undefined, "ListTasks"],
  ["tasks/cancel", "CancelTask"],
  ["tasks/resubscribe", "SubscribeToTask"],
  ["tasks/pushNotificationConfig/set", "CreateTaskPushNotificationConfig"],
  ["tasks/pushNotificationConfig/get", "GetTaskPushNotificationConfig"],
  ["tasks/pushNotificationConfig/list", "ListTaskPushNotificationConfigs"],
  ["tasks/pushNotificationConfig/delete", "DeleteTaskPushNotificationConfig"],
  ["agent/getAuthenticatedExtendedCard", "GetExtendedAgentCard"],
];

describe("versions, bindings and transports", () => {
  it("are the strings of SPEC-NOTES §1 (1.0 interfaces say Major.Minor, a 0.3 card its full version)", () => {
    expect([v1.PROTOCOL_VERSION, v03.PROTOCOL_VERSION]).toEqual(["1.0", "0.3.0"]);
    expect(v1.PROTOCOL_BINDINGS).toEqual(["JSONRPC", "GRPC", "HTTP+JSON"]);
    expect(v03.TRANSPORT_PROTOCOLS).toEqual(v1.PROTOCOL_BINDINGS);
    expect([v1.JSONRPC_BINDING, v03.JSONRPC_TRANSPORT]).toEqual(["JSONRPC", "JSONRPC"]);
  });
});

describe("JSON-RPC methods per version", () => {
  it("name every operation as SPEC-NOTES §3.1 does, in both directions", () => {
    expect(OPERATIONS.map((operation) => [methodFor("0.3", operation), methodFor("1.0", operation)])).toEqual(METHOD_TABLE);
    for (const [old, current] of METHOD_TABLE) {
      expect(v03MethodOf(current)).toBe(old);
      if (old) expect(v1MethodOf(old)).toBe(current);
    }
  });

  it("know nothing else: other names, the other version's names and prototype keys map to nothing", () => {
    for (const name of ["SendMessage", "message/sned", "tasks/list", "", "constructor", "toString", "__proto__"])
      expect(v1MethodOf(name)).toBeUndefined();
    for (const name of ["message/send", "sendMessage", "constructor", "toString"]) expect(v03MethodOf(name)).toBeUndefined();
    expect(operationOf("1.0", "GetTask")).toBe("getTask");
    expect(operationOf("0.3", "GetTask")).toBeUndefined();
  });
});

describe("errors per version", () => {
  it("share the JSON-RPC codes and the A2A codes both versions have, with 0.3's messages", () => {
    expect(v1.JSONRPC_STANDARD_ERRORS).toBe(v03.JSONRPC_STANDARD_ERRORS);
    expect(Object.values(v1.JSONRPC_STANDARD_ERRORS).map((e) => e.code)).toEqual([-32700, -32600, -32601, -32602, -32603]);
    for (const [name, error] of Object.entries(v03.A2A_ERRORS)) {
      const renamed = name === "AuthenticatedExtendedCardNotConfiguredError" ? "ExtendedAgentCardNotConfiguredError" : name;
      const current = v1.A2A_ERRORS[renamed as keyof typeof v1.A2A_ERRORS];
      expect(current.code).toBe(error.code);
      if (error.code !== -32007) expect(current.message).toBe(error.message);
    }
  });

  it("give 1.0 errors ErrorInfo reasons: the name in UPPER_SNAKE_CASE without Error (§9.5), codes -32001 to -32009", () => {
    const entries = Object.entries(v1.A2A_ERRORS);
    expect(entries.map(([, e]) => e.code)).toEqual([-32001, -32002, -32003, -32004, -32005, -32006, -32007, -32008, -32009]);
    for (const [name, error] of entries) {
      expect(error.reason).toBe(
        name
          .replace(/Error$/, "")
          .replace(/([a-z])([A-Z])/g, "$1_$2")
          .toUpperCase(),
      );
    }
    expect(v1.A2A_ERRORS.TaskNotFoundError).toMatchObject({ reason: "TASK_NOT_FOUND", httpStatus: 404, grpcStatus: "NOT_FOUND" });
    expect([v1.ERROR_DOMAIN, v1.ERROR_INFO_TYPE]).toEqual(["a2a-protocol.org", "type.googleapis.com/google.rpc.ErrorInfo"]);
  });
});

describe("security schemes and requirements", () => {
  const pkce: v03.OAuth2SecurityScheme["flows"] & { authorizationCode: { pkceRequired: boolean } } = {
    authorizationCode: {
      authorizationUrl: "https://a.example/authorize",
      tokenUrl: "https://a.example/token",
      scopes: { r: "Read" },
      pkceRequired: true,
    },
  };

  it("wrap each OpenAPI type in its 1.0 oneof member, `in` becoming `location`, and map the member back", () => {
    expect(securitySchemeV1({ type: "apiKey", in: "query", name: "k" })).toEqual({
      apiKeySecurityScheme: { location: "query", name: "k" },
    });
    expect(securitySchemeV1({ type: "mutualTLS" })).toEqual({ mtlsSecurityScheme: {} });
    expect(securitySchemeV1({ type: "oauth2", flows: pkce })).toEqual({ oauth2SecurityScheme: { flows: pkce } });
    for (const type of v03.SECURITY_SCHEME_TYPES) expect(schemeTypeOfV1Member(V1_SCHEME_MEMBER_BY_TYPE[type])).toBe(type);
    for (const name of ["type", "constructor", "toString", "__proto__", "apiKey"]) expect(schemeTypeOfV1Member(name)).toBeUndefined();
  });

  it("keep the 0.3 form as written, less PKCE (no 0.3 field for it), and never change their input", () => {
    const scheme = { type: "oauth2", flows: pkce, description: "d" } as const;
    const before = JSON.stringify(scheme);
    expect(securitySchemeV03(scheme)).toEqual({
      type: "oauth2",
      flows: { authorizationCode: { ...pkce.authorizationCode, pkceRequired: undefined } },
      description: "d",
    });
    expect(securitySchemeV03(scheme)).not.toHaveProperty("flows.authorizationCode.pkceRequired");
    expect(JSON.stringify(scheme)).toBe(before);
  });

  it("turn `{name: [scopes]}` into `{schemes: {name: {list}}}`, no scopes being `{}`", () => {
    expect(securityRequirementV1({ a: [], b: ["x", "y"] })).toEqual({ schemes: { a: {}, b: { list: ["x", "y"] } } });
  });
});

describe("field presence", () => {
  it("drops undefined members only, in order, without touching its input, and keeps __proto__ a key", () => {
    const input = JSON.parse('{"a":1,"b":null,"c":false,"d":"","__proto__":{"x":1}}') as Record<string, unknown>;
    input.e = undefined;
    const out = presentFields(input);
    expect(JSON.stringify(out)).toBe('{"a":1,"b":null,"c":false,"d":"","__proto__":{"x":1}}');
    expect(Object.keys(input)).toContain("e");
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
  });
});
