// Worker configuration: one zod schema over the env (vars and secrets), parsed
// once per isolate. Values arrive as strings (or JSON values from wrangler
// `[vars]`); an empty string means "unset". Errors name the variable, never
// echo its value (it may be a secret).
import * as z from "zod/mini";
import { formatIssues, type Issue } from "./validation";
import type { ParseResult } from "./card/source";

export type CardCompat = "hybrid" | "strict";

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
export function parseBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigValueError("expected an absolute http(s) URL such as https://agents.example.com");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new ConfigValueError("expected an http or https URL");
  if (url.search || url.hash || url.username || url.password) {
    throw new ConfigValueError("expected a URL without credentials, query or fragment");
  }
  return (url.origin + url.pathname).replace(/\/+$/, "");
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
  // Cloudflare KV rejects a cacheTtl below 30 seconds.
  KV_CACHE_TTL: envVar(integer(30, 86_400), 60),
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
}

/** Parses the worker's env. Never throws: bad values come back as issues keyed by variable name. */
export function parseConfig(env: Readonly<Record<string, unknown>>): ParseResult<Config> {
  // Every variable present (even undefined) so each one's default runs.
  const source: Readonly<Record<string, unknown>> = typeof env === "object" && env !== null ? env : {};
  const result = ConfigSchema.safeParse(Object.fromEntries(CONFIG_VARIABLES.map((name) => [name, source[name]])));
  if (!result.success) return { ok: false, issues: formatIssues(result.error.issues) };
  const v = result.data;
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
    },
  };
}

