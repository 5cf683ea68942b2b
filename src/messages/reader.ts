// One reading of every A2A message (DESIGN "One reading"): a field is taken under every spelling a
// conformant reader of its generation accepts and put under one name, so that the edge's policies and
// the origin read the same value. The spellings are in tables.json, derived from the specifications
// (scripts/message-tables.ts): 1.0's JSON is ProtoJSON (proto3 JSON mapping: a field's JSON name or its
// proto name, an enum's name or its number, an integer as a number or a decimal string); 0.3's JSON-RPC
// shapes are read by their JSON names and, by a2a-python's 0.3 models, by their snake_case names too.
// Refused, because two readers would take different values from it:
// - one object that names a field twice (two spellings: `taskId` and `task_id`);
// - a member that is a field's name in another case (`URL`, `TaskId`): Go's encoding/json matches names
//   ignoring case (Unicode simple folding: `ſ` is `s`, the Kelvin sign `k`) and takes the last;
// - two members of one oneof (ProtoJSON refuses them; ts-proto's reader takes the first);
// - in strict reading, a value of another JSON type than its field's (ts-proto's `String(x)`, `Boolean(x)`
//   and `Number(x)` coerce what Go's and Python's readers refuse), an enum value its enum lacks.
// Strict reading (requests) drops members no table names (see docs/proxy.md "How the edge reads a
// message"); lenient reading (what an origin sends: replies, notifications) keeps them and their values.
import { isJsonObject, type JsonObject } from "../json";
import TABLES from "./tables.json";

export type TableName = keyof typeof TABLES;

/** Why a message is refused: where (a dotted path from its root) and what is wrong there. */
interface Refusal {
  path: string;
  message: string;
}

/** The message in its canonical form, and whether that differs from what was received. */
export type Reading = { value: unknown; changed: boolean } | { refused: Refusal };

interface Info {
  name: string;
  other: string;
  /** A scalar kind ("s", "i", ...), or "M" (a message) or "E" (an enum) named by `ref`. */
  kind: string;
  ref: string;
  shape: string;
  oneof: string | undefined;
}
interface Compiled {
  bySpelling: Map<string, Info>;
  byFolded: Map<string, Info>;
}

/** Go's case folding of an ASCII field name's possible spellings: lower case, and the two non-ASCII letters that fold to ASCII. */
export const foldName = (name: string) => name.toLowerCase().replaceAll("ſ", "s");

/** A JSON name's snake_case: its proto name (protoc's default JSON name, undone), a2a-python's field name. */
const snakeCase = (name: string) => name.replace(/[A-Z]/g, (upper) => `_${upper.toLowerCase()}`);

/** A table's kind (`s`, `M:Task`, `E:Role`) as an Info's kind and ref. */
function kindOf(kind: string): Pick<Info, "kind" | "ref"> {
  return kind.startsWith("M:") || kind.startsWith("E:") ? { kind: kind.slice(0, 1), ref: kind.slice(2) } : { kind, ref: "" };
}

/** Each table's messages, compiled on first use (per isolate). */
const compiled: Record<TableName, Map<string, Compiled>> = { "1.0": new Map(), "0.3": new Map(), "0.3-proto": new Map() };

function compile(table: TableName, message: string): Compiled | undefined {
  const known = compiled[table].get(message);
  if (known) return known;
  const fields = (TABLES[table].messages as Record<string, readonly (readonly string[])[]>)[message];
  if (!fields) return undefined;
  const out: Compiled = { bySpelling: new Map(), byFolded: new Map() };
  // [name, kind, shape, oneof, other]: the other spelling is the name's snake_case unless the table says ("-": none).
  for (const [name = "", kind = "v", shape = "", oneof = "", listed = snakeCase(name)] of fields) {
    const other = listed === "-" || listed === name ? "" : listed;
    const info: Info = { name, other, ...kindOf(kind), shape, oneof: oneof === "" ? undefined : oneof };
    for (const spelling of other === "" ? [name] : [name, other]) {
      out.bySpelling.set(spelling, info);
      out.byFolded.set(foldName(spelling), info);
    }
  }
  compiled[table].set(message, out);
  return out;
}

interface Context {
  table: TableName;
  strict: boolean;
  /** Where the reader is: member names and list positions from the root (joined only for a refusal). */
  at: (string | number)[];
}

class Refused {
  constructor(readonly refusal: Refusal) {}
}

function refuse(ctx: Context, message: string): Refused {
  const path = ctx.at.map((step, i) => (typeof step === "number" ? `[${step}]` : i === 0 ? step : `.${step}`)).join("");
  return new Refused({ path, message });
}

const DECIMAL = /^-?\d{1,10}$/;

function readScalar(kind: string, value: unknown, ctx: Context): unknown {
  if (kind === "v" || !ctx.strict) return value;
  if (kind === "s" || kind === "t" || kind === "y") return typeof value === "string" ? value : refuse(ctx, "must be a string");
  if (kind === "b") return typeof value === "boolean" ? value : refuse(ctx, "must be true or false");
  if (kind === "o") return isJsonObject(value) ? value : refuse(ctx, "must be an object");
  if (kind === "n") return typeof value === "number" ? value : refuse(ctx, "must be a number");
  // "i": ProtoJSON and pydantic read a decimal string as the integer it spells; one form goes on.
  if (typeof value === "number" && Number.isSafeInteger(value)) return value;
  if (typeof value === "string" && DECIMAL.test(value)) return Number(value);
  return refuse(ctx, "must be an integer");
}

