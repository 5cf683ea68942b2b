// The field tables of src/messages/tables.json, derived from the vendored specifications (never kept by
// hand): A2A 1.0 from its proto (test/schema/a2a-v1.0.1.proto: ProtoJSON, each field's JSON name and
// proto name), 0.3's HTTP+JSON bodies from its proto (test/schema/a2a-v0.3.0.proto), 0.3's JSON-RPC
// shapes from its JSON Schema (test/schema/a2a-v0.3.0.json: JSON names, and the snake_case names that
// a2a-python's 0.3 models accept beside them). Pure: text in, tables out (scripts/messages.ts writes them,
// and test/node/message-tables.test.ts fails when the committed file is stale).
//
// A field is [json name, other spelling ("" when none), kind, shape, oneof]: kind "s" string, "i" integer,
// "n" number, "b" bool, "y" bytes, "t" timestamp (a string), "o" any JSON object, "v" any JSON value,
// "E:<enum>", "M:<message>"; shape "" one value, "[]" a list, "{}" a map of string keys. A card is "v"
// here: card intake reads it (src/card/intake.ts).

export type Field = [name: string, other: string, kind: string, shape: "" | "[]" | "{}", oneof?: string];
export interface Method {
  /** The kind of its request (params, or a REST body) and of its response (result, or one event). */
  request: string;
  response: string;
  responseShape?: "[]";
  /** google.api.http `body`: "*" (the request), a field's name, or absent (no body). */
  body?: string;
}
export interface Table {
  /** Enum values by name: their numbers (ProtoJSON reads either), or for JSON Schema enums their position. */
  enums: Record<string, Record<string, number>>;
  messages: Record<string, Field[]>;
  methods: Record<string, Method>;
  /** Whether enums may be spelled by number and fields by their proto name (ProtoJSON). */
  protoJson: boolean;
}

const SCALARS: Record<string, string> = {
  string: "s",
  bytes: "y",
  bool: "b",
  double: "n",
  float: "n",
  "google.protobuf.Struct": "o",
  "google.protobuf.Value": "v",
  "google.protobuf.Timestamp": "t",
  "google.protobuf.Empty": "o",
};
for (const int of ["int32", "int64", "uint32", "uint64", "sint32", "sint64", "fixed32", "fixed64", "sfixed32", "sfixed64"])
  SCALARS[int] = "i";

/** Card types: any value here, read by card intake (src/card/intake.ts), not by the message reader. */
const CARDS = new Set(["AgentCard", "GetAgentCardRequest"]);

/** protoc's default JSON name: underscores removed, the letter after each one upper-cased. */
export function protoJsonName(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
}

/** pydantic's to_snake of a camelCase name (a2a-python 0.3 accepts a field by it beside its alias). */
export function snakeName(name: string): string {
  return name
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
    .replace(/([a-z])([A-Z])/g, "$1_$2")
    .replace(/([a-zA-Z])([0-9])/g, "$1_$2")
    .toLowerCase();
}

// ---- proto3 ----

interface ProtoMessage {
  fields: { type: string; name: string; json: string; shape: Field[3]; oneof?: string }[];
}

/** The proto's statements, comments gone: each run of text up to `{`, `}` or `;`, and those three as tokens. */
function protoTokens(text: string): string[] {
  const tokens: string[] = [];
  let current = "";
  const flush = () => {
    if (current.trim() !== "") tokens.push(current.trim());
    current = "";
  };
  for (let i = 0; i < text.length; i++) {
    const char = text[i] ?? "";
    if (char === '"') {
      const end = text.indexOf('"', i + 1);
      current += text.slice(i, end + 1);
      i = end;
    } else if (char === "/" && text[i + 1] === "/") i = text.indexOf("\n", i) - 1;
    else if ("{};".includes(char)) {
      flush();
      tokens.push(char);
    } else current += char;
  }
  flush();
  return tokens;
}

