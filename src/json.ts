// JSON from untrusted peers (request bodies, KV values, origin replies):
// checks that run before anything walks the value recursively or forwards it,
// and typed reads of members whose values are still unchecked.

export type JsonObject = { [key: string]: unknown };

/** Whether `value` is a JSON object (not an array, not null): an object whose members are still unknown. */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `value` if it is a JSON object, else undefined. */
export function jsonObject(value: unknown): JsonObject | undefined {
  return isJsonObject(value) ? value : undefined;
}

/**
 * Member `key` of an untrusted value, still unchecked (`unknown`), read as the
 * field of `Shape` it should be: the name is checked against the type at
 * compile time (a renamed or misspelt field does not compile), the value is
 * for the caller to check.
 */
export function memberOf<Shape>(value: unknown, key: keyof Shape & string): unknown {
  return jsonObject(value)?.[key];
}

/**
 * Deepest nesting any document, card or origin reply may have. Cards nest about
 * 6 levels (extension params a few more); recursion over 3,000+ levels throws
 * RangeError in workerd, so deeper values are refused before anything walks them.
 */
export const MAX_JSON_DEPTH = 64;

/** True when `value` nests objects/arrays deeper than `max` levels (iterative: safe at any depth). */
export function exceedsDepth(value: unknown, max: number = MAX_JSON_DEPTH): boolean {
  const pending: Array<[unknown, number]> = [[value, 1]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [item, depth] = next;
    if (typeof item !== "object" || item === null) continue;
    if (depth > max) return true;
    for (const child of Array.isArray(item) ? item : Object.values(item)) {
      if (typeof child === "object" && child !== null) pending.push([child, depth + 1]);
    }
  }
  return false;
}

/**
 * Keys that are prototype links, not data, when assigned on a plain object. A
 * document naming one would lose it somewhere between parsing and rendering.
 */
const RESERVED_KEYS: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);

/** Dotted path of the first reserved key anywhere in `value`, if any (iterative). */
export function reservedKeyPath(value: unknown): string | undefined {
  const pending: Array<[unknown, string]> = [[value, ""]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [item, path] = next;
    if (typeof item !== "object" || item === null) continue;
    for (const [key, child] of Object.entries(item)) {
      const childPath = path === "" ? key : `${path}.${key}`;
      if (!Array.isArray(item) && RESERVED_KEYS.has(key)) return childPath;
      pending.push([child, childPath]);
    }
  }
  return undefined;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Index of the quote that closes the string opened at `open`. */
function closingQuote(text: string, open: number): number {
  let at = text.indexOf('"', open + 1);
  for (;;) {
    let slashes = 0;
    while (text.charCodeAt(at - 1 - slashes) === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return at;
    at = text.indexOf('"', at + 1);
  }
}

/** What one pass over a JSON text found that its parsed value no longer shows. */
interface JsonTextScan {
  /** Some object names a key twice. */
  duplicateKey: boolean;
  /** Some number is written with a fraction or an exponent (`3.0`, `1e1`): readers of an integer field differ on it. */
  fractionOrExponent: boolean;
}

/**
 * What `text` (already known to be valid JSON) says twice or in a form the parsed value hides: an object
 * naming a key twice (JSON.parse keeps the last one, other parsers the first: RFC 8259 §4 leaves it
 * open), compared decoded ("a" = "\u0061"), and numbers written with a fraction or an exponent (Go's
 * encoding/json refuses `3.0` for an integer, JSON.parse reads 3). One pass, strings skipped whole;
 * ~1 ms per MiB in workerd; it stops at the first duplicate key.
 */
export function scanJsonText(text: string): JsonTextScan {
  // Per open container: the keys seen so far (objects) or null (arrays).
  const open: Array<Set<string> | null> = [];
  let expectKey = false;
  let fractionOrExponent = false;
  for (let i = 0; i < text.length; i++) {
    switch (text.charCodeAt(i)) {
      case 0x2e: // . (outside strings, only in a number)
      case 0x45: // E
        fractionOrExponent = true;
        break;
      case 0x65: {
        // e: an exponent after a digit, else part of true or false.
        const before = text.charCodeAt(i - 1);
        fractionOrExponent ||= before >= 0x30 && before <= 0x39;
        break;
      }
      case 0x7b: // {
        open.push(new Set());
        expectKey = true;
        break;
      case 0x5b: // [
        open.push(null);
        expectKey = false;
        break;
      case 0x7d: // }
      case 0x5d: // ]
        open.pop();
        expectKey = false;
        break;
      case 0x2c: // ,
        expectKey = open[open.length - 1] instanceof Set;
        break;
      case 0x3a: // :
        expectKey = false;
        break;
      case QUOTE: {
        const end = closingQuote(text, i);
        const keys = open[open.length - 1];
        if (expectKey && keys) {
          const raw = text.slice(i + 1, end);
          const key = raw.includes("\\") ? (JSON.parse(`"${raw}"`) as string) : raw;
          if (keys.has(key)) return { duplicateKey: true, fractionOrExponent };
          keys.add(key);
          expectKey = false;
        }
        i = end;
        break;
      }
    }
  }
  return { duplicateKey: false, fractionOrExponent };
}

/** Whether some object in `text` (valid JSON) names a key twice (scanJsonText). */
export function hasDuplicateKey(text: string): boolean {
  return scanJsonText(text).duplicateKey;
}

/**
 * The JSON value of `text`, or why there is none: not JSON, or an object naming a key twice (which
 * JSON.parse would read as its last, another reader as its first: the edge reads no JSON two ways).
 */
export function readJsonText(text: string): { value: unknown } | { error: string; duplicate?: true } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { error: `not valid JSON: ${(error as Error).message}` };
  }
  return hasDuplicateKey(text) ? { error: DUPLICATE_KEY, duplicate: true } : { value };
}

/** Why a JSON text with a duplicate key is refused, wherever the edge reads one. */
const DUPLICATE_KEY = "an object names the same key twice (readers would keep different values)";

/** The JSON value of `text`, or undefined when it is not JSON or names a key twice in one object (JSON itself has no undefined). */
export function parseJson(text: string): unknown {
  const read = readJsonText(text);
  return "value" in read ? read.value : undefined;
}

/**
 * An SSE event's data as JSON, read leniently: a leading record separator (U+001E, the RFC 7464 JSON
 * text sequence framing that VoltAgent's A2A server writes before each event) is not part of the JSON.
 */
export function parseEventJson(text: string): unknown {
  return parseJson(text.startsWith("\u001e") ? text.slice(1) : text);
}
