// Bad usage, answered the same way by every script and bench: exit code 2, one
// line on stderr saying what is wrong, then the usage; never a stack trace (a
// mistyped flag is the user's to fix, not a crash to debug). Everything a
// script reads from its flags and environment is checked with these before it
// starts any process or server, so a refusal leaves nothing behind.
import { parseArgs as nodeParseArgs, type ParseArgsConfig } from "node:util";

export interface Cli {
  /** Prints `name: message` and the usage on stderr, exits 2. */
  usageError(message: string): never;
  /** Bad input that is not bad usage (an invalid document, an unwritable file): the message alone, exit 2. */
  fail(message: string): never;
  /** node:util parseArgs (strict unless said otherwise), with its errors as usage errors; `--help`/`-h` prints the usage and exits 0. */
  parseArgs<T extends ParseArgsConfig>(config: T): ReturnType<typeof nodeParseArgs<T>>;
  /** An integer environment knob: `fallback` when unset or empty, else an integer >= `min`. */
  intEnv(variable: string, fallback: number, min: number): number;
  /** An environment knob that is one of `choices`; undefined when unset or empty. */
  choiceEnv<C extends string>(variable: string, choices: readonly C[]): C | undefined;
  /** A comma-separated environment list of `choices`; undefined when unset or empty. */
  listEnv<C extends string>(variable: string, choices: readonly C[]): C[] | undefined;
}

/** parseArgs' messages are sentences with advice about positionals: say the same in a few words. */
function parseError(error: unknown): string | undefined {
  const code = (error as { code?: unknown }).code;
  if (typeof code !== "string" || !code.startsWith("ERR_PARSE_ARGS_")) return undefined;
  const message = (error as Error).message;
  const quoted = message.match(/'([^' ]*)/)?.[1] ?? "";
  if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") return `unknown option ${quoted}`;
  if (code === "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL") return `unexpected argument ${JSON.stringify(quoted)}`;
  if (/does not take an argument/.test(message)) return `${quoted} takes no value`;
  if (/ambiguous/.test(message)) return `${quoted} needs a value (one that starts with a dash: ${quoted}=-x)`;
  if (/argument missing/.test(message)) return `${quoted} needs a value`;
  return message.split("\n")[0];
}

/** `name` prefixes every message (e.g. `card`); `usage` is printed after it, as is. */
export function cli(name: string, usage: string): Cli {
  const fail = (message: string): never => {
    process.stderr.write(`${name}: ${message}\n`);
    process.exit(2);
  };
  const usageError = (message: string): never => fail(`${message}\n${usage.trimEnd()}`);
  const env = (variable: string) => {
    const value = process.env[variable];
    return value === undefined || value === "" ? undefined : value;
  };
  const choice = <C extends string>(variable: string, value: string, choices: readonly C[]): C => {
    if ((choices as readonly string[]).includes(value)) return value as C;
    return usageError(`${variable} must be one of ${choices.join(", ")}, not ${JSON.stringify(value)}`);
  };
  return {
    usageError,
    fail,
    parseArgs(config) {
      const args = config.args ?? process.argv.slice(2);
      if (args.includes("--help") || args.includes("-h")) {
        process.stdout.write(`${usage.trimEnd()}\n`);
        process.exit(0);
      }
      try {
        return nodeParseArgs(config);
      } catch (error) {
        const message = parseError(error);
        if (message === undefined) throw error;
        return usageError(message);
      }
    },
    intEnv(variable, fallback, min) {
      const value = env(variable);
      if (value === undefined) return fallback;
      if (!/^\d+$/.test(value) || Number(value) < min) {
        usageError(`${variable} must be a whole number >= ${min}, not ${JSON.stringify(value)}`);
      }
      return Number(value);
    },
    choiceEnv(variable, choices) {
      const value = env(variable);
      return value === undefined ? undefined : choice(variable, value, choices);
    },
    listEnv(variable, choices) {
      const value = env(variable);
      return value === undefined ? undefined : value.split(",").map((item) => choice(variable, item.trim(), choices));
    },
  };
}
