// Worker configuration: one zod schema over the env (vars and secrets), parsed
// once per isolate. Values arrive as strings (or JSON values from wrangler
// `[vars]`); an empty string means "unset". Errors name the variable, never
// echo its value (it may be a secret).
import * as z from "zod/mini";
import { normalizeHost } from "./http/request-target";
import { formatIssues } from "./validation";
import type { ParseResult } from "./card/source";
import { parsePrivateJwk, parsePublicJwks, type PrivateSigningJwk, type PublicJwk } from "./sign/keys";

export type CardCompat = "hybrid" | "strict";
/** Where the card data comes from: the card-source documents (bundled/KV) or the origin's own card. */
export type CardSourceMode = "document" | "origin";

/** Turns a raw env value into T, or throws ConfigValueError with a readable reason. */
class ConfigValueError extends Error {}

function envVar<T>(parse: (raw: string) => T, fallback: T) {
  return z.pipe(
    z.unknown(),
    z.transform((raw, ctx): T => {
      if (raw === undefined || raw === null || raw === "") return fallback;
      const text = typeof raw === "string" ? raw.trim() : JSON.stringify(raw);
      if (text === "") return fallback;
      try {
        return parse(text);
      } catch (error) {
        ctx.issues.push({ code: "custom", input: "(redacted)", message: (error as Error).message });
        return z.NEVER;
      }
    }),
  );
}

function parseFlag(raw: string): boolean {
  const value = raw.toLowerCase();
  if (["true", "1", "yes", "on"].includes(value)) return true;
  if (["false", "0", "no", "off"].includes(value)) return false;
  throw new ConfigValueError("expected true or false");
}

function integer(min: number, max: number) {
  return (raw: string): number => {
    if (!/^\d+$/.test(raw)) throw new ConfigValueError(`expected a whole number between ${min} and ${max}`);
    const value = Number(raw);
    if (value < min || value > max) throw new ConfigValueError(`expected a whole number between ${min} and ${max}`);
    return value;
  };
}

function oneOf<const T extends string>(...values: T[]) {
  return (raw: string): T => {
    const value = raw.toLowerCase() as T;
    if (!values.includes(value)) throw new ConfigValueError(`expected one of ${values.join(", ")}`);
    return value;
  };
}

