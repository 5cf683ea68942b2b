// The one tool every mapper of src/bridge/ is made of: copy the members a
// table names, renamed or converted, and nothing else. A member the target
// version has no field for is dropped by not being named (the 1.0 JSON has
// additionalProperties:false everywhere, SPEC-NOTES §5); a value that is not
// the object a table expects is handed on unchanged (shapes are checked at the
// edge before anything is translated, and guessing would invent values).
import { isJsonObject, type JsonObject } from "../json";

export type Convert = (value: unknown) => unknown;
/** `true`: same name, same value; a string: renamed; a function: converted; a pair: both. */
type Rule = true | string | Convert | readonly [string, Convert];
export type Fields = Readonly<Record<string, Rule>>;

/**
 * The members of `value` that `fields` names, in the table's order, after
 * `base` (constants such as 0.3's `kind`, and defaults that a present member
 * overrides). A conversion that yields undefined leaves its member out.
 */
export function reshape(value: JsonObject, fields: Fields, base?: JsonObject): JsonObject;
export function reshape(value: unknown, fields: Fields, base?: JsonObject): unknown;
export function reshape(value: unknown, fields: Fields, base: JsonObject = {}): unknown {
  if (!isJsonObject(value)) return value;
  const out: JsonObject = { ...base };
  for (const [key, rule] of Object.entries(fields)) {
    if (!Object.hasOwn(value, key)) continue;
    const [name, convert] = typeof rule === "string" ? [rule] : typeof rule === "function" ? [key, rule] : rule === true ? [key] : rule;
    const converted = convert ? convert(value[key]) : value[key];
    if (converted !== undefined) out[name] = converted;
  }
  return out;
}

/** A converter applied to each item of a list (anything else is handed on unchanged). */
export const listOf =
  (convert: Convert): Convert =>
  (value) =>
    Array.isArray(value) ? value.map(convert) : value;

/**
 * Enum names by position: position i of `from` is position i of `to`. The 1.0
 * side lists its names in proto number order, so ProtoJSON's integer form
 * (which parsers accept, §5.5) is read too. A value with no counterpart is
 * handed on unchanged: never guessed.
 */
export function enumMap(from: readonly (string | undefined)[], to: readonly (string | undefined)[], numbered: boolean): Convert {
  return (value) => {
    const at = numbered && typeof value === "number" ? value : from.indexOf(String(value));
    return to[at] ?? value;
  };
}

/**
 * 1.0 leaves a string at its proto3 default ("") out of the JSON; 0.3 requires
 * some of those members, and writes the default there. Read back, "" is the
 * default again: absent.
 */
export const unlessEmpty: Convert = (value) => (value === "" ? undefined : value);

/** ProtoJSON writes int32 as a number but also accepts a decimal string (proto3 JSON mapping); 0.3 wants a JSON integer. */
export const integer: Convert = (value) => (typeof value === "string" && /^-?\d{1,10}$/.test(value) ? Number(value) : value);

/** ProtoJSON `bool`: `returnImmediately` is the negation of 0.3's `blocking`. */
export const negate: Convert = (value) => (typeof value === "boolean" ? !value : value);
