// What corresponds between A2A 0.3 and 1.0 (SPEC-NOTES §1.4, §3.1): method
// names, the two security-scheme forms, the two requirement forms. Data and
// field-level conversions only: translating requests, results, errors and
// events between versions is built on these tables, beside them.
import { jsonObject, memberOf } from "../json";
import { OPERATIONS, type Operation } from "./operations";
import { mapValues, presentFields } from "./presence";
import * as v1 from "./v1";
import * as v03 from "./v03";

export type ProtocolGeneration = "0.3" | "1.0";

// ---- JSON-RPC methods ----

const METHODS: Record<ProtocolGeneration, Partial<Record<Operation, string>>> = {
  "0.3": v03.JSONRPC_METHODS,
  "1.0": v1.JSONRPC_METHODS,
};

/** The operation a version's method name performs, if it is one of that version's methods. */
export function operationOf(generation: ProtocolGeneration, method: string): Operation | undefined {
  return OPERATIONS.find((operation) => METHODS[generation][operation] === method);
}

/** The operation a method name of either version performs (`message/send` and `SendMessage` alike). */
export function operationOfMethod(method: string): Operation | undefined {
  return operationOf("1.0", method) ?? operationOf("0.3", method);
}

/** The method performing `operation` in that version; undefined where the version has none (0.3 ListTasks). */
export function methodFor(generation: ProtocolGeneration, operation: Operation): string | undefined {
  return METHODS[generation][operation];
}

/** `message/send` -> `SendMessage`, ...; undefined for anything that is not a 0.3 method. */
export function v1MethodOf(v03Method: string): v1.JsonRpcMethod | undefined {
  const operation = operationOf("0.3", v03Method);
  return operation && v1.JSONRPC_METHODS[operation];
}

/** `SendMessage` -> `message/send`, ...; undefined for ListTasks (no 0.3 method) and unknown names. */
export function v03MethodOf(v1Method: string): v03.JsonRpcMethod | undefined {
  const operation = operationOf("1.0", v1Method);
  return operation === undefined || operation === "listTasks" ? undefined : v03.JSONRPC_METHODS[operation];
}

// ---- security schemes: 0.3 OpenAPI `type` form <-> 1.0 oneof wrapper ----

/** 1.0's oneof member for each OpenAPI scheme `type` (the proto models OpenAPI 3.2's Security Scheme Object). */
export const V1_SCHEME_MEMBER_BY_TYPE = {
  apiKey: "apiKeySecurityScheme",
  http: "httpAuthSecurityScheme",
  oauth2: "oauth2SecurityScheme",
  openIdConnect: "openIdConnectSecurityScheme",
  mutualTLS: "mtlsSecurityScheme",
} as const satisfies { [T in v03.SecuritySchemeType]: v1.SecuritySchemeMember };

/** The OpenAPI `type` of a 1.0 oneof member name; undefined for anything else. */
export function schemeTypeOfV1Member(member: string): v03.SecuritySchemeType | undefined {
  return v03.SECURITY_SCHEME_TYPES.find((type) => V1_SCHEME_MEMBER_BY_TYPE[type] === member);
}

/** An API key's place: 0.3 (OpenAPI) calls the member `in`, 1.0 `location`. */
const API_KEY_LOCATION = { v03: "in", v1: "location" } as const satisfies {
  v03: keyof v03.ApiKeySecurityScheme;
  v1: keyof v1.ApiKeySecurityScheme;
};

/** OpenAPI flows with 1.0's PKCE flag: the form card-source documents use. */
type OpenApiOAuthFlows = Omit<v03.OAuthFlows, "authorizationCode"> & { authorizationCode?: v1.AuthorizationCodeOAuthFlow };
/** The OpenAPI `type` form with 1.0's additions (PKCE, device code): what card-source documents hold. */
export type OpenApiSecurityScheme =
  | Exclude<v03.SecurityScheme, v03.OAuth2SecurityScheme>
  | (Omit<v03.OAuth2SecurityScheme, "flows"> & { flows: OpenApiOAuthFlows });