/** A field statement: `[repeated|optional] Type name = N [options]` or `map<K, V> name = N`. */
function protoField(statement: string, oneof: string | undefined): ProtoMessage["fields"][number] | undefined {
  const match = /^(?:(repeated|optional)\s+)?(map\s*<\s*\w+\s*,\s*([\w.]+)\s*>|[\w.]+)\s+(\w+)\s*=\s*\d+\s*(\[[\s\S]*\])?$/.exec(statement);
  if (!match) return undefined;
  const [, label, type = "", mapValue, name = "", options = ""] = match;
  const json = /json_name\s*=\s*"([^"]+)"/.exec(options)?.[1] ?? protoJsonName(name);
  const shape = mapValue ? "{}" : label === "repeated" ? "[]" : "";
  return { type: mapValue ?? type, name, json, shape, ...(oneof ? { oneof } : {}) };
}

interface ProtoFile {
  messages: Map<string, ProtoMessage>;
  enums: Map<string, Record<string, number>>;
  rpcs: { name: string; request: string; response: string; body?: string }[];
}

function parseProto(text: string): ProtoFile {
  const tokens = protoTokens(text);
  const file: ProtoFile = { messages: new Map(), enums: new Map(), rpcs: [] };
  const stack: { kind: string; name: string }[] = [];
  let rpc: ProtoFile["rpcs"][number] | undefined;
  for (const token of tokens) {
    const top = stack.at(-1);
    if (token === "}") {
      if (stack.pop()?.kind === "rpc") rpc = undefined;
      continue;
    }
    if (token === ";" || token === "{") continue;
    const block = /^(message|enum|oneof|service|rpc|option)\s+([\s\S]*)$/.exec(token);
    if (block?.[1] === "message" || block?.[1] === "enum") {
      const name = (block[2] ?? "").trim();
      if (block[1] === "message") file.messages.set(name, { fields: [] });
      else file.enums.set(name, {});
      stack.push({ kind: block[1], name });
    } else if (block?.[1] === "oneof" || block?.[1] === "service") stack.push({ kind: block[1], name: (block[2] ?? "").trim() });
    else if (block?.[1] === "rpc") {
      const m = /^(\w+)\s*\(\s*([\w.]+)\s*\)\s*returns\s*\(\s*(?:stream\s+)?([\w.]+)\s*\)$/.exec((block[2] ?? "").trim());
      if (!m) throw new Error(`unreadable rpc: ${token}`);
      rpc = { name: m[1] ?? "", request: m[2] ?? "", response: m[3] ?? "" };
      file.rpcs.push(rpc);
      stack.push({ kind: "rpc", name: rpc.name });
    } else if (block?.[1] === "option" || top?.kind === "option") {
      if (token.endsWith("=") || token.endsWith(":")) stack.push({ kind: "option", name: token });
      const body = /\bbody:\s*"([^"]*)"/.exec(token);
      if (body && rpc && rpc.body === undefined) rpc.body = body[1];
    } else if (top?.kind === "enum") {
      const value = /^(\w+)\s*=\s*(\d+)/.exec(token);
      const values = file.enums.get(top.name);
      if (value && values) values[value[1] ?? ""] = Number(value[2]);
    } else if (top?.kind === "message" || top?.kind === "oneof") {
      const owner = top.kind === "oneof" ? stack.at(-2) : top;
      const field = protoField(token, top.kind === "oneof" ? top.name : undefined);
      if (field && owner) file.messages.get(owner.name)?.fields.push(field);
    }
  }
  return file;
}

/** The messages and enums reachable from `roots`, as table entries. */
function protoReachable(file: ProtoFile, roots: string[]): Pick<Table, "enums" | "messages"> {
  const out: Pick<Table, "enums" | "messages"> = { enums: {}, messages: {} };
  const kindOf = (type: string): string => {
    const scalar = SCALARS[type] ?? (CARDS.has(type) ? "v" : undefined);
    if (scalar) return scalar;
    if (file.enums.has(type)) {
      out.enums[type] ??= file.enums.get(type) ?? {};
      return `E:${type}`;
    }
    visit(type);
    return `M:${type}`;
  };
  const visit = (name: string): void => {
    const message = file.messages.get(name);
    if (!message) throw new Error(`unknown type ${name}`);
    if (out.messages[name]) return;
    out.messages[name] = [];
    out.messages[name] = message.fields.map((f): Field => {
      const field: Field = [f.json, f.name === f.json ? "" : f.name, kindOf(f.type), f.shape];
      if (f.oneof) field.push(f.oneof);
      return field;
    });
  };
  for (const root of roots) visit(root);
  return out;
}

