// Pure card builder: card-source document + public endpoint -> Agent Card JSON
// for one protocol generation. No I/O; used by the worker and `npm run card`.
import type { CardSource, SecurityScheme, SkillSource } from "./source";
import { prepareSkills, type PreparedSkill } from "./skills";

/**
 * - `v1`: strict A2A 1.0 card (no 0.3 fields; validates against the v1.0.1 schema).
 * - `v0.3`: A2A 0.3.0 card.
 * - `hybrid`: the 0.3 card plus 1.0 `supportedInterfaces` (readable by both).
 * - `legacy`: what `/.well-known/agent.json` serves: the hybrid shape.
 */
export const CARD_VARIANTS = ["v1", "v0.3", "hybrid", "legacy"] as const;
export type CardVariant = (typeof CARD_VARIANTS)[number];

export interface CardEndpoint {
  /** Absolute public URL of the JSON-RPC endpoint. */
  rpcUrl: string;
  /** `Major.Minor` versions the origin speaks, preferred first (e.g. ["1.0", "0.3"]). */
  protocolVersions: readonly string[];
  /** Skill names to advertise; absent or empty = all. */
  skillAllowlist?: readonly string[] | undefined;
}

export type JsonObject = { [key: string]: unknown };
export type AgentCard = JsonObject;

/** Protocol binding of every interface the worker fronts (A2A 1.0 §5.8). */
const BINDING = "JSONRPC";
const V03_PROTOCOL_VERSION = "0.3.0";

/** A 0.3-shaped card (`url`, `protocolVersion: "0.3.0"`) is only honest when a 0.x version is served. */
export function servesV03(protocolVersions: readonly string[]): boolean {
  return protocolVersions.some((version) => version.startsWith("0."));
}

export function buildCard(source: CardSource, endpoint: CardEndpoint, variant: CardVariant): AgentCard {
  const skills = prepareSkills(source.skills, endpoint.skillAllowlist);
  // A card never advertises an interface the edge cannot serve: without 0.3 every variant is the 1.0 card.
  if (variant === "v1" || !servesV03(endpoint.protocolVersions)) return buildV1(source, skills, endpoint);
  if (variant === "v0.3") return buildV03(source, skills, endpoint);
  return buildHybrid(source, skills, endpoint);
}

/**
 * The 0.3 card plus what 1.0 readers look for: `supportedInterfaces`,
 * `capabilities.extendedAgentCard` and `securityRequirements` (the v0.3.0 and
 * v0.2.6 schemas allow extra members, so it stays valid for 0.x readers).
 */
function buildHybrid(source: CardSource, skills: PreparedSkill[], endpoint: CardEndpoint): AgentCard {
  const card = buildV03(source, skills, endpoint, (skill) => requirementsV1(nonEmpty(skill.security)));
  const capabilities = { ...(card.capabilities as JsonObject), ...defined({ extendedAgentCard: source.capabilities.extendedAgentCard || undefined }) };
  return defined({
    ...card,
    capabilities,
    securityRequirements: requirementsV1(nonEmpty(source.security)),
    supportedInterfaces: supportedInterfaces(endpoint),
  });
}

/** Joins a public base (scheme://host[/prefix]) and an absolute path. */
export function joinUrl(base: string, path: string): string {
  return base.replace(/\/+$/, "") + (path.startsWith("/") ? path : `/${path}`);
}

function supportedInterfaces(endpoint: CardEndpoint): JsonObject[] {
  return endpoint.protocolVersions.map((protocolVersion) => ({
    url: endpoint.rpcUrl,
    protocolBinding: BINDING,
    protocolVersion,
  }));
}