/** The 1.0 wrapper form (members in proto field order, description last). */
export function securitySchemeV1(scheme: OpenApiSecurityScheme): v1.SecurityScheme {
  const description = scheme.description;
  switch (scheme.type) {
    case "apiKey":
      return { apiKeySecurityScheme: presentFields({ location: scheme.in, name: scheme.name, description }) };
    case "http":
      return { httpAuthSecurityScheme: presentFields({ scheme: scheme.scheme, bearerFormat: scheme.bearerFormat, description }) };
    case "oauth2": {
      const flows = presentFields({ ...scheme.flows });
      return { oauth2SecurityScheme: presentFields({ flows, oauth2MetadataUrl: scheme.oauth2MetadataUrl, description }) };
    }
    case "openIdConnect":
      return { openIdConnectSecurityScheme: presentFields({ openIdConnectUrl: scheme.openIdConnectUrl, description }) };
    case "mutualTLS":
      return { mtlsSecurityScheme: presentFields({ description }) };
  }
}

/** The 0.3 form: as written, less PKCE (a 1.0 addition 0.3 readers have no field for). */
export function securitySchemeV03(scheme: OpenApiSecurityScheme): v03.SecurityScheme {
  if (scheme.type !== "oauth2" || !scheme.flows.authorizationCode) return presentFields({ ...scheme });
  const { pkceRequired: _pkce, ...authorizationCode } = scheme.flows.authorizationCode;
  return presentFields({ ...scheme, flows: { authorizationCode } });
}

// ---- security requirements: 0.3 `{name: [scopes]}` -> 1.0 `{schemes: {name: {list}}}` ----

/**
 * No scopes is `{}` (ProtoJSON omits an empty repeated field), so the card is
 * already in the field-presence form that 1.0 §8.4.1 signs.
 */
export function securityRequirementV1(requirement: v03.SecurityRequirement): v1.SecurityRequirement {
  return { schemes: mapValues(requirement, (scopes) => (scopes.length > 0 ? { list: scopes } : {})) };
}

// ---- 1.0 -> 0.3, from untrusted JSON (an origin's card, a 0.3 REST body) ----

const nonEmpty = (value: unknown): unknown[] | undefined => (Array.isArray(value) && value.length > 0 ? value : undefined);

/** 1.0 `{schemes: {n: {list}}}` or 0.3 `{n: [scopes]}` -> `{n: [scopes]}`; none, or an empty list, is undefined. */
export function securityRequirementsV03(v1Requirements: unknown, v03Requirements: unknown): unknown[] | undefined {
  const fromV1 = nonEmpty(v1Requirements)?.map((requirement) => {
    const schemes = Object.entries(jsonObject(memberOf<v1.SecurityRequirement>(requirement, "schemes")) ?? {});
    return Object.fromEntries(schemes.map(([name, scopes]) => [name, nonEmpty(memberOf<v1.StringList>(scopes, "list")) ?? []]));
  });
  return fromV1 ?? nonEmpty(v03Requirements);
}

/** 1.0 wrapper form or 0.3 `type` form -> the `type` form; anything else is handed on. */
export function securitySchemeFromV1(value: unknown): unknown {
  const scheme = jsonObject(value);
  if (!scheme || typeof memberOf<v03.SecurityScheme>(scheme, "type") === "string") return scheme;
  const [member, body] = Object.entries(scheme)[0] ?? [];
  const type = member === undefined ? undefined : schemeTypeOfV1Member(member);
  if (!type) return scheme;
  const { [API_KEY_LOCATION.v1]: location, ...rest } = jsonObject(body) ?? {};
  return presentFields({ type, ...rest, ...(type === "apiKey" ? { [API_KEY_LOCATION.v03]: location } : {}) });
}
