// Cards that come from the origin agent (its own card in passthrough mode, its
// extended card through the proxy) carry its private address. Pure functions
// that make them public: interface URLs become the public RPC URL, any other
// mention of a private origin becomes the public base, and origin signatures
// (which covered the private URLs) are dropped. And the reader that turns an
// origin's card into a card-source document (passthrough mode).

import { securityRequirementsV03, securitySchemeFromV1 } from "../a2a/correspondence";
import type { HybridAgentCard } from "../a2a/hybrid";
import { presentFields } from "../a2a/presence";
import * as v1 from "../a2a/v1";
import * as v03 from "../a2a/v03";
import { type JsonObject, jsonObject, memberOf } from "../json";
import { type CardSource, type ParseResult, parseCardSource } from "./source";

/** `scheme://host[:port]` of every absolute http(s) URL given; invalid ones are skipped. */
export function originsOf(urls: readonly (string | undefined)[]): string[] {
  const origins = new Set<string>();
  for (const url of urls) {
    if (!url) continue;
    try {
      const parsed = new URL(url);
      if (parsed.protocol === "http:" || parsed.protocol === "https:") origins.add(parsed.origin);
    } catch {
      /* not a URL: nothing to hide */
    }
  }
  return [...origins];
}

const listOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** Every endpoint URL a 1.0, 0.3 or hybrid card names (1.0 interfaces, 0.3 `url` and interfaces). */
function interfaceUrls(card: JsonObject): string[] {
  return [
    memberOf<v03.AgentCard>(card, "url"),
    ...listOf(memberOf<v1.AgentCard>(card, "supportedInterfaces")).map((i) => memberOf<v1.AgentInterface>(i, "url")),
    ...listOf(memberOf<v03.AgentCard>(card, "additionalInterfaces")).map((i) => memberOf<v03.AgentInterface>(i, "url")),
  ].filter((u): u is string => typeof u === "string");
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function replaceOrigins(value: unknown, privateOrigins: readonly string[], publicBase: string): unknown {
  if (typeof value === "string") {
    let out = value;
    // Scheme and host are case-insensitive (RFC 3986 §6.2.2.1): HTTP://Origin.Internal is the same origin.
    for (const origin of privateOrigins) out = out.replace(new RegExp(escapeRegExp(origin), "gi"), publicBase);
    return out;
  }
  if (Array.isArray(value)) return value.map((v) => replaceOrigins(v, privateOrigins, publicBase));
  if (typeof value === "object" && value !== null) {
    const out: JsonObject = {};
    for (const [k, v] of Object.entries(value)) out[k] = replaceOrigins(v, privateOrigins, publicBase);
    return out;
  }
  return value;
}

/** The same value with the private origins replaced inside its strings: strings stay strings, so its type stays. */
function withPublicOrigins<T>(value: T, privateOrigins: readonly string[], publicBase: string): T {
  // Only string contents change (see replaceOrigins), never the shape: the result is still a T.
  return replaceOrigins(value, privateOrigins, publicBase) as T;
}

/** The interface members rewritten to the public RPC URL: only JSON-RPC ones survive (the edge fronts JSON-RPC only). */
function publicInterfaces(card: JsonObject, privateOrigins: readonly string[], publicBase: string, publicRpcUrl: string) {
  const supported = memberOf<v1.AgentCard>(card, "supportedInterfaces");
  const hasUrl = ("url" satisfies keyof v03.AgentCard) in card;
  return presentFields({
    supportedInterfaces: Array.isArray(supported)
      ? supported.flatMap((value) => {
          const entry = jsonObject(value);
          const fronted = entry && memberOf<v1.AgentInterface>(entry, "protocolBinding") === v1.JSONRPC_BINDING;
          return fronted ? [{ ...withPublicOrigins(entry, privateOrigins, publicBase), url: publicRpcUrl }] : [];
        })
      : undefined,
    url: hasUrl ? publicRpcUrl : undefined,
    preferredTransport: hasUrl ? v03.JSONRPC_TRANSPORT : undefined,
    additionalInterfaces: Array.isArray(memberOf<v03.AgentCard>(card, "additionalInterfaces"))
      ? [{ url: publicRpcUrl, transport: v03.JSONRPC_TRANSPORT }]
      : undefined,
  } satisfies Partial<Record<keyof (v1.AgentCard & HybridAgentCard), unknown>>);
}

/**
 * The card as the public should see it. Typed cards (the worker's own, built
 * from an origin's card) keep their type; the extended card from the origin
 * is untrusted JSON and stays a JsonObject (it is rewritten, never trusted).
 */
export function publicizeCard<Card extends JsonObject>(
  card: Card,
  knownPrivateOrigins: readonly string[],
  publicBase: string,
  publicRpcUrl: string,
): Card {
  const privateOrigins = [...new Set([...knownPrivateOrigins, ...originsOf(interfaceUrls(card))])].filter((o) => !publicBase.startsWith(o));
  const out = withPublicOrigins(card, privateOrigins, publicBase); // a copy
  Reflect.deleteProperty(out, "signatures" satisfies keyof v1.AgentCard);
  return { ...out, ...publicInterfaces(card, privateOrigins, publicBase, publicRpcUrl) };
}

// ---- origin card -> card-source document (passthrough mode) ----
// Unknown in, typed out: members are picked loosely (wrong types become
// absent), put into the document's form, and the whole document is then
// validated by the same schema as skills.json.

const list = (v: unknown): unknown[] | undefined => (Array.isArray(v) && v.length > 0 ? v : undefined);
const text = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);
const flag = (v: unknown): boolean | undefined => (typeof v === "boolean" ? v : undefined);

