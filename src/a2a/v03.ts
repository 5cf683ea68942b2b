// A2A 0.3.0: the Agent Card as JSON (A2A @ v0.3.0 specification/json/a2a.json,
// spec §5), its transports, JSON-RPC methods and errors. Security schemes are
// in the OpenAPI `type` form, requirements OpenAPI-style `{name: [scopes]}`.
// The 0.3.0 schema allows extra members on every object, which is what lets a
// hybrid card carry 1.0 fields (see hybrid.ts). Shapes are `type` aliases so
// that a card is also a JsonObject.
import type { JsonObject } from "../json";
import { type ErrorDefinition, JSONRPC_STANDARD_ERRORS } from "./jsonrpc-errors";
import type { Operation } from "./operations";
import type * as v1 from "./v1";

/** The card's top-level `protocolVersion` (the schema's default). */
export const PROTOCOL_VERSION = "0.3.0";

/** `TransportProtocol` (the same three strings as 1.0's bindings). */
export const TRANSPORT_PROTOCOLS = ["JSONRPC", "GRPC", "HTTP+JSON"] as const;
export type TransportProtocol = (typeof TRANSPORT_PROTOCOLS)[number];
/** The transport this edge fronts; also `preferredTransport`'s default. */
export const JSONRPC_TRANSPORT = "JSONRPC" satisfies TransportProtocol;

// ---- Agent Card ----

export type AgentInterface = { url: string; transport: string };
type AgentProvider = { organization: string; url: string };
export type AgentExtension = { uri: string; description?: string; required?: boolean; params?: JsonObject };

export type AgentCapabilities = {
  streaming?: boolean;
  pushNotifications?: boolean;
  /** Removed in 1.0 (A2A #1396). */
  stateTransitionHistory?: boolean;
  extensions?: readonly AgentExtension[];
};

export type AgentSkill = {
  id: string;
  name: string;
  description: string;
  tags: readonly string[];
  examples?: readonly string[];
  inputModes?: readonly string[];
  outputModes?: readonly string[];
  security?: readonly SecurityRequirement[];
};

type AgentCardSignature = { protected: string; signature: string; header?: JsonObject };

export type AgentCard = {
  protocolVersion: string;
  name: string;
  description: string;
  version: string;
  provider?: AgentProvider;
  documentationUrl?: string;
  iconUrl?: string;
  /** The preferred endpoint; MUST support `preferredTransport` (§5.6.1). */
  url: string;
  preferredTransport?: string;
  /** SHOULD repeat `url` with its transport (§5.6). */
  additionalInterfaces?: readonly AgentInterface[];
  capabilities: AgentCapabilities;
  securitySchemes?: Readonly<Record<string, SecurityScheme>>;
  security?: readonly SecurityRequirement[];
  defaultInputModes: readonly string[];
  defaultOutputModes: readonly string[];
  /** 1.0 moved it to `capabilities.extendedAgentCard`. */
  supportsAuthenticatedExtendedCard?: boolean;
  skills: readonly AgentSkill[];
  signatures?: readonly AgentCardSignature[];
};

// ---- security (OpenAPI 3 form) ----

/** Alternatives are a list of these: every named scheme, with its scopes, together. */
export type SecurityRequirement = Readonly<Record<string, readonly string[]>>;

type Scopes = Readonly<Record<string, string>>;
type AuthorizationCodeOAuthFlow = { authorizationUrl: string; tokenUrl: string; refreshUrl?: string; scopes: Scopes };
type ClientCredentialsOAuthFlow = { tokenUrl: string; refreshUrl?: string; scopes: Scopes };
type ImplicitOAuthFlow = { authorizationUrl: string; refreshUrl?: string; scopes: Scopes };
type PasswordOAuthFlow = { tokenUrl: string; refreshUrl?: string; scopes: Scopes };
export type OAuthFlows = {
  authorizationCode?: AuthorizationCodeOAuthFlow;
  clientCredentials?: ClientCredentialsOAuthFlow;
  implicit?: ImplicitOAuthFlow;
  password?: PasswordOAuthFlow;
  /**
   * Not in 0.3.0: a 1.0 flow that 0.3-shaped cards carry when a document
   * declares one (0.3.0 OAuthFlows allows extra members; 0.3 readers skip it).
   */
  deviceCode?: v1.DeviceCodeOAuthFlow;
};

