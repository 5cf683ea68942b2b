// An A2A card of any generation (0.2.x, 0.3, 1.0, hybrid) and the dialects met
// in the wild, read leniently into the card-source document's form: what the
// official schema of its version accepts is read, what the edge derives is a
// hint, and every other change is a named repair (repairs.ts). Security is
// never dropped: a security member the edge cannot read refuses the card.
import { securityRequirementsV03, securitySchemeFromV1 } from "../a2a/correspondence";
import { presentFields } from "../a2a/presence";
import type * as v1 from "../a2a/v1";
import type * as v03 from "../a2a/v03";
import type { JsonObject } from "../json";
import type { Issue } from "../validation";
import { join, knownMembers, listOf, objectOf, optionalUrl, publishedUrl, Reading, readModes, text } from "./reading";
import { capabilityFlagOf, type Repair } from "./repairs";
import { readSkills } from "./skill-reader";
import type { CardSource } from "./source";
import { IDENTIFIER_SCHEMES } from "./url-schemes";

/** Members the edge derives from its own configuration and the request: the card's values are only hints. */
export const DERIVED_MEMBERS = [
  "url",
  "preferredTransport",
  "additionalInterfaces",
  "supportedInterfaces",
  "protocolVersion",
  "signatures",
  // lc_a2a and others: the same meanings under other names.
  "protocolVersions",
  "interfaces",
  "signature",
] as const;

type CardMember = keyof v1.AgentCard | keyof v03.AgentCard | keyof CardSource;
const READ_MEMBERS = [
  "name",
  "description",
  "version",
  "provider",
  "documentationUrl",
  "iconUrl",
  "capabilities",
  "supportsAuthenticatedExtendedCard",
  "defaultInputModes",
  "defaultOutputModes",
  "securitySchemes",
  "security",
  "securityRequirements",
  "skills",
  "originUrl",
  "originCredentials",
  "originVpc",
  "authProfile",
] as const satisfies readonly CardMember[];
/** A2A 0.1 / lc_a2a: the scheme names the endpoint accepts. */
const AUTHENTICATION = "authentication";

const FLAGS = ["streaming", "pushNotifications", "stateTransitionHistory", "extendedAgentCard"] as const;

function readProvider(value: unknown, reading: Reading): JsonObject | undefined {
  if (value === undefined) return undefined;
  if (typeof value === "string" && text(value)) {
    reading.repair("provider-string", "provider", `read as {organization: ${JSON.stringify(value).slice(0, 80)}}`);
    return { organization: value };
  }
  const provider = objectOf(value);
  const organization = text(provider?.organization);
  if (!provider || organization === undefined) {
    reading.repair("invalid-value", "provider", "no organization: left out");
    return undefined;
  }
  return presentFields({ organization, url: optionalUrl(provider.url, "provider.url", reading) });
}

function readExtensions(value: unknown, path: string, reading: Reading): JsonObject[] | undefined {
  return listOf(value)?.flatMap((e, i) => {
    const extension = objectOf(e);
    const invalid = () => reading.repair("invalid-value", join(path, i), "an extension without an absolute URI: left out");
    if (!extension) {
      invalid();
      return [];
    }
    // An identifier, so a URN too (url-schemes.ts); never a scheme a reader would run or open.
    const at = { path: join(join(path, i), "uri"), what: "the extension is", invalid };
    const uri = publishedUrl(extension.uri, at, IDENTIFIER_SCHEMES, reading);
    if (uri === undefined) return [];
    const params = objectOf(extension.params);
    return [presentFields({ uri, description: text(extension.description), required: extension.required === true, params })];
  });
}

function readCapabilities(card: JsonObject, reading: Reading): JsonObject {
  const raw = card.capabilities;
  const out: JsonObject = {};
  if (Array.isArray(raw)) {
    const named = raw.filter((c): c is string => typeof c === "string");
    const unknown = named.filter((c) => capabilityFlagOf(c) === undefined);
    for (const c of named) if (capabilityFlagOf(c)) out[capabilityFlagOf(c) ?? ""] = true;
    const dropped = unknown.length > 0 ? `; not A2A capabilities, left out: ${unknown.join(", ").slice(0, 200)}` : "";
    reading.repair("capability-strings", "capabilities", `read as flags: ${Object.keys(out).join(", ") || "none"}${dropped}`);
  } else if (objectOf(raw)) {
    const capabilities = knownMembers(objectOf(raw) ?? {}, [...FLAGS, "extensions"], "capabilities", reading);
    for (const flag of FLAGS) {
      if (typeof capabilities[flag] === "boolean") out[flag] = capabilities[flag];
      else if (capabilities[flag] !== undefined) reading.repair("invalid-value", `capabilities.${flag}`, "not a boolean: false");
    }
    const extensions = readExtensions(capabilities.extensions, "capabilities.extensions", reading);
    if (extensions) out.extensions = extensions;
  } else if (raw === undefined) reading.repair("missing-required", "capabilities", "absent: no capability");
  else reading.repair("invalid-value", "capabilities", "not an object: no capability");
  if (out.extendedAgentCard === undefined && typeof card.supportsAuthenticatedExtendedCard === "boolean") {
    out.extendedAgentCard = card.supportsAuthenticatedExtendedCard;
  }
  return out;
}