export interface OriginCardSource {
  source: CardSource;
  /** `Major.Minor` of the origin's JSON-RPC interfaces, preferred first. */
  protocolVersions: string[];
  /** Origins the origin's card advertised for itself: private, never published. */
  advertisedOrigins: string[];
}

/** Reads a 1.0, 0.3 or hybrid card into a card-source document, validated by the same schema. */
export function sourceFromCard(value: unknown): ParseResult<OriginCardSource> {
  const card = jsonObject(value);
  if (!card) return { ok: false, issues: [{ path: "", message: "the origin card is not a JSON object" }] };
  // Required in every protocol version: without them this is not an Agent Card.
  const missing = [
    !text(memberOf<v1.AgentCard>(card, "name")) && { path: "name", message: "required (a non-empty string)" },
    typeof memberOf<v1.AgentCard>(card, "description") !== "string" && { path: "description", message: "required (a string)" },
    !Array.isArray(memberOf<v1.AgentCard>(card, "skills")) && { path: "skills", message: "required (an array)" },
  ].filter((issue): issue is { path: string; message: string } => !!issue);
  if (missing.length > 0) return { ok: false, issues: missing };
  const parsed = parseCardSource(documentFrom(card));
  if (!parsed.ok) return parsed;
  const advertisedOrigins = originsOf(interfaceUrls(card));
  return { ok: true, value: { source: parsed.value, protocolVersions: jsonRpcVersions(card), advertisedOrigins } };
}