/** Copies the defined members only: optional card fields are absent, never null. */
function defined(fields: JsonObject): JsonObject {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

const nonEmpty = <T>(items: readonly T[] | undefined): readonly T[] | undefined =>
  items && items.length > 0 ? items : undefined;

const nonEmptyRecord = <T>(record: Record<string, T> | undefined): Record<string, T> | undefined =>
  record && Object.keys(record).length > 0 ? record : undefined;

function profile(source: CardSource): JsonObject {
  return defined({
    name: source.name,
    description: source.description,
    version: source.version,
    provider: source.provider && { organization: source.provider.organization, url: source.provider.url },
    documentationUrl: source.documentationUrl,
    iconUrl: source.iconUrl,
  });
}

function extensions(source: CardSource): JsonObject[] | undefined {
  return nonEmpty(source.capabilities.extensions)?.map((e) =>
    defined({ uri: e.uri, description: e.description, required: e.required || undefined, params: e.params }),
  );
}

// ---- A2A 1.0 (spec §5, proto lf.a2a.v1) ----

function buildV1(source: CardSource, skills: PreparedSkill[], endpoint: CardEndpoint): AgentCard {
  const capabilities = source.capabilities;
  return defined({
    ...profile(source),
    supportedInterfaces: supportedInterfaces(endpoint),
    capabilities: defined({
      streaming: capabilities.streaming,
      pushNotifications: capabilities.pushNotifications,
      extensions: extensions(source),
      extendedAgentCard: capabilities.extendedAgentCard || undefined,
    }),
    securitySchemes: nonEmptyRecord(mapValues(source.securitySchemes, securitySchemeV1)),
    securityRequirements: requirementsV1(nonEmpty(source.security)),
    defaultInputModes: source.defaultInputModes,
    defaultOutputModes: source.defaultOutputModes,
    skills: skills.map((skill) => ({ ...skillBase(skill), ...defined({ securityRequirements: requirementsV1(nonEmpty(skill.security)) }) })),
  });
}

/**
 * 1.0 `SecurityRequirement`: `{ schemes: { name: { list: scopes } } }`. No scopes is
 * `{}` (ProtoJSON omits an empty repeated field), so the card is already in the
 * field-presence form that §8.4.1 signs.
 */
function requirementsV1(requirements: readonly Record<string, string[]>[] | undefined): JsonObject[] | undefined {
  return requirements?.map((requirement) => ({ schemes: mapValues(requirement, (scopes) => (scopes.length > 0 ? { list: scopes } : {})) }));
}

/** 1.0 `SecurityScheme` is a proto oneof: a wrapper with exactly one member. */
function securitySchemeV1(scheme: SecurityScheme): JsonObject {
  const description = scheme.description;
  switch (scheme.type) {
    case "apiKey":
      return { apiKeySecurityScheme: defined({ location: scheme.in, name: scheme.name, description }) };
    case "http":
      return { httpAuthSecurityScheme: defined({ scheme: scheme.scheme, bearerFormat: scheme.bearerFormat, description }) };
    case "oauth2":
      return {
        oauth2SecurityScheme: defined({ flows: defined({ ...scheme.flows }), oauth2MetadataUrl: scheme.oauth2MetadataUrl, description }),
      };
    case "openIdConnect":
      return { openIdConnectSecurityScheme: defined({ openIdConnectUrl: scheme.openIdConnectUrl, description }) };
    case "mutualTLS":
      return { mtlsSecurityScheme: defined({ description }) };
  }
}

// ---- A2A 0.3.0 (specification/json/a2a.json) ----

function buildV03(
  source: CardSource,
  skills: PreparedSkill[],
  endpoint: CardEndpoint,
  skillRequirementsV1: (skill: PreparedSkill) => JsonObject[] | undefined = () => undefined,
): AgentCard {
  const capabilities = source.capabilities;
  return defined({
    protocolVersion: V03_PROTOCOL_VERSION,
    ...profile(source),
    url: endpoint.rpcUrl,
    preferredTransport: BINDING,
    // §5.6: additionalInterfaces SHOULD repeat the main url + transport.
    additionalInterfaces: [{ url: endpoint.rpcUrl, transport: BINDING }],
    capabilities: defined({
      streaming: capabilities.streaming,
      pushNotifications: capabilities.pushNotifications,
      stateTransitionHistory: capabilities.stateTransitionHistory || undefined,
      extensions: extensions(source),
    }),
    securitySchemes: nonEmptyRecord(mapValues(source.securitySchemes, securitySchemeV03)),
    security: nonEmpty(source.security),
    defaultInputModes: source.defaultInputModes,
    defaultOutputModes: source.defaultOutputModes,
    supportsAuthenticatedExtendedCard: capabilities.extendedAgentCard || undefined,
    skills: skills.map((skill) => ({
      ...skillBase(skill),
      ...defined({ security: nonEmpty(skill.security), securityRequirements: skillRequirementsV1(skill) }),
    })),
  });
}

function securitySchemeV03(scheme: SecurityScheme): JsonObject {
  if (scheme.type !== "oauth2" || !scheme.flows.authorizationCode) return defined({ ...scheme });
  // PKCE is a 1.0 addition; 0.3 readers have no field for it.
  const { pkceRequired: _pkce, ...authorizationCode } = scheme.flows.authorizationCode;
  return defined({ ...scheme, flows: { authorizationCode } });
}

// ---- shared ----

function skillBase(skill: PreparedSkill): JsonObject {
  return defined({
    id: skill.id,
    name: skill.name,
    description: skill.description,
    tags: skill.tags,
    examples: nonEmpty(skill.examples),
    inputModes: skill.inputModes,
    outputModes: skill.outputModes,
  } satisfies { [K in keyof SkillSource]?: unknown });
}

/** Object.fromEntries defines own properties: a key such as `__proto__` stays a key, never a prototype. */
function mapValues<T, U>(record: Readonly<Record<string, T>> | undefined, fn: (value: T) => U): Record<string, U> | undefined {
  if (record === undefined) return undefined;
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, fn(value)]));
}
