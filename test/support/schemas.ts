// Ajv validators over the official A2A schemas and ARD's manifest schema (see test/schema/README.md).
import Ajv from "ajv";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import v026 from "../schema/a2a-v0.2.6.json";
import v030 from "../schema/a2a-v0.3.0.json";
import v101 from "../schema/a2a-v1.0.1.fixed-strict.json";
import ard from "../schema/ard-v0.9-ai-catalog.schema.json";

// allowUnionTypes: 0.3's JSON-RPC envelopes type `id` as ["string", "integer"(, "null")].
const draft07 = new Ajv({ strict: true, allErrors: true, allowUnionTypes: true });
draft07.addSchema(v030, "a2a03");
draft07.addSchema(v026, "a2a026");
const draft2020 = new Ajv2020({ strict: true, allErrors: true });
// google.protobuf.Timestamp is `format: date-time` (task statuses carry one).
addFormats(draft2020);
draft2020.addSchema(v101, "a2a10");
// ARD's schema as published, which Ajv's strict mode refuses twice though it is valid JSON Schema: its
// url-or-data `oneOf` says `not: {required: ["data"]}` in a subschema that defines no `data` (strictRequired),
// and `metadata` values are `type: [string, number, boolean, null]` (a union: allowUnionTypes). Every other
// strict rule holds. Its `url`, `documentationUrl` and `logoUrl` are `format: uri`, `updatedAt` `date-time`:
// checked, not just annotated.
const ardAjv = new Ajv2020({ strict: true, strictRequired: false, allowUnionTypes: true, allErrors: true });
addFormats(ardAjv);
ardAjv.addSchema(ard, "ard");

function validator(ajv: Ajv | Ajv2020, ref: string) {
  const validate = ajv.getSchema(ref);
  if (!validate) throw new Error(`schema ${ref} not found`);
  return (value: unknown): string[] =>
    validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message} ${JSON.stringify(e.params)}`);
}

/** Each returns the list of schema errors ([] = valid). */
export const schemaErrors = {
  v1Card: validator(draft2020, "a2a10#/$defs/AgentCard"),
  v1Interface: validator(draft2020, "a2a10#/$defs/AgentInterface"),
  v03Card: validator(draft07, "a2a03#/definitions/AgentCard"),
  v026Card: validator(draft07, "a2a026#/definitions/AgentCard"),
  /** Any definition of the 0.3.0 schema by name (e.g. `SendMessageRequest`, a whole JSON-RPC envelope). */
  v03: (definition: string) => validator(draft07, `a2a03#/definitions/${definition}`),
  /** Any definition of the 1.0.1 schema by name (proto message names, e.g. `StreamResponse`). */
  v1: (definition: string) => validator(draft2020, `a2a10#/$defs/${definition}`),
  /** ARD v0.9's capability manifest (what /.well-known/ard.json serves). */
  ardManifest: validator(ardAjv, "ard"),
};

/** Paths of every null in a JSON value (cards must never contain null). */
export function nullPaths(value: unknown, path = ""): string[] {
  if (value === null) return [path || "/"];
  if (Array.isArray(value)) return value.flatMap((v, i) => nullPaths(v, `${path}/${i}`));
  if (typeof value === "object") return Object.entries(value as object).flatMap(([k, v]) => nullPaths(v, `${path}/${k}`));
  return [];
}