/** The card's members in the document's form, still unchecked (parseCardSource checks them). */
function documentFrom(card: JsonObject): JsonObject {
  const provider = jsonObject(memberOf<v1.AgentCard>(card, "provider"));
  const schemes = jsonObject(memberOf<v1.AgentCard>(card, "securitySchemes"));
  return presentFields({
    name: text(memberOf<v1.AgentCard>(card, "name")),
    description: text(memberOf<v1.AgentCard>(card, "description")),
    version: text(memberOf<v1.AgentCard>(card, "version")),
    provider:
      provider &&
      presentFields({
        organization: text(memberOf<v1.AgentProvider>(provider, "organization")),
        url: text(memberOf<v1.AgentProvider>(provider, "url")),
      }),
    documentationUrl: text(memberOf<v1.AgentCard>(card, "documentationUrl")),
    iconUrl: text(memberOf<v1.AgentCard>(card, "iconUrl")),
    capabilities: capabilitiesFrom(card),
    defaultInputModes: list(memberOf<v1.AgentCard>(card, "defaultInputModes")),
    defaultOutputModes: list(memberOf<v1.AgentCard>(card, "defaultOutputModes")),
    securitySchemes: schemes && Object.fromEntries(Object.entries(schemes).map(([name, scheme]) => [name, securitySchemeFromV1(scheme)])),
    security: securityRequirementsV03(memberOf<v1.AgentCard>(card, "securityRequirements"), memberOf<v03.AgentCard>(card, "security")),
    skills: (list(memberOf<v1.AgentCard>(card, "skills")) ?? []).map(skillFrom),
  });
}

/** 1.0 `capabilities.extendedAgentCard`, else 0.3 `supportsAuthenticatedExtendedCard`. */
function capabilitiesFrom(card: JsonObject): JsonObject {
  const capabilities = jsonObject(memberOf<v1.AgentCard>(card, "capabilities")) ?? {};
  const extension = (e: unknown) =>
    presentFields({
      uri: text(memberOf<v1.AgentExtension>(e, "uri")),
      description: text(memberOf<v1.AgentExtension>(e, "description")),
      required: flag(memberOf<v1.AgentExtension>(e, "required")),
      params: jsonObject(memberOf<v1.AgentExtension>(e, "params")),
    });
  return presentFields({
    streaming: flag(memberOf<v1.AgentCapabilities>(capabilities, "streaming")),
    pushNotifications: flag(memberOf<v1.AgentCapabilities>(capabilities, "pushNotifications")),
    stateTransitionHistory: flag(memberOf<v03.AgentCapabilities>(capabilities, "stateTransitionHistory")),
    extendedAgentCard:
      flag(memberOf<v1.AgentCapabilities>(capabilities, "extendedAgentCard")) ??
      flag(memberOf<v03.AgentCard>(card, "supportsAuthenticatedExtendedCard")),
    extensions: list(memberOf<v1.AgentCapabilities>(capabilities, "extensions"))?.map(extension),
  });
}

function skillFrom(value: unknown): JsonObject {
  const skill = jsonObject(value) ?? {};
  return presentFields({
    id: text(memberOf<v1.AgentSkill>(skill, "id")),
    name: text(memberOf<v1.AgentSkill>(skill, "name")) ?? text(memberOf<v1.AgentSkill>(skill, "id")) ?? "skill",
    description: text(memberOf<v1.AgentSkill>(skill, "description")),
    tags: list(memberOf<v1.AgentSkill>(skill, "tags")),
    examples: list(memberOf<v1.AgentSkill>(skill, "examples")),
    inputModes: list(memberOf<v1.AgentSkill>(skill, "inputModes")),
    outputModes: list(memberOf<v1.AgentSkill>(skill, "outputModes")),
    security: securityRequirementsV03(memberOf<v1.AgentSkill>(skill, "securityRequirements"), memberOf<v03.AgentSkill>(skill, "security")),
  });
}

/** `Major.Minor` of the card's JSON-RPC interfaces, deduplicated, preferred first; a card without any is 0.3. */
function jsonRpcVersions(card: JsonObject): string[] {
  const versions = (list(memberOf<v1.AgentCard>(card, "supportedInterfaces")) ?? []).flatMap((i) => {
    const version = memberOf<v1.AgentInterface>(i, "protocolVersion");
    const isJsonRpc = memberOf<v1.AgentInterface>(i, "protocolBinding") === v1.JSONRPC_BINDING;
    return isJsonRpc && typeof version === "string" && /^\d+\.\d+$/.test(version) ? [version] : [];
  });
  return versions.length > 0 ? [...new Set(versions)] : ["0.3"];
}
