// A2A 1.0: the Agent Card as JSON (ProtoJSON of proto `lf.a2a.v1` @ v1.0.1,
// spec §5.5), its protocol bindings, JSON-RPC methods and errors.
// Wire shapes are `type` aliases (not interfaces) so that a card is also a
// JsonObject for code that walks JSON. REQUIRED proto fields are required
// here; everything else is optional and absent when unset (§8.4.1 field
// presence). The @a2a-js/sdk types are not used: they are ts-proto's in-memory
// form (oneofs as `{$case, value}`, every field present), not this JSON.
import type { JsonObject } from "../json";
import { type ErrorDefinition, JSONRPC_STANDARD_ERRORS } from "./jsonrpc-errors";
import type { Operation } from "./operations";

/** `Major.Minor`, as `AgentInterface.protocolVersion` and the `A2A-Version` header write it (§3.6). */
export const PROTOCOL_VERSION = "1.0";

/** Core bindings (§5.8); `protocolBinding` is an open string, custom ones SHOULD be URIs. */
export const PROTOCOL_BINDINGS = ["JSONRPC", "GRPC", "HTTP+JSON"] as const;
export type ProtocolBinding = (typeof PROTOCOL_BINDINGS)[number];
/** The binding this edge fronts. */
export const JSONRPC_BINDING = "JSONRPC" satisfies ProtocolBinding;
export const HTTP_JSON_BINDING = "HTTP+JSON" satisfies ProtocolBinding;

// ---- Agent Card (proto messages of the same names) ----

export type AgentInterface = {
  url: string;
  protocolBinding: string;
  /** If set, clients MUST send it in every request's `tenant` field. */
  tenant?: string;
  protocolVersion: string;
};

export type AgentProvider = { url: string; organization: string };

export type AgentExtension = {
  uri?: string;
  description?: string;
  /** proto3 `bool`: false is the default and is omitted. */
  required?: boolean;
  params?: JsonObject;
};

export type AgentCapabilities = {
  streaming?: boolean;
  pushNotifications?: boolean;
  extensions?: readonly AgentExtension[];
  extendedAgentCard?: boolean;
};

export type AgentSkill = {
  id: string;
  name: string;
  description: string;
  tags: readonly string[];
  examples?: readonly string[];
  inputModes?: readonly string[];
  outputModes?: readonly string[];
  securityRequirements?: readonly SecurityRequirement[];
};

/** A flattened JWS with detached payload (§8.4). */
export type AgentCardSignature = { protected: string; signature: string; header?: JsonObject };

export type AgentCard = {
  name: string;
  description: string;
  /** Ordered, preferred first; never empty (§5.7). */
  supportedInterfaces: readonly AgentInterface[];
  provider?: AgentProvider;
  version: string;
  documentationUrl?: string;
  capabilities: AgentCapabilities;
  securitySchemes?: Readonly<Record<string, SecurityScheme>>;
  securityRequirements?: readonly SecurityRequirement[];
  defaultInputModes: readonly string[];
  defaultOutputModes: readonly string[];
  skills: readonly AgentSkill[];
  signatures?: readonly AgentCardSignature[];
  iconUrl?: string;
};

// ---- security (proto SecurityScheme, SecurityRequirement) ----

/** `map<string, StringList>`: no scopes is `{}` (ProtoJSON omits an empty repeated field). */
export type StringList = { list?: readonly string[] };
/** Every named scheme, with its scopes, is required together; a card's list of them are alternatives. */
export type SecurityRequirement = { schemes?: Readonly<Record<string, StringList>> };

type Scopes = Readonly<Record<string, string>>;
export type AuthorizationCodeOAuthFlow = {
  authorizationUrl: string;
  tokenUrl: string;
  refreshUrl?: string;
  scopes: Scopes;
  /** RFC 7636; new in 1.0. */
  pkceRequired?: boolean;
};
export type ClientCredentialsOAuthFlow = { tokenUrl: string; refreshUrl?: string; scopes: Scopes };
/** RFC 8628; new in 1.0. */
export type DeviceCodeOAuthFlow = { deviceAuthorizationUrl: string; tokenUrl: string; refreshUrl?: string; scopes: Scopes };
/** Deprecated in 1.0 (use authorization code + PKCE). */
export type ImplicitOAuthFlow = { authorizationUrl?: string; refreshUrl?: string; scopes?: Scopes };
/** Deprecated in 1.0. */
export type PasswordOAuthFlow = { tokenUrl?: string; refreshUrl?: string; scopes?: Scopes };
/** A proto oneof: one flow per scheme. */
export type OAuthFlows = {
  authorizationCode?: AuthorizationCodeOAuthFlow;
  clientCredentials?: ClientCredentialsOAuthFlow;
  deviceCode?: DeviceCodeOAuthFlow;
  implicit?: ImplicitOAuthFlow;
  password?: PasswordOAuthFlow;
};

export type ApiKeySecurityScheme = { description?: string; location: "query" | "header" | "cookie"; name: string };
export type HttpAuthSecurityScheme = { description?: string; scheme: string; bearerFormat?: string };
export type OAuth2SecurityScheme = { description?: string; flows: OAuthFlows; oauth2MetadataUrl?: string };
export type OpenIdConnectSecurityScheme = { description?: string; openIdConnectUrl: string };
export type MutualTlsSecurityScheme = { description?: string };

