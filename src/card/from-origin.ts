// Cards that come from the origin agent (its own card in passthrough mode, its
// extended card through the proxy) carry its private address. Pure functions
// that make them public: interface URLs become the public RPC URL, any other
// mention of a private origin becomes the public base, and origin signatures
// (which covered the private URLs) are dropped.
import type { JsonObject } from "./render";
import { parseCardSource, type CardSourceInput, type ParseResult, type CardSource } from "./source";

const BINDING = "JSONRPC";

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

function interfaceUrls(card: JsonObject): string[] {
  const list = (value: unknown) => (Array.isArray(value) ? value : []);
  return [card.url, ...list(card.supportedInterfaces).map((i) => i?.url), ...list(card.additionalInterfaces).map((i) => i?.url)].filter(
    (u): u is string => typeof u === "string",
  );
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

/**
 * The card as the public should see it. Only JSON-RPC interfaces survive (the
 * edge fronts JSON-RPC only), each at `publicRpcUrl`.
 */
export function publicizeCard(card: JsonObject, knownPrivateOrigins: readonly string[], publicBase: string, publicRpcUrl: string): JsonObject {
  const privateOrigins = [...new Set([...knownPrivateOrigins, ...originsOf(interfaceUrls(card))])].filter((o) => !publicBase.startsWith(o));
  const { signatures: _signatures, ...unsigned } = card;
  const out = replaceOrigins(unsigned, privateOrigins, publicBase) as JsonObject;
  if (Array.isArray(card.supportedInterfaces)) {
    out.supportedInterfaces = card.supportedInterfaces
      .filter((i) => i && typeof i === "object" && i.protocolBinding === BINDING)
      .map((i) => ({ ...(replaceOrigins(i, privateOrigins, publicBase) as JsonObject), url: publicRpcUrl }));
  }
  if ("url" in card) {
    out.url = publicRpcUrl;
    out.preferredTransport = BINDING;
  }
  if (Array.isArray(card.additionalInterfaces)) {
    out.additionalInterfaces = [{ url: publicRpcUrl, transport: BINDING }];
  }
  return out;
}

// ---- origin card -> card-source document (passthrough mode) ----

const obj = (v: unknown): JsonObject | undefined => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as JsonObject) : undefined);
const arr = (v: unknown): unknown[] | undefined => (Array.isArray(v) && v.length > 0 ? v : undefined);
const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);
const bool = (v: unknown): boolean | undefined => (typeof v === "boolean" ? v : undefined);

function compact<T extends JsonObject>(fields: T): T {
  for (const key of Object.keys(fields)) if (fields[key] === undefined) delete fields[key];
  return fields;
}

/** 1.0 `{schemes: {n: {list}}}` or 0.3 `{n: [scopes]}` -> `{n: [scopes]}`. */
function requirementsFrom(v1: unknown, v03: unknown): Record<string, string[]>[] | undefined {
  const fromV1 = arr(v1)?.map((r) =>
    Object.fromEntries(Object.entries(obj(obj(r)?.schemes) ?? {}).map(([name, list]) => [name, (arr(obj(list)?.list) ?? []) as string[]])),
  );
  return fromV1 ?? (arr(v03) as Record<string, string[]>[] | undefined);
}

const WRAPPERS: Record<string, string> = {
  apiKeySecurityScheme: "apiKey",
  httpAuthSecurityScheme: "http",
  oauth2SecurityScheme: "oauth2",
  openIdConnectSecurityScheme: "openIdConnect",
  mtlsSecurityScheme: "mutualTLS",
};

/** 1.0 wrapper form or 0.3 `type` form -> the source's `type` form. */
function schemeFrom(value: unknown): unknown {
  const scheme = obj(value);
  if (!scheme || typeof scheme.type === "string") return scheme;
  const [wrapper, inner] = Object.entries(scheme)[0] ?? [];
  const type = wrapper && WRAPPERS[wrapper];
  if (!type) return scheme;
  const { location, ...rest } = obj(inner) ?? {};
  return compact({ type, ...rest, ...(type === "apiKey" ? { in: location } : {}) });
}

