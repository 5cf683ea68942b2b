// Runs before every test file in workerd. The bundled skills.json is the sample agent, so the worker
// says so once per isolate (card/sample.ts): said here, asserted, and not again in the tests after it.
// The workers project shares one isolate between its files (isolate: false in vitest.config.ts), so the
// first file's setup sees the warning and every later one sees that it is not said again.
import { beforeAll, expect, vi } from "vitest";
import { warnIfSample } from "../../src/card/sample";
import { parseCardSource } from "../../src/card/source";
import bundled from "../fixtures/sample-card.json";

const SAID = Symbol.for("agent-card-edge.test.sample-warned");
const TIMER = Symbol.for("agent-card-edge.test.set-timeout");
const state = globalThis as { [SAID]?: boolean; [TIMER]?: typeof setTimeout };

beforeAll(() => {
  // A file before this one in the isolate must have put the clock back (a dead setTimeout hangs every wait).
  state[TIMER] ??= globalThis.setTimeout;
  if (vi.isFakeTimers() || globalThis.setTimeout !== state[TIMER]) {
    throw new Error(`the file before ${expect.getState().testPath} left fake or replaced timers in the shared isolate`);
  }
  const parsed = parseCardSource(bundled);
  if (!parsed.ok) throw new Error("skills.json does not parse");
  const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
  try {
    warnIfSample(parsed.value);
    warnIfSample(parsed.value);
    const said = warn.mock.calls.map((args) => JSON.parse(String(args[0])));
    expect(said).toEqual(
      state[SAID]
        ? []
        : [
            {
              level: "warn",
              event: "bundled_document_sample",
              name: "Acme Travel Concierge",
              fix: "edit skills.json, or store a document in the SKILLS KV namespace",
            },
          ],
    );
    state[SAID] = true;
  } finally {
    warn.mockRestore();
  }
});