/** A proto's table: every rpc's request and response, cards left out. */
export function protoTable(text: string): Table {
  const file = parseProto(text);
  const rpcs = file.rpcs.filter((rpc) => !CARDS.has(rpc.request));
  const kind = (type: string) => SCALARS[type] ?? (CARDS.has(type) ? "v" : `M:${type}`);
  const roots = rpcs.flatMap((rpc) => [rpc.request, rpc.response]).filter((type) => kind(type).startsWith("M:"));
  const methods = Object.fromEntries(
    rpcs.map((rpc): [string, Method] => {
      const method: Method = { request: kind(rpc.request), response: kind(rpc.response) };
      if (rpc.body !== undefined) method.body = rpc.body;
      return [rpc.name, method];
    }),
  );
  return { ...protoReachable(file, roots), methods, protoJson: true };
}

// ---- JSON Schema (draft-07, 0.3) ----

type Schema = { [key: string]: unknown };
const asSchema = (value: unknown): Schema => (typeof value === "object" && value !== null ? (value as Schema) : {});
const refName = (schema: Schema) => (typeof schema.$ref === "string" ? schema.$ref.replace("#/definitions/", "") : undefined);

/** A 0.3 table from its JSON Schema: JSON-RPC params and results of every method, unions merged by member name. */
export function jsonSchemaTable(schemaText: string): Table {
  const definitions = asSchema(asSchema(JSON.parse(schemaText)).definitions);
  const table: Table = { enums: {}, messages: {}, methods: {}, protoJson: false };
  const enumOf = (name: string, values: unknown[]): string => {
    const known = table.enums[name] ?? {};
    for (const value of values) if (typeof value === "string" && !(value in known)) known[value] = Object.keys(known).length;
    table.enums[name] = known;
    return `E:${name}`;
  };
  /** The members of a union (anyOf of refs), or the one definition. */
  const members = (schema: Schema): string[] =>
    Array.isArray(schema.anyOf) ? schema.anyOf.map((member) => refName(asSchema(member)) ?? "") : [refName(schema) ?? ""];
  const kindOf = (owner: string, property: string, schema: Schema): { kind: string; shape: Field[3] } => {
    if (schema.type === "array") return { kind: kindOf(owner, property, asSchema(schema.items)).kind, shape: "[]" };
    if (schema.type === "object") return { kind: "o", shape: "" };
    if (Array.isArray(schema.enum)) return { kind: enumOf(`${owner}.${property}`, schema.enum), shape: "" };
    if (schema.const !== undefined) return { kind: enumOf(`${owner}.${property}`, [schema.const]), shape: "" };
    const scalar = { string: "s", integer: "i", number: "n", boolean: "b" }[String(schema.type)];
    if (scalar) return { kind: scalar, shape: "" };
    const names = members(schema);
    if (names.some((name) => name === "" || name === "AgentCard")) return { kind: "v", shape: "" };
    return { kind: message(names), shape: "" };
  };
  /** The message of these definitions merged (a union's members), defined once under their names joined by `|`. */
  const message = (names: string[]): string => {
    const name = names.join("|");
    const only = names.length === 1 ? asSchema(definitions[name]) : undefined;
    if (only && Array.isArray(only.enum)) return enumOf(name, only.enum);
    if (only && Array.isArray(only.anyOf)) return message(members(only));
    if (table.messages[name]) return `M:${name}`;
    table.messages[name] = [];
    const fields = new Map<string, Field>();
    for (const member of names) {
      const properties = asSchema(asSchema(definitions[member]).properties);
      for (const [property, schema] of Object.entries(properties)) {
        const { kind, shape } = kindOf(name, property, asSchema(schema));
        const seen = fields.get(property);
        // Members of a union that disagree on a field's kind: any value (the origin's schema judges it).
        if (seen && (seen[2] !== kind || seen[3] !== shape)) fields.set(property, [property, seen[1], "v", ""]);
        else if (!seen) fields.set(property, [property, snakeName(property) === property ? "" : snakeName(property), kind, shape]);
      }
    }
    table.messages[name] = [...fields.values()];
    return `M:${name}`;
  };
  for (const [name, definition] of Object.entries(definitions)) {
    const properties = asSchema(asSchema(definition).properties);
    const method = asSchema(properties.method).const;
    if (typeof method !== "string" || !name.endsWith("Request")) continue;
    const response = asSchema(asSchema(asSchema(definitions[name.replace(/Request$/, "SuccessResponse")]).properties).result);
    const result = response.type === "null" ? { kind: "v", shape: "" as const } : kindOf(name, "result", response);
    const params = properties.params === undefined ? { kind: "v" } : kindOf(name, "params", asSchema(properties.params));
    table.methods[method] = {
      request: params.kind,
      response: result.kind,
      ...(result.shape === "[]" ? { responseShape: "[]" as const } : {}),
    };
  }
  return table;
}

