// The payload @a2a-js/sdk (1.3) verifies a card signature against: the card
// projected onto the A2A 1.0 proto fields (AgentCard.toJSON(AgentCard.fromJSON))
// with empty strings, arrays and objects removed, then JCS. It differs from
// §8.4.1 whenever a card has 0.3 fields (they are not covered) or empty
// values (they are dropped), so the edge adds a second signature over this
// payload for those cards; see signCard(). The projection's field lists are
// checked against the 1.0 types of a2a/v1.ts at compile time: a field missing
// from either side does not compile.
import type * as v1 from "../a2a/v1";
import { isJsonObject, type JsonObject } from "../json";
import { canonicalJson } from "./jcs";

/** How the SDK's round trip treats one field: kept as is, or dropped when `false` (a proto3 `bool`'s default). */
type Shape = "value" | "falseIsDefault" | ListShape | MapShape | FieldsShape;
type ListShape = { $list: Shape };
type MapShape = { $map: Shape };
type FieldsShape = { [field: string]: Shape };
/** Exactly the fields of a 1.0 message, each with its Shape. */
type ShapeOf<Message> = { [Field in keyof Required<Message>]: Shape };

const listOf = (item: Shape): Shape => ({ $list: item });
const mapOf = (value: Shape): Shape => ({ $map: value });
const strings = listOf("value");
const scopes = mapOf("value");

const stringList = { list: strings } satisfies ShapeOf<v1.StringList>;
const requirement = { schemes: mapOf(stringList) } satisfies ShapeOf<v1.SecurityRequirement>;
const flows = {
  authorizationCode: {
    authorizationUrl: "value",
    tokenUrl: "value",
    refreshUrl: "value",
    scopes,
    pkceRequired: "falseIsDefault",
  } satisfies ShapeOf<v1.AuthorizationCodeOAuthFlow>,
  clientCredentials: { tokenUrl: "value", refreshUrl: "value", scopes } satisfies ShapeOf<v1.ClientCredentialsOAuthFlow>,
  implicit: { authorizationUrl: "value", refreshUrl: "value", scopes } satisfies ShapeOf<v1.ImplicitOAuthFlow>,
  password: { tokenUrl: "value", refreshUrl: "value", scopes } satisfies ShapeOf<v1.PasswordOAuthFlow>,
  deviceCode: { deviceAuthorizationUrl: "value", tokenUrl: "value", refreshUrl: "value", scopes } satisfies ShapeOf<v1.DeviceCodeOAuthFlow>,
} satisfies ShapeOf<v1.OAuthFlows>;
const scheme = {
  apiKeySecurityScheme: { description: "value", location: "value", name: "value" } satisfies ShapeOf<v1.ApiKeySecurityScheme>,
  httpAuthSecurityScheme: { description: "value", scheme: "value", bearerFormat: "value" } satisfies ShapeOf<v1.HttpAuthSecurityScheme>,
  oauth2SecurityScheme: { description: "value", oauth2MetadataUrl: "value", flows } satisfies ShapeOf<v1.OAuth2SecurityScheme>,
  openIdConnectSecurityScheme: { description: "value", openIdConnectUrl: "value" } satisfies ShapeOf<v1.OpenIdConnectSecurityScheme>,
  mtlsSecurityScheme: { description: "value" } satisfies ShapeOf<v1.MutualTlsSecurityScheme>,
} satisfies ShapeOf<v1.SecuritySchemeMembers>;
const agentInterface = {
  url: "value",
  protocolBinding: "value",
  tenant: "value",
  protocolVersion: "value",
} satisfies ShapeOf<v1.AgentInterface>;
const extension = { uri: "value", description: "value", required: "falseIsDefault", params: "value" } satisfies ShapeOf<v1.AgentExtension>;
const skill = {
  id: "value",
  name: "value",
  description: "value",
  tags: strings,
  examples: strings,
  inputModes: strings,
  outputModes: strings,
  securityRequirements: listOf(requirement),
} satisfies ShapeOf<v1.AgentSkill>;
/** `signatures` is left out: the payload is the card without them (§8.4.1 step 2). */
const AGENT_CARD = {
  name: "value",
  description: "value",
  version: "value",
  documentationUrl: "value",
  iconUrl: "value",
  provider: { url: "value", organization: "value" } satisfies ShapeOf<v1.AgentProvider>,
  supportedInterfaces: listOf(agentInterface),
  capabilities: {
    streaming: "value",
    pushNotifications: "value",
    extendedAgentCard: "value",
    extensions: listOf(extension),
  } satisfies ShapeOf<v1.AgentCapabilities>,
  securitySchemes: mapOf(scheme),
  securityRequirements: listOf(requirement),
  defaultInputModes: strings,
  defaultOutputModes: strings,
  skills: listOf(skill),
} satisfies ShapeOf<Omit<v1.AgentCard, "signatures">>;