function readEnum(name: string, value: unknown, ctx: Context): unknown {
  const values = (TABLES[ctx.table].enums as Record<string, Record<string, number>>)[name] ?? {};
  if (typeof value === "string" && Object.hasOwn(values, value)) return value;
  if (typeof value === "number" && TABLES[ctx.table].protoJson) {
    const named = Object.keys(values).find((key) => values[key] === value);
    if (named !== undefined) return named;
  }
  return ctx.strict ? refuse(ctx, `is not a value of ${name.replace(/^.*\./, "")}`) : value;
}

function readValue({ kind, ref }: Info, value: unknown, ctx: Context): unknown {
  if (kind === "M") return isJsonObject(value) ? readObject(ref, value, ctx) : readScalar("o", value, ctx);
  if (kind === "E") return readEnum(ref, value, ctx);
  return readScalar(kind, value, ctx);
}

/** `__proto__` is a prototype link, not data, when assigned: no reading keeps or writes one. */
const PROTO = "__proto__";

/**
 * Copy on write: what a reading returns is its input itself until a member differs (renamed, dropped,
 * converted, or read into another value); then a copy of what came before, and the rest as read.
 * Measured in workerd (bench:profile): reading a ~1 KiB SendMessage that was already canonical cost
 * 35 µs per request when every object and list was rebuilt.
 */
class Copy<T extends JsonObject | unknown[]> {
  out: T | undefined;
  constructor(
    readonly source: T,
    readonly keys: readonly string[],
  ) {}
  /** The reading of the member at position `at` (its key `key`); `undefined` drops it. */
  set(at: number, key: string, read: unknown): void {
    const source = this.source as JsonObject;
    if (this.out === undefined) {
      if (key === this.keys[at] && read === source[key] && read !== undefined) return;
      const out = (Array.isArray(source) ? [] : {}) as JsonObject;
      for (let before = 0; before < at; before++) {
        const earlier = this.keys[before] as string;
        out[earlier] = source[earlier];
      }
      this.out = out as T;
    }
    if (read !== undefined) (this.out as JsonObject)[key] = read;
  }
  get result(): T {
    return this.out ?? this.source;
  }
}

function readShaped(info: Info, value: unknown, ctx: Context): unknown {
  if (info.shape === "") return readValue(info, value, ctx);
  const list = info.shape === "[]";
  if (list ? !Array.isArray(value) : !isJsonObject(value))
    return ctx.strict ? refuse(ctx, list ? "must be a list" : "must be an object") : value;
  const keys = Object.keys(value as JsonObject);
  const copy = new Copy(value as JsonObject, keys);
  for (let at = 0; at < keys.length; at++) {
    const key = keys[at] as string;
    ctx.at.push(list ? at : key);
    const read = key === PROTO ? refuse(ctx, "is a prototype link, not data") : readValue(info, (value as JsonObject)[key], ctx);
    if (read instanceof Refused) return read;
    ctx.at.pop();
    copy.set(at, key, read);
  }
  return copy.result;
}

/** The member that spells `info` otherwise beside `key`, if the object has one (`taskId` beside `task_id`). */
function otherSpelling(value: JsonObject, info: Info, key: string): string | undefined {
  const other = key === info.name ? info.other : info.name;
  return other !== "" && Object.hasOwn(value, other) ? other : undefined;
}

function readObject(message: string, value: JsonObject, ctx: Context): unknown {
  const fields = compile(ctx.table, message);
  if (!fields) return value;
  const keys = Object.keys(value);
  const copy = new Copy(value, keys);
  let oneofs: Map<string, string> | undefined;
  for (let at = 0; at < keys.length; at++) {
    const key = keys[at] as string;
    const member = value[key];
    ctx.at.push(key);
    const info = fields.bySpelling.get(key);
    if (!info) {
      const folded = key === PROTO ? undefined : fields.byFolded.get(foldName(key));
      if (folded) return refuse(ctx, `is ${folded.name} in another case (names are case-sensitive)`);
      if (key === PROTO && !ctx.strict) return refuse(ctx, "is a prototype link, not data");
      // Strict: dropped (a member no reader of this generation takes); lenient: kept as it came.
      copy.set(at, key, ctx.strict ? undefined : member);
      ctx.at.pop();
      continue;
    }
    const twice = otherSpelling(value, info, key);
    if (twice !== undefined) return refuse(ctx, `names ${info.name} twice (as ${key} and ${twice})`);
    // ProtoJSON: null is the field's default, as if absent (a Value's null is a value).
    if (member === null && info.kind !== "v") {
      copy.set(at, key, undefined);
      ctx.at.pop();
      continue;
    }
    if (info.oneof !== undefined) {
      oneofs ??= new Map();
      const other = oneofs.get(info.oneof);
      if (other !== undefined) return refuse(ctx, `is set beside ${other}: one of them at most`);
      oneofs.set(info.oneof, info.name);
    }
    const read = readShaped(info, member, ctx);
    if (read instanceof Refused) return read;
    ctx.at.pop();
    copy.set(at, info.name, read);
  }
  return copy.result;
}

/**
 * `value` read as `kind` (`M:<message>`, or any field kind) of `table`: strict for what a client sends,
 * lenient for what an origin sends. `shape` "[]" reads a list of them.
 */
export function readMessage(table: TableName, kind: string, value: unknown, strict: boolean, shape = ""): Reading {
  const ctx: Context = { table, strict, at: [] };
  const read = readShaped({ name: "", other: "", ...kindOf(kind), shape, oneof: undefined }, value, ctx);
  // Copy on write: a reading that changed nothing is the value received itself.
  return read instanceof Refused ? { refused: read.refusal } : { value: read, changed: read !== value };
}