/** Absolute http(s) URL without query or fragment; trailing slashes removed. */
function httpUrl(raw: string, example: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigValueError(`expected an absolute http(s) URL such as ${example}`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new ConfigValueError("expected an http or https URL");
  return url;
}

export function parseBaseUrl(raw: string): string {
  const url = httpUrl(raw, "https://agents.example.com");
  if (url.search || url.hash || url.username || url.password) {
    throw new ConfigValueError("expected a URL without credentials, query or fragment");
  }
  return (`${url.protocol}//${normalizeHost(url.host)}${url.pathname}`).replace(/\/+$/, "");
}

const PATH_SEGMENT = /^[A-Za-z0-9._~!$&'()*+,;=:@%-]+$/;

/** An absolute URL path such as `/` or `/a2a/v1` (no trailing slash, no query). */
export function parsePath(raw: string): string {
  if (!raw.startsWith("/")) throw new ConfigValueError("expected a path starting with /");
  const segments = raw.split("/").filter((s) => s !== "");
  if (segments.some((s) => !PATH_SEGMENT.test(s) || s === "." || s === "..")) {
    throw new ConfigValueError("expected a plain URL path (letters, digits, - . _ ~ and percent-escapes)");
  }
  return `/${segments.join("/")}`;
}

/** A list given as a JSON array (wrangler vars) or as comma-separated text. */
function parseList(raw: string): string[] {
  let items: unknown;
  if (raw.startsWith("[")) {
    try {
      items = JSON.parse(raw);
    } catch {
      throw new ConfigValueError("expected a JSON array of strings or a comma-separated list");
    }
    if (!Array.isArray(items) || items.some((item) => typeof item !== "string")) {
      throw new ConfigValueError("expected a JSON array of strings");
    }
  } else {
    items = raw.split(",");
  }
  return [...new Set((items as string[]).map((item) => item.trim()).filter((item) => item !== ""))];
}

/** The origin's JSON-RPC endpoint: absolute http(s) URL, no credentials or fragment (a query is kept). */
export function parseOriginUrl(raw: string): string {
  const url = httpUrl(raw, "http://10.0.0.5:8080/");
  if (url.hash || url.username || url.password) throw new ConfigValueError("expected a URL without credentials or fragment (put credentials in ORIGIN_HEADERS)");
  return url.href;
}

// RFC 9110 §5.1 token; values must not break the header block (CR, LF, NUL).
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const HEADER_VALUE = /^[^\r\n\0]*$/;

function parseHeaderMap(raw: string): Record<string, string> {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new ConfigValueError('expected a JSON object of header names to values, e.g. {"Authorization":"Bearer ..."}');
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ConfigValueError("expected a JSON object of header names to string values");
  }
  const headers: Record<string, string> = {};
  for (const [name, v] of Object.entries(value)) {
    // A secret: name the entry by position, never by its (possibly pasted-wrong) text.
    const entry = Object.keys(value).indexOf(name) + 1;
    if (!HEADER_NAME.test(name)) throw new ConfigValueError(`entry ${entry} has an invalid header name`);
    if (typeof v !== "string" || !HEADER_VALUE.test(v)) throw new ConfigValueError(`entry ${entry} must have a string value without line breaks`);
    headers[name.toLowerCase()] = v;
  }
  return headers;
}

/** Region key (Cloudflare colo, e.g. FRA, or continent, e.g. EU) -> origin URLs, preferred first. */
export type OriginRegions = Record<string, string[]>;

function parseOriginRegions(raw: string): OriginRegions {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new ConfigValueError('expected a JSON object such as {"EU":["https://eu.internal/"],"FRA":"https://fra.internal/"}');
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new ConfigValueError("expected a JSON object of region to URL(s)");
  const regions: OriginRegions = {};
  for (const [key, urls] of Object.entries(value)) {
    // request.cf.continent is two letters (EU, NA, ...), request.cf.colo an IATA code (FRA, SJC, ...).
    const entry = Object.keys(value).indexOf(key) + 1;
    if (!/^[A-Z]{2,3}$/.test(key)) throw new ConfigValueError(`entry ${entry}: the key must be a continent (EU) or colo (FRA) code`);
    const list = typeof urls === "string" ? [urls] : urls;
    if (!Array.isArray(list) || list.length === 0 || list.some((u) => typeof u !== "string")) {
      throw new ConfigValueError(`entry ${entry} must map to a URL or a non-empty list of URLs`);
    }
    regions[key] = list.map((u) => {
      try {
        return parseOriginUrl(u);
      } catch (error) {
        throw new ConfigValueError(`entry ${entry}: ${(error as Error).message}`);
      }
    });
  }
  return regions;
}

function parseCorsOrigins(raw: string): "*" | string[] {
  if (raw === "*") return "*";
  return parseList(raw).map((origin, index) => {
    try {
      const url = new URL(origin);
      if (url.origin !== origin.replace(/\/$/, "")) throw new Error();
      return url.origin;
    } catch {
      throw new ConfigValueError(`entry ${index + 1} is not an origin such as https://app.example.com`);
    }
  });
}

function jsonValue(raw: string, expected: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    throw new ConfigValueError(`expected ${expected} (JSON)`);
  }
}

function parseSigningKey(raw: string): PrivateSigningJwk {
  try {
    return parsePrivateJwk(jsonValue(raw, "a private JWK"));
  } catch (error) {
    throw new ConfigValueError((error as Error).message);
  }
}

function parseExtraPublicKeys(raw: string): PublicJwk[] {
  try {
    return parsePublicJwks(jsonValue(raw, "a JSON array of public JWKs"));
  } catch (error) {
    throw new ConfigValueError((error as Error).message);
  }
}

function parseProtocolVersions(raw: string): string[] {
  const versions = parseList(raw);
  // A2A 1.0 §3.6: versions are Major.Minor; a patch part must not be used.
  if (versions.length === 0 || versions.some((v) => !/^\d+\.\d+$/.test(v))) {
    throw new ConfigValueError('expected Major.Minor versions, preferred first, e.g. "1.0,0.3"');
  }
  return versions;
}