/** The members of the `SecurityScheme` oneof: its JSON is an object with exactly one of them. */
export type SecuritySchemeMembers = {
  apiKeySecurityScheme: ApiKeySecurityScheme;
  httpAuthSecurityScheme: HttpAuthSecurityScheme;
  oauth2SecurityScheme: OAuth2SecurityScheme;
  openIdConnectSecurityScheme: OpenIdConnectSecurityScheme;
  mtlsSecurityScheme: MutualTlsSecurityScheme;
};
export type SecuritySchemeMember = keyof SecuritySchemeMembers;
export type SecurityScheme = { [M in SecuritySchemeMember]: { [Only in M]: SecuritySchemeMembers[M] } }[SecuritySchemeMember];

/** A scheme's one member and its name, as a pair that narrows together. */
export type NamedSecuritySchemeMember = { [M in SecuritySchemeMember]: [M, SecuritySchemeMembers[M]] }[SecuritySchemeMember];

/** The scheme's one member, named. */
export function securitySchemeMember(scheme: SecurityScheme): NamedSecuritySchemeMember {
  if ("apiKeySecurityScheme" in scheme) return ["apiKeySecurityScheme", scheme.apiKeySecurityScheme];
  if ("httpAuthSecurityScheme" in scheme) return ["httpAuthSecurityScheme", scheme.httpAuthSecurityScheme];
  if ("oauth2SecurityScheme" in scheme) return ["oauth2SecurityScheme", scheme.oauth2SecurityScheme];
  if ("openIdConnectSecurityScheme" in scheme) return ["openIdConnectSecurityScheme", scheme.openIdConnectSecurityScheme];
  return ["mtlsSecurityScheme", scheme.mtlsSecurityScheme];
}

// ---- JSON-RPC (§9) ----

/** PascalCase methods "matching gRPC conventions" (§9.1); every operation exists in 1.0. */
export const JSONRPC_METHODS = {
  sendMessage: "SendMessage",
  sendStreamingMessage: "SendStreamingMessage",
  getTask: "GetTask",
  listTasks: "ListTasks",
  cancelTask: "CancelTask",
  subscribeToTask: "SubscribeToTask",
  createPushNotificationConfig: "CreateTaskPushNotificationConfig",
  getPushNotificationConfig: "GetTaskPushNotificationConfig",
  listPushNotificationConfigs: "ListTaskPushNotificationConfigs",
  deletePushNotificationConfig: "DeleteTaskPushNotificationConfig",
  getExtendedAgentCard: "GetExtendedAgentCard",
} as const satisfies Record<Operation, string>;
export type JsonRpcMethod = (typeof JSONRPC_METHODS)[Operation];

/** `error.data` is a list of ProtoJSON `Any`; A2A errors SHOULD carry a google.rpc.ErrorInfo (§9.5, §10.6). */
export const ERROR_INFO_TYPE = "type.googleapis.com/google.rpc.ErrorInfo";
export const ERROR_DOMAIN = "a2a-protocol.org";

export interface A2AErrorDefinition extends ErrorDefinition {
  /** ErrorInfo `reason`: the name in UPPER_SNAKE_CASE without "Error" (§9.5). */
  reason: string;
  /** The same error on the gRPC and HTTP+JSON bindings (§10.6, §11.6). */
  grpcStatus: "NOT_FOUND" | "FAILED_PRECONDITION" | "INVALID_ARGUMENT" | "INTERNAL";
  httpStatus: number;
}

/**
 * A2A errors (§9.5; SPEC-NOTES §3.4). Messages as in 0.3 where the error
 * existed there; the three new ones as @a2a-js/sdk 1.3 words them.
 */
export const A2A_ERRORS = {
  TaskNotFoundError: { code: -32001, reason: "TASK_NOT_FOUND", message: "Task not found", grpcStatus: "NOT_FOUND", httpStatus: 404 },
  TaskNotCancelableError: {
    code: -32002,
    reason: "TASK_NOT_CANCELABLE",
    message: "Task cannot be canceled",
    grpcStatus: "FAILED_PRECONDITION",
    httpStatus: 400,
  },
  PushNotificationNotSupportedError: {
    code: -32003,
    reason: "PUSH_NOTIFICATION_NOT_SUPPORTED",
    message: "Push Notification is not supported",
    grpcStatus: "FAILED_PRECONDITION",
    httpStatus: 400,
  },
  UnsupportedOperationError: {
    code: -32004,
    reason: "UNSUPPORTED_OPERATION",
    message: "This operation is not supported",
    grpcStatus: "FAILED_PRECONDITION",
    httpStatus: 400,
  },
  ContentTypeNotSupportedError: {
    code: -32005,
    reason: "CONTENT_TYPE_NOT_SUPPORTED",
    message: "Incompatible content types",
    grpcStatus: "INVALID_ARGUMENT",
    httpStatus: 400,
  },
  InvalidAgentResponseError: {
    code: -32006,
    reason: "INVALID_AGENT_RESPONSE",
    message: "Invalid agent response",
    grpcStatus: "INTERNAL",
    httpStatus: 500,
  },
  ExtendedAgentCardNotConfiguredError: {
    code: -32007,
    reason: "EXTENDED_AGENT_CARD_NOT_CONFIGURED",
    message: "Extended Agent Card not configured",
    grpcStatus: "FAILED_PRECONDITION",
    httpStatus: 400,
  },
  ExtensionSupportRequiredError: {
    code: -32008,
    reason: "EXTENSION_SUPPORT_REQUIRED",
    message: "Extension support required",
    grpcStatus: "FAILED_PRECONDITION",
    httpStatus: 400,
  },
  VersionNotSupportedError: {
    code: -32009,
    reason: "VERSION_NOT_SUPPORTED",
    message: "Version not supported",
    grpcStatus: "FAILED_PRECONDITION",
    httpStatus: 400,
  },
} as const satisfies Record<string, A2AErrorDefinition>;

export { JSONRPC_STANDARD_ERRORS };
