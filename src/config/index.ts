// Worker configuration: the env (vars and secrets) parsed once per isolate by
// the schema declared in variables.ts. Values arrive as strings (or JSON
// values from wrangler `[vars]`); an empty string means "unset". Errors name
// the variable and never echo its value (it may be a secret).
//
//   variables.ts    the declaration: one line per variable, cross-variable rules
//   values.ts       parsers of single values, from zod's primitives
//   json-values.ts  hand-written parsers of JSON values (header and region maps, JWKs)
//   declare.ts      `variable()` and the generic steps from declaration to schema
import type * as z from "zod/mini";
import type { ParseResult } from "../card/source";
import type { Issue } from "../validation";
import { CONFIG_SCHEMA, VARIABLES } from "./variables";

/** The parsed configuration: one field per variable, typed by its parser and default. */
export type Config = z.output<typeof CONFIG_SCHEMA>;
export type CardCompat = Config["cardCompat"];

/** The env names, in declaration order. */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(VARIABLES);

/** Each variable's value when unset (undefined: none, or derived from another variable). */
export const CONFIG_DEFAULTS: Readonly<Record<string, unknown>> = Object.fromEntries(
  Object.entries(VARIABLES).map(([name, { fallback }]) => [name, fallback]),
);

/**
 * An issue's path names the variable only. Inside a list, the entry is named
 * by position; keys inside a value (perhaps a pasted secret) are never shown.
 */
function toIssue({ path, message }: z.core.$ZodIssue): Issue {
  const [name, ...inside] = path;
  const entry = inside.find((segment) => typeof segment === "number");
  return { path: String(name ?? ""), message: entry === undefined ? message : `entry ${entry + 1}: ${message}` };
}

/** Parses the worker's env. Never throws: bad values come back as issues keyed by variable name. */
export function parseConfig(env: Readonly<Record<string, unknown>>): ParseResult<Config> {
  const source: Readonly<Record<string, unknown>> = typeof env === "object" && env !== null ? env : {};
  // Only the declared variables: the env also holds bindings (KV, Durable Objects) that are not config.
  const variables = Object.fromEntries(CONFIG_VARIABLES.map((name) => [name, source[name]]));
  const result = CONFIG_SCHEMA.safeParse(variables);
  return result.success ? { ok: true, value: result.data } : { ok: false, issues: result.error.issues.map(toIssue) };
}
