// What the lenient card reader shares between its parts: the list of repairs
// and refusals it collects, and the readers of one member of any card.
import { type JsonObject, jsonObject } from "../json";
import type { Issue } from "../validation";
import { mediaTypeOf, type Repair, type RepairRule } from "./repairs";
import { urlProblem, WEB_SCHEMES } from "./url-schemes";

export class Reading {
  readonly repairs: Repair[] = [];
  /** What makes the input unpublishable (a security member the edge cannot read, a card without a name). */
  readonly issues: Issue[] = [];

  repair(rule: RepairRule, path: string, message: string): void {
    this.repairs.push({ rule, path, message });
  }

  refuse(path: string, message: string): void {
    this.issues.push({ path, message });
  }
}

export const join = (path: string, key: string | number) => (path === "" ? String(key) : `${path}.${key}`);

/** A member that names security, whose loss would publish an agent as more open than it is: never dropped silently. */
const SECURITY_NAME = /secur|auth|credential|oauth/i;

/**
 * The object with snake_case members read as their JSON names (proto field names, which ProtoJSON
 * parsers accept too, A2A 1.0 §5.5), and every member outside `known` left out: listed, or refused
 * when it names security.
 */
export function knownMembers(value: JsonObject, known: readonly string[], path: string, reading: Reading): JsonObject {
  const out: JsonObject = {};
  const camel = (key: string) => key.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());
  for (const [key, member] of Object.entries(value)) {
    let name = key;
    if (key.includes("_") && known.includes(camel(key)) && !(camel(key) in value)) {
      name = camel(key);
      reading.repair("snake-case", join(path, key), `read as ${name}`);
    }
    if (known.includes(name)) out[name] = member;
    else if (SECURITY_NAME.test(name))
      reading.refuse(join(path, key), "a security member no A2A version defines: declare it in securitySchemes");
    else reading.repair("unknown-field", join(path, key), "left out of the published card");
  }
  return out;
}

/** A non-empty string, else undefined. */
export const text = (value: unknown): string | undefined => (typeof value === "string" && value.trim() !== "" ? value : undefined);

/**
 * A URL member as published: kept when its scheme is one of `schemes` (url-schemes.ts), trimmed as the
 * schema reads it next; else undefined, a scheme a card never publishes repaired as `unsafe-url-scheme`
 * (`what` is left out), and anything else that is no such URL for the caller to say (`invalid`).
 */
export function publishedUrl(
  value: unknown,
  at: { path: string; what: string; invalid: () => void },
  schemes: readonly string[],
  reading: Reading,
): string | undefined {
  const url = typeof value === "string" ? value.trim() : value;
  const problem = urlProblem(url, schemes);
  if (problem === undefined) return url as string;
  if (problem.unsafe) reading.repair("unsafe-url-scheme", at.path, `${problem.message}: ${at.what} left out`);
  else at.invalid();
  return undefined;
}

/** An optional URL member: kept when it is an http(s) URL, else left out. */
export function optionalUrl(value: unknown, path: string, reading: Reading): string | undefined {
  if (value === undefined) return undefined;
  const invalid = () => reading.repair("invalid-value", path, "not an http(s) URL: left out");
  return publishedUrl(value, { path, what: "the URL is", invalid }, WEB_SCHEMES, reading);
}

/** Input or output modes as media types; undefined when none is left (the default then applies). */
export function readModes(value: unknown, path: string, reading: Reading): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) {
    reading.repair("invalid-value", path, "not a list of media types: left out");
    return undefined;
  }
  const out = new Set<string>();
  const mapped: string[] = [];
  const dropped: string[] = [];
  for (const mode of value) {
    const type = typeof mode === "string" ? mediaTypeOf(mode) : undefined;
    if (type === undefined) dropped.push(JSON.stringify(mode));
    else {
      if (type !== mode) mapped.push(`${mode} -> ${type}`);
      out.add(type);
    }
  }
  if (mapped.length > 0) reading.repair("media-type", path, mapped.join(", "));
  if (dropped.length > 0) reading.repair("invalid-value", path, `not media types, left out: ${dropped.join(", ").slice(0, 200)}`);
  return out.size > 0 ? [...out] : undefined;
}

/** A list of members or undefined (absent, or not a list). */
export const listOf = (value: unknown): unknown[] | undefined => (Array.isArray(value) ? value : undefined);

export const objectOf = jsonObject;
