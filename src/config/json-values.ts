// Values given as JSON whose rules zod cannot state without breaking ours:
// each is a hand-written parser (why, in a comment on each) behind `json()`.
import * as z from "zod/mini";
import { readJsonText } from "../json";
import { parsePrivateJwk, parsePublicJwks } from "../sign/keys";
import { reject } from "./declare";
import { originUrl } from "./values";

/**
 * JSON text, then a hand-written parser that throws an Error whose message
 * names an entry by position and never repeats any part of the value.
 */
function json<T>(expected: string, parse: (value: unknown) => T) {
  return z.transform((text: string, ctx): T => {
    const json = readJsonText(text);
    // A key named twice: which value holds would be the parser's choice, not the operator's.
    if ("error" in json) return reject(ctx, json.duplicate ? `expected ${expected}: ${json.error}` : `expected ${expected}`);
    try {
      return parse(json.value);
    } catch (error) {
      return reject(ctx, error instanceof Error ? error.message : `expected ${expected}`);
    }
  });
}

function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

// RFC 9110 §5.1 token; values must not break the header block (CR, LF, NUL).
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const HEADER_VALUE = /^[^\r\n\0]*$/;

// Hand-written: zod's record issues carry the key, and a key here may be a
// pasted credential ("Authorization: Bearer ..."): entries are named by position.
function parseHeaderMap(value: unknown): Record<string, string> {
  if (!isJsonObject(value)) throw new Error("expected a JSON object of header names to string values");
  const headers: Record<string, string> = {};
  Object.entries(value).forEach(([name, headerValue], index) => {
    if (!HEADER_NAME.test(name)) throw new Error(`entry ${index + 1} has an invalid header name`);
    if (typeof headerValue !== "string" || !HEADER_VALUE.test(headerValue)) {
      throw new Error(`entry ${index + 1} must have a string value without line breaks`);
    }
    headers[name.toLowerCase()] = headerValue;
  });
  return headers;
}

/** Lower-case header names to values; a secret (never logged or echoed). */
export const headerMap = json('a JSON object of header names to values, e.g. {"Authorization":"Bearer ..."}', parseHeaderMap);

const CREDENTIAL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

// Hand-written for the same reason: names are a document's references, values header maps (secrets).
function parseCredentialSets(value: unknown): Record<string, Record<string, string>> {
  if (!isJsonObject(value)) throw new Error("expected a JSON object of names to header objects");
  const sets: Record<string, Record<string, string>> = {};
  Object.entries(value).forEach(([name, headers], index) => {
    if (!CREDENTIAL_NAME.test(name)) throw new Error(`entry ${index + 1} needs a name of letters, digits, - and _ (at most 64)`);
    try {
      sets[name] = parseHeaderMap(headers);
    } catch (error) {
      throw new Error(`entry ${index + 1}: ${(error as Error).message}`);
    }
  });
  return sets;
}

/** ORIGIN_CREDENTIALS: name -> the headers of the origin of each document that names it (a secret). */
export const credentialSets = json(
  'a JSON object of names to header objects, e.g. {"travel":{"Authorization":"Bearer ..."}}',
  parseCredentialSets,
);

/** The variables an AUTH_PROFILES entry may set: an agent's own verifiers (runtime.ts parses each as the variable itself). */
const PROFILE_VARIABLES = [
  "AUTH_JWT_ISSUER",
  "AUTH_JWT_AUDIENCE",
  "AUTH_JWT_JWKS_URL",
  "AUTH_JWT_ALGORITHMS",
  "AUTH_JWT_HEADER",
  "AUTH_API_KEYS",
  "AUTH_MTLS_FINGERPRINTS",
] as const;

// Hand-written: entries are named by position (a value may be an API key hash list), keys are variable names.
function parseAuthProfiles(value: unknown): Record<string, Record<string, string>> {
  if (!isJsonObject(value)) throw new Error("expected a JSON object of names to objects of AUTH_* variables");
  const profiles: Record<string, Record<string, string>> = {};
  Object.entries(value).forEach(([name, variables], index) => {
    if (!CREDENTIAL_NAME.test(name)) throw new Error(`entry ${index + 1} needs a name of letters, digits, - and _ (at most 64)`);
    if (!isJsonObject(variables)) throw new Error(`entry ${index + 1} must be an object of AUTH_* variables`);
    const profile: Record<string, string> = {};
    for (const [variable, setting] of Object.entries(variables)) {
      if (!(PROFILE_VARIABLES as readonly string[]).includes(variable)) {
        throw new Error(`entry ${index + 1} may set only ${PROFILE_VARIABLES.join(", ")}`);
      }
      // A JSON-valued variable (AUTH_API_KEYS) may be given as JSON itself.
      profile[variable] = typeof setting === "string" ? setting : JSON.stringify(setting);
    }
    profiles[name] = profile;
  });
  return profiles;
}