/** Every table, from the vendored specifications' texts. */
export function messageTables(sources: { v1Proto: string; v03Proto: string; v03Schema: string }): Record<string, Table> {
  return { "1.0": protoTable(sources.v1Proto), "0.3": jsonSchemaTable(sources.v03Schema), "0.3-proto": protoTable(sources.v03Proto) };
}

/** The committed file's text: one message, enum or method per line, so that a change reads as a diff. */
/** The simple snake_case of a JSON name: the other spelling a reader takes unless a table names another (src/messages/reader.ts). */
const runtimeSnake = (name: string) => name.replace(/[A-Z]/g, (upper) => `_${upper.toLowerCase()}`);

/** A list without its trailing empty strings (the committed file leaves defaults out). */
const trimmed = (items: string[]) => items.slice(0, items.findLastIndex((item) => item !== "") + 1);

/**
 * A table as committed: a field is [name, kind, shape, oneof, other], trailing defaults left out, and
 * `other` only where it is not the simple snake_case of the name (a `json_name` option; "-": none); a
 * method is [request, response, body, response shape]. Compact for the bundle, whose budget it shares.
 */
function committed(table: Table): Record<string, unknown> {
  const field = ([name, other, kind, shape, oneof = ""]: Field) => {
    const spelled = other === "" ? name : other;
    return trimmed([name, kind, shape, oneof, spelled === runtimeSnake(name) ? "" : other === "" ? "-" : other]);
  };
  const method = ({ request, response, body = "", responseShape }: Method) => trimmed([request, response, body, responseShape ?? ""]);
  return {
    protoJson: table.protoJson,
    methods: Object.fromEntries(Object.entries(table.methods).map(([name, m]) => [name, method(m)])),
    enums: table.enums,
    messages: Object.fromEntries(Object.entries(table.messages).map(([name, fields]) => [name, fields.map(field)])),
  };
}

/** The committed file's text: one message, enum or method per line, so that a change reads as a diff. */
export function messageTablesText(readSchema: (path: string) => string): string {
  const tables = messageTables({
    v1Proto: readSchema("a2a-v1.0.1.proto"),
    v03Proto: readSchema("a2a-v0.3.0.proto"),
    v03Schema: readSchema("a2a-v0.3.0.json"),
  });
  const lines = Object.entries(tables).map(([version, table]) => {
    const { protoJson, ...sections } = committed(table);
    const section = (entries: unknown) =>
      Object.entries(entries as Record<string, unknown>)
        .map(([name, value]) => `      ${JSON.stringify(name)}: ${JSON.stringify(value)}`)
        .join(",\n");
    const parts = Object.entries(sections).map(([name, entries]) => `    "${name}": {\n${section(entries)}\n    }`);
    return `  ${JSON.stringify(version)}: {\n    "protoJson": ${protoJson},\n${parts.join(",\n")}\n  }`;
  });
  return `{\n${lines.join(",\n")}\n}\n`;
}
