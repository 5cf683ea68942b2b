// How each origin reader finds a field's member in an object and takes its value (origin-readers.ts):
// Go's encoding/json (the last member whose name folds to the field's; strict types), a first-match
// reader (the first member of the exact name), a2a-python 0.3's pydantic models (alias, else field name;
// lax integers), ts-proto's generated fromJSON (JSON name, else proto name; coercing). One walk over a
// call's schema (origin-shapes.ts) serves them all.
import { Num, Obj } from "./ordered-json";
import type { Kind, Schema } from "./origin-shapes";

/** A reader's refusal of the request: it takes nothing from it. */
export class Refusal extends Error {}

/** How a reader finds a field's member and takes its value. */
export interface Style {
  member(object: unknown, name: string): unknown;
  object(value: unknown): unknown;
  scalar(kind: "s" | "i" | "[s]", value: unknown): unknown;
}

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const snake = (name: string) => name.replace(/[A-Z]/g, (upper) => `_${upper.toLowerCase()}`);
export const refuse = (why: string): never => {
  throw new Refusal(why);
};

/** The fields of `schema` in `value`, as `style` reads them, under their JSON names. */
export function readBy(style: Style, value: unknown, schema: Schema): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, kind] of Object.entries(schema) as [string, Kind][]) {
    const member = style.member(value, name);
    if (member === undefined || member === null) continue;
    out[name] = typeof kind === "string" ? style.scalar(kind, member) : readBy(style, style.object(member), kind);
  }
  return out;
}

/** Go's bytes.EqualFold, for a field name (ASCII): the two non-ASCII letters whose fold orbit holds an ASCII one. */
const goFold = (name: string) => name.replace(/[A-Z\u212a\u017f]/g, (c) => (c === "\u212a" ? "k" : c === "\u017f" ? "s" : c.toLowerCase()));

export const GO: Style = {
  member: (object, name) => (object instanceof Obj ? object.entries.findLast(([key]) => goFold(key) === goFold(name))?.[1] : undefined),
  object: (value) => (value instanceof Obj ? value : refuse("not an object")),
  scalar(kind, value) {
    if (kind === "s") return typeof value === "string" ? value : refuse("not a string");
    if (kind === "i")
      return value instanceof Num && /^-?\d+$/.test(value.text) ? Number(value.text) : refuse(`${write(value)} into an int`);
    return Array.isArray(value) && value.every((item) => typeof item === "string") ? value : refuse("not a list of strings");
  },
};
/**
 * A reader that takes the first member of a name, exactly as written (gjson, simdjson's on-demand
 * find_field, streaming parsers that stop at the first match); numbers of integer value are integers.
 */
export const FIRST: Style = {
  member: (object, name) => (object instanceof Obj ? object.entries.find(([key]) => key === name)?.[1] : undefined),
  object: GO.object,
  scalar: (kind, value) =>
    kind === "i" && value instanceof Num && Number.isInteger(Number(value.text)) ? Number(value.text) : GO.scalar(kind, value),
};

const write = (value: unknown) => (value instanceof Num ? value.text : JSON.stringify(value));

export const PYDANTIC: Style = {
  member: (object, name) => (isRecord(object) ? (Object.hasOwn(object, name) ? object[name] : object[snake(name)]) : undefined),
  object: (value) => (isRecord(value) ? value : refuse("not an object")),
  scalar(kind, value) {
    if (kind === "s") return typeof value === "string" ? value : refuse("not a str");
    if (kind === "i") {
      if (typeof value === "number" && Number.isInteger(value)) return value;
      return typeof value === "string" && /^\s*[+-]?\d+\s*$/.test(value) ? Number(value) : refuse("not an int");
    }
    return Array.isArray(value) && value.every((item) => typeof item === "string") ? value : refuse("not a list[str]");
  },
};

/** ts-proto's generated fromJSON (the 0.3 proto's codecs in @a2a-js/sdk 1.3): `isSet(o.jsonName) ? ... : o.proto_name`, coercing. */
export const TS_PROTO: Style = {
  member(object, name) {
    if (!isRecord(object)) return undefined;
    const json = object[name];
    return json !== undefined && json !== null ? json : object[name === "message" ? "request" : snake(name)];
  },
  object: (value) => value,
  scalar: (kind, value) => (kind === "s" ? String(value) : kind === "i" ? Number(value) : Array.isArray(value) ? value.map(String) : []),
};