/** AUTH_PROFILES: name -> the verifier variables of each agent whose document names it (a secret). */
export const authProfiles = json(
  'a JSON object of names to AUTH_* variables, e.g. {"travel":{"AUTH_JWT_ISSUER":"https://...","AUTH_JWT_AUDIENCE":"travel"}}',
  parseAuthProfiles,
);

/** Region key (Cloudflare colo, e.g. FRA, or continent, e.g. EU) -> origin URLs, preferred first. */
type OriginRegions = Record<string, string[]>;

// Hand-written: a key maps to one URL or to a list, and an issue names the
// entry by position (zod's record issues carry the key); each URL is an originUrl.
function parseOriginRegions(value: unknown): OriginRegions {
  if (!isJsonObject(value)) throw new Error("expected a JSON object of region to URL(s)");
  const regions: OriginRegions = {};
  Object.entries(value).forEach(([region, urls], index) => {
    const entry = `entry ${index + 1}`;
    // request.cf.continent is two letters (EU, NA, ...), request.cf.colo an IATA code (FRA, SJC, ...).
    if (!/^[A-Z]{2,3}$/.test(region)) throw new Error(`${entry}: the key must be a continent (EU) or colo (FRA) code`);
    const list: unknown = typeof urls === "string" ? [urls] : urls;
    if (!Array.isArray(list) || list.length === 0 || !list.every((url) => typeof url === "string")) {
      throw new Error(`${entry} must map to a URL or a non-empty list of URLs`);
    }
    regions[region] = list.map((url: string) => {
      const parsed = originUrl.safeParse(url);
      if (!parsed.success) throw new Error(`${entry}: ${parsed.error.issues[0]?.message ?? "expected an http(s) URL"}`);
      return parsed.data;
    });
  });
  return regions;
}

export const originRegions = json(
  'a JSON object such as {"EU":["https://eu.internal/"],"FRA":"https://fra.internal/"}',
  parseOriginRegions,
);

// Hand-written (src/sign/keys.ts): a JWK's members depend on its kty and crv,
// and its errors must never carry key material.
export const signingKey = json("a private JWK (JSON)", parsePrivateJwk);
export const extraPublicKeys = json("a JSON array of public JWKs (JSON)", parsePublicJwks);

/** Caller name -> SHA-256 of its key (32 bytes). */
export type ApiKeyHashes = ReadonlyMap<string, Uint8Array>;

const KEY_HASH = /^sha256:([0-9a-fA-F]{64})$/;

// Hand-written: a secret; entries are named by position, and each hash decoded once.
function parseApiKeys(value: unknown): ApiKeyHashes {
  if (!isJsonObject(value)) throw new Error('expected a JSON object of caller names to "sha256:<hex>" key hashes');
  const keys = new Map<string, Uint8Array>();
  Object.entries(value).forEach(([name, hash], index) => {
    const hex = typeof hash === "string" ? KEY_HASH.exec(hash)?.[1] : undefined;
    if (!/^[A-Za-z0-9._@-]{1,64}$/.test(name) || hex === undefined) {
      throw new Error(`entry ${index + 1} must map a caller name (letters, digits, . _ @ -) to "sha256:<64 hex digits>"`);
    }
    keys.set(
      name,
      Uint8Array.from(hex.match(/../g) ?? [], (byte) => Number.parseInt(byte, 16)),
    );
  });
  if (keys.size === 0) throw new Error("expected at least one caller");
  return keys;
}

/** AUTH_API_KEYS: `{ "<caller name>": "sha256:<hex of the key>" }`; a secret. */
export const apiKeyHashes = json('a JSON object such as {"partner-a":"sha256:<64 hex digits>"}', parseApiKeys);