const isList = (shape: ListShape | MapShape | FieldsShape): shape is ListShape => "$list" in shape;
const isMap = (shape: MapShape | FieldsShape): shape is MapShape => "$map" in shape;

function project(value: unknown, shape: Shape): unknown {
  if (shape === "value") return value;
  if (shape === "falseIsDefault") return value === false ? undefined : value;
  if (isList(shape)) return Array.isArray(value) ? value.map((v) => project(v, shape.$list)) : undefined;
  if (isMap(shape)) {
    return isJsonObject(value) ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, project(v, shape.$map)])) : undefined;
  }
  if (!isJsonObject(value)) return undefined;
  const out: Record<string, unknown> = {};
  for (const [field, sub] of Object.entries(shape)) if (field in value) out[field] = project(value[field], sub);
  return out;
}

/**
 * The SDK's `cleanEmpty`: "", null, undefined, [] and {} vanish, recursively.
 * Not the card's own presence rule (a2a/presence.ts): this one only mirrors
 * what @a2a-js/sdk verifies.
 */
function cleanEmptyLikeA2aJs(value: unknown): unknown {
  if (value === "" || value === null || value === undefined) return undefined;
  if (Array.isArray(value)) {
    const items = value.map(cleanEmptyLikeA2aJs).filter((v) => v !== undefined);
    return items.length > 0 ? items : undefined;
  }
  if (typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const cleaned = cleanEmptyLikeA2aJs(v);
      if (cleaned !== undefined) out[k] = cleaned;
    }
    return Object.keys(out).length > 0 ? out : undefined;
  }
  return value;
}

/** The card as @a2a-js/sdk 1.3 sees it before canonicalizing: projected onto 1.0 fields, empties dropped. */
function a2aJsView(card: JsonObject): unknown {
  return cleanEmptyLikeA2aJs(project(card, AGENT_CARD)) ?? {};
}

export function a2aJsPayload(card: JsonObject): string {
  return canonicalJson(a2aJsView(card));
}

/** A URL with an authority (`https://`, `wss://`, `grpc://` ...): anything a client might connect to. */
const HAS_SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;

/** Every URL-like string of a JSON value, by its path (`/supportedInterfaces/0/"url"`). */
function urlLeaves(value: unknown, path: string, out: Map<string, string>): Map<string, string> {
  if (typeof value === "string") {
    if (HAS_SCHEME.test(value)) out.set(path, value);
  } else if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) urlLeaves(item, `${path}/${i}`, out);
  } else if (isJsonObject(value)) {
    for (const [key, item] of Object.entries(value)) urlLeaves(item, `${path}/${JSON.stringify(key)}`, out);
  }
  return out;
}

/**
 * Whether a signature over the SDK's payload would cover every URL of the card,
 * each at its own place. A 0.3-shaped card's `url` and `additionalInterfaces`
 * are outside the SDK's projection: a signature over that payload would still
 * verify after they were changed to another host, so such a card gets none.
 */
export function a2aJsPayloadCoversUrls(card: JsonObject): boolean {
  const covered = urlLeaves(a2aJsView(card), "", new Map());
  for (const [path, value] of urlLeaves(card, "", new Map())) if (covered.get(path) !== value) return false;
  return true;
}
