// What the code under test writes to the console, taken instead of printed: a test that provokes an
// expected error (a refused configuration, a cut-off body, an origin agent's own refusal) asserts on it,
// and `npm test` prints no error that a test expects. Works inside workerd (the worker's log lines) and
// in the node tests (in-process origin agents, SDK clients, Miniflare's workerd output).
import { onTestFinished, vi } from "vitest";

type Method = "log" | "info" | "warn" | "error" | "debug";

/** One structured log line of the worker (src/log.ts): `{"level":..,"event":..,...}`. */
export type LogEvent = Record<string, unknown> & { level: string; event: string };

export interface Captured {
  /** Every call, its arguments joined as the console would print them (errors as `Name: message`). */
  readonly lines: string[];
  /** The worker's structured log lines among them, optionally only those of one event. */
  events(event?: string): LogEvent[];
  /** Gives the console back before the test ends: what is written after it is printed, not taken. */
  restore(): void;
}

const asText = (value: unknown): string => {
  if (typeof value === "string") return value;
  if (value instanceof Error) return `${value.name}: ${value.message}`;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
};

/** Terminal styling, as `wrangler dev` wraps a worker's error and warning lines in it even when not on a terminal. */
const STYLING = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g");

/** The structured log lines (one JSON object with `level` and `event`) found in `text`, one per line. */
export function logEvents(text: string, event?: string): LogEvent[] {
  const found: LogEvent[] = [];
  for (const line of text.replace(STYLING, "").split("\n")) {
    const start = line.indexOf('{"level":');
    if (start < 0) continue;
    try {
      const parsed = JSON.parse(line.slice(start)) as LogEvent;
      if (typeof parsed.event === "string" && (event === undefined || parsed.event === event)) found.push(parsed);
    } catch {
      /* not one of ours */
    }
  }
  return found;
}

/** Takes the console for the rest of the current test (call it in the test or a beforeEach); restored after it, or earlier by `restore()`. */
export function captureConsole(methods: readonly Method[] = ["log", "info", "warn", "error", "debug"]): Captured {
  const lines: string[] = [];
  const spies = methods.map((method) =>
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      lines.push(args.map(asText).join(" "));
    }),
  );
  const restore = () => {
    for (const spy of spies.splice(0)) spy.mockRestore();
  };
  onTestFinished(restore);
  return { lines, events: (event) => lines.flatMap((line) => logEvents(line, event)), restore };
}
