// The machinery behind the declaration in variables.ts: one `variable(...)`
// per env variable, and the generic steps that turn the declaration into a zod
// object (keyed by variable name) and its output into Config (keyed by field).
// Nothing here names a particular variable.
import * as z from "zod/mini";

/** A parser of one variable's text (already trimmed, never empty); some of zod's accept any input. */
export type TextParser = z.ZodMiniType<unknown, unknown>;

export interface Variable<Field extends string, Value> {
  /** The Config field the variable becomes. */
  readonly field: Field;
  /** Its value when unset (absent, null or blank); undefined = the field stays undefined. */
  readonly fallback: Value | undefined;
  /** Raw env value -> Value: blank means unset, anything else goes through the parser. */
  readonly schema: z.ZodMiniType<Value, unknown>;
}

export type Declaration = Readonly<Record<string, Variable<string, unknown>>>;

/** The env as parsed: one value per variable name. */
export type ValuesOf<D extends Declaration> = { -readonly [Name in keyof D]: z.output<D[Name]["schema"]> };

/** The config: one field per variable, named by its `field`. */
export type FieldsOf<D extends Declaration> = {
  -readonly [Name in keyof D as D[Name]["field"]]: z.output<D[Name]["schema"]>;
};

/** Adds an issue to a transform's payload and gives up on the value (parseConfig passes on only the message). */
export function reject(ctx: z.core.ParsePayload, message: string): never {
  ctx.issues.push({ code: "custom", input: "(redacted)", message });
  return z.NEVER;
}

/**
 * What every parser sees. wrangler [vars] may hold numbers, booleans, arrays
 * or objects: those arrive as their JSON text, so each parser reads one form.
 * Blank text is unset, like an absent variable.
 */
const envText = z.transform((raw: unknown, ctx): string | undefined => {
  if (raw === undefined || raw === null) return undefined;
  let text: string | undefined;
  try {
    text = typeof raw === "string" ? raw.trim() : JSON.stringify(raw);
  } catch {
    // JSON.stringify throws on cycles and BigInt: parseConfig must never throw.
    return reject(ctx, "expected text or a JSON value");
  }
  return text === undefined || text === "" ? undefined : text;
});

/** A variable that stays undefined when unset. */
export function variable<const Field extends string, Parser extends TextParser>(
  field: Field,
  parser: Parser,
): Variable<Field, z.output<Parser> | undefined>;
/** A variable with a value when unset. */
export function variable<const Field extends string, Parser extends TextParser>(
  field: Field,
  parser: Parser,
  fallback: z.output<Parser>,
): Variable<Field, z.output<Parser>>;
export function variable(field: string, parser: z.ZodMiniType<unknown, string>, fallback?: unknown): Variable<string, unknown> {
  const unsetOrParsed = fallback === undefined ? z.optional(parser) : z._default(parser, fallback);
  return { field, fallback, schema: z.pipe(envText, unsetOrParsed) };
}

/** The zod object over the env: each variable's schema under its name. */
export function envObject<D extends Declaration>(declaration: D) {
  const shape = Object.fromEntries(Object.entries(declaration).map(([name, { schema }]) => [name, schema]));
  // Object.fromEntries forgets which schema sits under which name; the mapped type restates it.
  return z.object(shape as { [Name in keyof D]: D[Name]["schema"] });
}

/** Renames each parsed value from its variable name to its field. */
export function toFields<D extends Declaration>(declaration: D, values: ValuesOf<D>): FieldsOf<D> {
  const byName: Readonly<Record<string, unknown>> = values;
  const fields = Object.fromEntries(Object.entries(declaration).map(([name, { field }]) => [field, byName[name]]));
  // As above: the entries are built from the declaration itself, the mapped type says so.
  return fields as FieldsOf<D>;
}