/** `authentication: ["bearer"]` (or 0.1's `{schemes: [...]}`): each name an alternative. Unknown names refuse the card. */
function readAuthentication(value: unknown, reading: Reading): JsonObject {
  const names = (listOf(value) ?? listOf(objectOf(value)?.schemes) ?? []).filter((n): n is string => typeof n === "string");
  const schemes: Record<string, JsonObject> = {};
  for (const name of names) {
    const scheme = name.toLowerCase();
    if (scheme === "bearer" || scheme === "basic") schemes[scheme] = { type: "http", scheme };
    else
      reading.refuse(
        AUTHENTICATION,
        `scheme ${JSON.stringify(name).slice(0, 80)} names no A2A security scheme: declare it in securitySchemes`,
      );
  }
  if (Object.keys(schemes).length === 0) return {};
  reading.repair(AUTHENTICATION, AUTHENTICATION, `read as securitySchemes ${Object.keys(schemes).join(", ")}, any one required`);
  return { securitySchemes: schemes, security: Object.keys(schemes).map((name) => ({ [name]: [] })) };
}

function readSecurity(card: JsonObject, authentication: unknown, reading: Reading): JsonObject {
  const schemes = objectOf(card.securitySchemes);
  const security = securityRequirementsV03(card.securityRequirements, card.security);
  if (authentication !== undefined && (schemes || security)) {
    reading.repair(AUTHENTICATION, AUTHENTICATION, "superseded by the card's securitySchemes and requirements");
  } else if (authentication !== undefined) return readAuthentication(authentication, reading);
  return presentFields({
    securitySchemes: schemes
      ? Object.fromEntries(Object.entries(schemes).map(([n, s]) => [n, securitySchemeFromV1(s)]))
      : card.securitySchemes,
    security,
  });
}

function readProfile(card: JsonObject, reading: Reading): JsonObject {
  for (const member of ["description", "version"] as const) {
    if (card[member] === undefined) reading.repair("missing-required", member, "absent: the document default");
  }
  const version = typeof card.version === "number" ? String(card.version) : text(card.version);
  if (card.version !== undefined && version === undefined) reading.repair("invalid-value", "version", "not a string: 1.0.0");
  return presentFields({
    name: text(card.name),
    description: typeof card.description === "string" ? card.description : undefined,
    version,
    provider: readProvider(card.provider, reading),
    documentationUrl: optionalUrl(card.documentationUrl, "documentationUrl", reading),
    iconUrl: optionalUrl(card.iconUrl, "iconUrl", reading),
    originUrl: card.originUrl,
    originCredentials: card.originCredentials,
    originVpc: card.originVpc,
    authProfile: card.authProfile,
  });
}

/** The card as an unchecked card-source document (the schema checks it next), what was repaired, and what refuses it. */
export function readCard(value: JsonObject): { document: JsonObject; repairs: Repair[]; issues: Issue[] } {
  const reading = new Reading();
  const card = knownMembers(value, [...READ_MEMBERS, ...DERIVED_MEMBERS, AUTHENTICATION], "", reading);
  for (const member of DERIVED_MEMBERS) {
    if (member in card) reading.repair("derived-field", member, "a hint: the edge publishes its own");
  }
  if (text(card.name) === undefined) reading.refuse("name", "required (a non-empty string): without a name this is not an Agent Card");
  const profile = readProfile(card, reading);
  const document = presentFields({
    ...profile,
    capabilities: readCapabilities(card, reading),
    defaultInputModes: readModes(card.defaultInputModes, "defaultInputModes", reading),
    defaultOutputModes: readModes(card.defaultOutputModes, "defaultOutputModes", reading),
    ...readSecurity(card, card[AUTHENTICATION], reading),
    skills: readSkills(card.skills, { name: text(card.name) ?? "Agent", description: text(card.description) }, reading),
  });
  for (const modes of ["defaultInputModes", "defaultOutputModes"] as const) {
    if (card[modes] === undefined) reading.repair("missing-required", modes, "absent: text/plain");
  }
  return { document, repairs: reading.repairs, issues: reading.issues };
}
