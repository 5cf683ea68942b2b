// The payload @a2a-js/sdk (1.3) verifies a card signature against: the card
// projected onto the A2A 1.0 proto fields (AgentCard.toJSON(AgentCard.fromJSON))
// with empty strings, arrays and objects removed, then JCS. It differs from
// §8.4.1 whenever a card has 0.3 fields (they are not covered) or empty
// values (they are dropped), so the edge adds a second signature over this
// payload for those cards; see signCard().
import { canonicalJson } from "./jcs";

type Shape = "value" | "falseIsDefault" | { $list: Shape } | { $map: Shape } | { [field: string]: Shape };

const listOf = (item: Shape): Shape => ({ $list: item });
const mapOf = (value: Shape): Shape => ({ $map: value });
const strings = listOf("value");
const scopes = mapOf("value");
const flow = (...urls: string[]): Shape => ({ ...Object.fromEntries(urls.map((u) => [u, "value" as const])), scopes });
const requirement: Shape = { schemes: mapOf({ list: strings }) };
const scheme: Shape = {
  apiKeySecurityScheme: { description: "value", location: "value", name: "value" },
  httpAuthSecurityScheme: { description: "value", scheme: "value", bearerFormat: "value" },
  oauth2SecurityScheme: {
    description: "value",
    oauth2MetadataUrl: "value",
    flows: {
      authorizationCode: { ...(flow("authorizationUrl", "tokenUrl", "refreshUrl") as object), pkceRequired: "falseIsDefault" },
      clientCredentials: flow("tokenUrl", "refreshUrl"),
      implicit: flow("authorizationUrl", "refreshUrl"),
      password: flow("tokenUrl", "refreshUrl"),
      deviceCode: flow("deviceAuthorizationUrl", "tokenUrl", "refreshUrl"),
    },
  },
  openIdConnectSecurityScheme: { description: "value", openIdConnectUrl: "value" },
  mtlsSecurityScheme: { description: "value" },
};
const AGENT_CARD: Shape = {
  name: "value",
  description: "value",
  version: "value",
  documentationUrl: "value",
  iconUrl: "value",
  provider: { url: "value", organization: "value" },
  supportedInterfaces: listOf({ url: "value", protocolBinding: "value", tenant: "value", protocolVersion: "value" }),
  capabilities: {
    streaming: "value",
    pushNotifications: "value",
    extendedAgentCard: "value",
    extensions: listOf({ uri: "value", description: "value", required: "falseIsDefault", params: "value" }),
  },
  securitySchemes: mapOf(scheme),
  securityRequirements: listOf(requirement),
  defaultInputModes: strings,
  defaultOutputModes: strings,
  skills: listOf({
    id: "value",
    name: "value",
    description: "value",
    tags: strings,
    examples: strings,
    inputModes: strings,
    outputModes: strings,
    securityRequirements: listOf(requirement),
  }),
};

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function project(value: unknown, shape: Shape): unknown {
  if (shape === "value") return value;
  if (shape === "falseIsDefault") return value === false ? undefined : value;
  if ("$list" in shape) return Array.isArray(value) ? value.map((v) => project(v, shape.$list as Shape)) : undefined;
  if ("$map" in shape) return isRecord(value) ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, project(v, shape.$map as Shape)])) : undefined;
  if (!isRecord(value)) return undefined;
  const out: Record<string, unknown> = {};
  for (const [field, sub] of Object.entries(shape)) if (field in value) out[field] = project(value[field], sub as Shape);
  return out;
}

/** `cleanEmpty` of the SDK: "", null, undefined, [] and {} vanish, recursively. */
function withoutEmpty(value: unknown): unknown {
  if (value === "" || value === null || value === undefined) return undefined;
  if (Array.isArray(value)) {
    const items = value.map(withoutEmpty).filter((v) => v !== undefined);
    return items.length > 0 ? items : undefined;
  }
  if (typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const cleaned = withoutEmpty(v);
      if (cleaned !== undefined) out[k] = cleaned;
    }
    return Object.keys(out).length > 0 ? out : undefined;
  }
  return value;
}

/** The card as @a2a-js/sdk 1.3 sees it before canonicalizing: projected onto 1.0 fields, empties dropped. */
function a2aJsView(card: Record<string, unknown>): unknown {
  return withoutEmpty(project(card, AGENT_CARD)) ?? {};
}

export function a2aJsPayload(card: Record<string, unknown>): string {
  return canonicalJson(a2aJsView(card));
}

/** A URL with an authority (`https://`, `wss://`, `grpc://` ...): anything a client might connect to. */
const HAS_SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;

/** Every URL-like string of a JSON value, by its path (`/supportedInterfaces/0/"url"`). */
function urlLeaves(value: unknown, path: string, out: Map<string, string>): Map<string, string> {
  if (typeof value === "string") {
    if (HAS_SCHEME.test(value)) out.set(path, value);
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => urlLeaves(item, `${path}/${i}`, out));
  } else if (isRecord(value)) {
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
export function a2aJsPayloadCoversUrls(card: Record<string, unknown>): boolean {
  const covered = urlLeaves(a2aJsView(card), "", new Map());
  for (const [path, value] of urlLeaves(card, "", new Map())) if (covered.get(path) !== value) return false;
  return true;
}