export type ApiKeySecurityScheme = { type: "apiKey"; in: "header" | "query" | "cookie"; name: string; description?: string };
type HttpAuthSecurityScheme = { type: "http"; scheme: string; bearerFormat?: string; description?: string };
export type OAuth2SecurityScheme = { type: "oauth2"; flows: OAuthFlows; oauth2MetadataUrl?: string; description?: string };
type OpenIdConnectSecurityScheme = { type: "openIdConnect"; openIdConnectUrl: string; description?: string };
type MutualTlsSecurityScheme = { type: "mutualTLS"; description?: string };
export type SecurityScheme =
  | ApiKeySecurityScheme
  | HttpAuthSecurityScheme
  | OAuth2SecurityScheme
  | OpenIdConnectSecurityScheme
  | MutualTlsSecurityScheme;
export type SecuritySchemeType = SecurityScheme["type"];
export const SECURITY_SCHEME_TYPES: readonly SecuritySchemeType[] = ["apiKey", "http", "oauth2", "openIdConnect", "mutualTLS"];

// ---- JSON-RPC (§3.5.1: `{category}/{action}`) ----

/** ListTasks has no 0.3 JSON-RPC method (gRPC/REST only). */
export const JSONRPC_METHODS = {
  sendMessage: "message/send",
  sendStreamingMessage: "message/stream",
  getTask: "tasks/get",
  cancelTask: "tasks/cancel",
  subscribeToTask: "tasks/resubscribe",
  createPushNotificationConfig: "tasks/pushNotificationConfig/set",
  getPushNotificationConfig: "tasks/pushNotificationConfig/get",
  listPushNotificationConfigs: "tasks/pushNotificationConfig/list",
  deletePushNotificationConfig: "tasks/pushNotificationConfig/delete",
  getExtendedAgentCard: "agent/getAuthenticatedExtendedCard",
} as const satisfies Record<Exclude<Operation, "listTasks">, string>;
export type JsonRpcMethod = (typeof JSONRPC_METHODS)[keyof typeof JSONRPC_METHODS];

/** A2A errors (a2a.json; range -32000…-32099, §8). `error.data` is free-form in 0.3. */
export const A2A_ERRORS = {
  TaskNotFoundError: { code: -32001, message: "Task not found" },
  TaskNotCancelableError: { code: -32002, message: "Task cannot be canceled" },
  PushNotificationNotSupportedError: { code: -32003, message: "Push Notification is not supported" },
  UnsupportedOperationError: { code: -32004, message: "This operation is not supported" },
  ContentTypeNotSupportedError: { code: -32005, message: "Incompatible content types" },
  InvalidAgentResponseError: { code: -32006, message: "Invalid agent response" },
  AuthenticatedExtendedCardNotConfiguredError: { code: -32007, message: "Authenticated Extended Card is not configured" },
} as const satisfies Record<string, ErrorDefinition>;

export { JSONRPC_STANDARD_ERRORS };

// ---- events by shape ----

export type EventKind = "task" | "message" | "status-update" | "artifact-update";
const EVENT_KINDS: readonly string[] = ["task", "message", "status-update", "artifact-update"] satisfies EventKind[];

/**
 * The `kind` of a 0.3 result or stream event, read leniently: servers of the
 * 0.2/0.3 era (VoltAgent, early SDKs) leave `kind` out, so an object without
 * one is known by the members each shape requires (a2a.json @ v0.3.0: Task
 * `id`+`status`, Message `messageId`+`parts`, TaskStatusUpdateEvent
 * `taskId`+`status`, TaskArtifactUpdateEvent `taskId`+`artifact`).
 * undefined: not an event this version defines.
 */
export function eventKindOf(value: JsonObject): EventKind | undefined {
  if (typeof value.kind === "string") return EVENT_KINDS.includes(value.kind) ? (value.kind as EventKind) : undefined;
  const has = (...members: string[]) => members.every((member) => Object.hasOwn(value, member));
  if (has("taskId", "artifact")) return "artifact-update";
  if (has("taskId", "status")) return "status-update";
  if (has("id", "status")) return "task";
  if (has("messageId", "parts")) return "message";
  return undefined;
}