const ConfigSchema = z.object({
  PUBLIC_BASE_URL: envVar<string | undefined>(parseBaseUrl, undefined),
  TRUST_FORWARDED_HEADERS: envVar(parseFlag, false),
  CARD_COMPAT: envVar<CardCompat>(oneOf("hybrid", "strict"), "hybrid"),
  RPC_PATH: envVar(parsePath, "/"),
  PROTOCOL_VERSIONS: envVar(parseProtocolVersions, ["1.0", "0.3"]),
  SKILL_ALLOWLIST: envVar<string[] | undefined>(parseList, undefined),
  CARD_MAX_AGE: envVar(integer(0, 31_536_000), 300),
  CARD_STALE_WHILE_REVALIDATE: envVar(integer(0, 31_536_000), 600),
  // The isolate's copy lives this long; KV's edge cacheTtl is at least 30 s (Cloudflare's minimum).
  KV_CACHE_TTL: envVar(integer(0, 86_400), 60),
  ORIGIN_URL: envVar<string | undefined>(parseOriginUrl, undefined),
  ORIGIN_HEADERS: envVar<Record<string, string>>(parseHeaderMap, {}),
  ORIGIN_REGIONS: envVar<OriginRegions>(parseOriginRegions, {}),
  ORIGIN_TIMEOUT_MS: envVar(integer(100, 300_000), 30_000),
  MAX_BODY_BYTES: envVar(integer(1, 100 * 1024 * 1024), 1024 * 1024),
  BODY_TIMEOUT_MS: envVar(integer(100, 300_000), 10_000),
  METHOD_ALLOWLIST: envVar<string[] | undefined>(parseList, undefined),
  CORS_ALLOWED_ORIGINS: envVar<"*" | string[]>(parseCorsOrigins, "*"),
  CARD_SOURCE: envVar<CardSourceMode>(oneOf("document", "origin"), "document"),
  ORIGIN_CARD_URL: envVar<string | undefined>(parseOriginUrl, undefined),
  ORIGIN_CARD_TTL: envVar(integer(1, 86_400), 60),
  ADMIN_TOKEN: envVar<string | undefined>((raw) => {
    if (raw.length < 16) throw new ConfigValueError("must be at least 16 characters (use a random token)");
    return raw;
  }, undefined),
  ADMIN_PATH: envVar(parsePath, "/_admin"),
  HOST_ALLOWLIST: envVar<string[] | undefined>((raw) => parseList(raw).map(normalizeHost), undefined),
  REGISTRY_WEBHOOKS: envVar<string[]>((raw) => parseList(raw).map(parseOriginUrl), []),
  DOCUMENT_ORIGINS: envVar<string[]>((raw) => parseList(raw).map((u) => new URL(parseOriginUrl(u)).origin), []),
  CARD_SIGNING_KEY: envVar<PrivateSigningJwk | undefined>(parseSigningKey, undefined),
  CARD_SIGNING_PUBLIC_KEYS: envVar<PublicJwk[]>(parseExtraPublicKeys, []),
});

export const CONFIG_VARIABLES = Object.keys(ConfigSchema.shape);

export interface Config {
  publicBaseUrl: string | undefined;
  trustForwardedHeaders: boolean;
  cardCompat: CardCompat;
  rpcPath: string;
  protocolVersions: string[];
  skillAllowlist: string[] | undefined;
  cardMaxAge: number;
  cardStaleWhileRevalidate: number;
  kvCacheTtl: number;
  originUrl: string | undefined;
  /** Lower-case header names; a secret (never logged or echoed). */
  originHeaders: Record<string, string>;
  originRegions: OriginRegions;
  originTimeoutMs: number;
  maxBodyBytes: number;
  /** Time allowed for a whole request body to arrive. */
  bodyTimeoutMs: number;
  methodAllowlist: ReadonlySet<string> | undefined;
  corsAllowedOrigins: "*" | string[];
  cardSource: CardSourceMode;
  /** The origin's own card (passthrough mode); defaults to ORIGIN_URL's host + /.well-known/agent-card.json. */
  originCardUrl: string | undefined;
  originCardTtl: number;
  /** A secret: never logged or echoed. Unset = no admin API. */
  adminToken: string | undefined;
  adminPath: string;
  /** Hostnames this worker answers for; unset = any. */
  hostAllowlist: ReadonlySet<string> | undefined;
  registryWebhooks: string[];
  /** Origins a card-source document may name as its `originUrl` (multi-agent mode). */
  documentOrigins: ReadonlySet<string>;
  /** A secret: never logged or echoed. */
  signingKey: PrivateSigningJwk | undefined;
  extraPublicKeys: PublicJwk[];
}