export interface OriginCardSource {
  source: CardSource;
  /** `Major.Minor` of the origin's JSON-RPC interfaces, preferred first. */
  protocolVersions: string[];
  /** Origins the origin's card advertised for itself: private, never published. */
  advertisedOrigins: string[];
}

/** Reads a 1.0, 0.3 or hybrid card into a card-source document, validated by the same schema. */
export function sourceFromCard(value: unknown): ParseResult<OriginCardSource> {
  const card = obj(value);
  if (!card) return { ok: false, issues: [{ path: "", message: "the origin card is not a JSON object" }] };
  // Required in every protocol version: without them this is not an Agent Card.
  const missing = [
    !str(card.name) && { path: "name", message: "required (a non-empty string)" },
    typeof card.description !== "string" && { path: "description", message: "required (a string)" },
    !Array.isArray(card.skills) && { path: "skills", message: "required (an array)" },
  ].filter((issue): issue is { path: string; message: string } => !!issue);
  if (missing.length > 0) return { ok: false, issues: missing };
  const capabilities = obj(card.capabilities) ?? {};
  const doc: CardSourceInput = compact({
    name: str(card.name),
    description: str(card.description),
    version: str(card.version),
    provider: obj(card.provider) && compact({ organization: str(obj(card.provider)!.organization), url: str(obj(card.provider)!.url) }) as never,
    documentationUrl: str(card.documentationUrl),
    iconUrl: str(card.iconUrl),
    capabilities: compact({
      streaming: bool(capabilities.streaming),
      pushNotifications: bool(capabilities.pushNotifications),
      stateTransitionHistory: bool(capabilities.stateTransitionHistory),
      extendedAgentCard: bool(capabilities.extendedAgentCard) ?? bool(card.supportsAuthenticatedExtendedCard),
      extensions: arr(capabilities.extensions)?.map((e) =>
        compact({ uri: str(obj(e)?.uri), description: str(obj(e)?.description), required: bool(obj(e)?.required), params: obj(obj(e)?.params) }),
      ) as never,
    }),
    defaultInputModes: arr(card.defaultInputModes) as string[] | undefined,
    defaultOutputModes: arr(card.defaultOutputModes) as string[] | undefined,
    securitySchemes: obj(card.securitySchemes)
      ? (Object.fromEntries(Object.entries(obj(card.securitySchemes)!).map(([n, s]) => [n, schemeFrom(s)])) as never)
      : undefined,
    security: requirementsFrom(card.securityRequirements, card.security),
    skills: (arr(card.skills) ?? []).map((raw) => {
      const skill = obj(raw) ?? {};
      return compact({
        id: str(skill.id),
        name: str(skill.name) ?? str(skill.id) ?? "skill",
        description: str(skill.description),
        tags: arr(skill.tags) as string[] | undefined,
        examples: arr(skill.examples) as string[] | undefined,
        inputModes: arr(skill.inputModes) as string[] | undefined,
        outputModes: arr(skill.outputModes) as string[] | undefined,
        security: requirementsFrom(skill.securityRequirements, skill.security),
      });
    }) as never,
  });
  const parsed = parseCardSource(doc);
  if (!parsed.ok) return parsed;
  const versions = (arr(card.supportedInterfaces) ?? [])
    .map(obj)
    .filter((i) => i?.protocolBinding === BINDING && typeof i.protocolVersion === "string" && /^\d+\.\d+$/.test(i.protocolVersion))
    .map((i) => i!.protocolVersion as string);
  const protocolVersions = versions.length > 0 ? [...new Set(versions)] : ["0.3"];
  return { ok: true, value: { source: parsed.value, protocolVersions, advertisedOrigins: originsOf(interfaceUrls(card)) } };
}