/** Parses the worker's env. Never throws: bad values come back as issues keyed by variable name. */
export function parseConfig(env: Readonly<Record<string, unknown>>): ParseResult<Config> {
  // Every variable present (even undefined) so each one's default runs.
  const source: Readonly<Record<string, unknown>> = typeof env === "object" && env !== null ? env : {};
  const result = ConfigSchema.safeParse(Object.fromEntries(CONFIG_VARIABLES.map((name) => [name, source[name]])));
  if (!result.success) return { ok: false, issues: formatIssues(result.error.issues) };
  const v = result.data;
  if (v.ADMIN_PATH === "/" || v.ADMIN_PATH === v.RPC_PATH || v.ADMIN_PATH === "/.well-known" || v.ADMIN_PATH.startsWith("/.well-known/")) {
    return { ok: false, issues: [{ path: "ADMIN_PATH", message: "must be its own path, apart from RPC_PATH and /.well-known/" }] };
  }
  if (v.RPC_PATH === "/.well-known" || v.RPC_PATH.startsWith("/.well-known/")) {
    return { ok: false, issues: [{ path: "RPC_PATH", message: "must not be under /.well-known/ (the card paths live there)" }] };
  }
  // A signature vouches for the URLs in the card: sign only for hosts the operator named, never for any Host header.
  if (v.CARD_SIGNING_KEY && !v.PUBLIC_BASE_URL && !(v.HOST_ALLOWLIST && v.HOST_ALLOWLIST.length > 0)) {
    return { ok: false, issues: [{ path: "CARD_SIGNING_KEY", message: "needs HOST_ALLOWLIST or PUBLIC_BASE_URL (cards are signed only for hosts you name)" }] };
  }
  if (v.CARD_SOURCE === "origin" && !v.ORIGIN_URL && !v.ORIGIN_CARD_URL) {
    return { ok: false, issues: [{ path: "CARD_SOURCE", message: "origin needs ORIGIN_URL or ORIGIN_CARD_URL" }] };
  }
  return {
    ok: true,
    value: {
      publicBaseUrl: v.PUBLIC_BASE_URL,
      trustForwardedHeaders: v.TRUST_FORWARDED_HEADERS,
      cardCompat: v.CARD_COMPAT,
      rpcPath: v.RPC_PATH,
      protocolVersions: v.PROTOCOL_VERSIONS,
      skillAllowlist: v.SKILL_ALLOWLIST,
      cardMaxAge: v.CARD_MAX_AGE,
      cardStaleWhileRevalidate: v.CARD_STALE_WHILE_REVALIDATE,
      kvCacheTtl: v.KV_CACHE_TTL,
      originUrl: v.ORIGIN_URL,
      originHeaders: v.ORIGIN_HEADERS,
      originRegions: v.ORIGIN_REGIONS,
      originTimeoutMs: v.ORIGIN_TIMEOUT_MS,
      maxBodyBytes: v.MAX_BODY_BYTES,
      bodyTimeoutMs: v.BODY_TIMEOUT_MS,
      methodAllowlist: v.METHOD_ALLOWLIST && v.METHOD_ALLOWLIST.length > 0 ? new Set(v.METHOD_ALLOWLIST) : undefined,
      corsAllowedOrigins: v.CORS_ALLOWED_ORIGINS,
      cardSource: v.CARD_SOURCE,
      originCardUrl: v.ORIGIN_CARD_URL ?? (v.ORIGIN_URL ? new URL("/.well-known/agent-card.json", v.ORIGIN_URL).href : undefined),
      originCardTtl: v.ORIGIN_CARD_TTL,
      adminToken: v.ADMIN_TOKEN,
      adminPath: v.ADMIN_PATH,
      hostAllowlist: v.HOST_ALLOWLIST && v.HOST_ALLOWLIST.length > 0 ? new Set(v.HOST_ALLOWLIST) : undefined,
      registryWebhooks: v.REGISTRY_WEBHOOKS,
      documentOrigins: new Set(v.DOCUMENT_ORIGINS),
      signingKey: v.CARD_SIGNING_KEY,
      extraPublicKeys: v.CARD_SIGNING_PUBLIC_KEYS,
    },
  };
}

