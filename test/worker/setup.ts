// Runs before every test file in workerd. The bundled skills.json is the sample agent, so the worker
// says so once per isolate (card/sample.ts): said here, asserted, and not again in the tests after it.
import { beforeAll, expect, vi } from "vitest";
import { warnIfSample } from "../../src/card/sample";
import { parseCardSource } from "../../src/card/source";
import bundled from "../fixtures/sample-card.json";

beforeAll(() => {
  const parsed = parseCardSource(bundled);
  if (!parsed.ok) throw new Error("skills.json does not parse");
  const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
  try {
    warnIfSample(parsed.value);
    warnIfSample(parsed.value);
    expect(warn.mock.calls.map((args) => JSON.parse(String(args[0])))).toEqual([
      {
        level: "warn",
        event: "bundled_document_sample",
        name: "Acme Travel Concierge",
        fix: "edit skills.json, or store a document in the SKILLS KV namespace",
      },
    ]);
  } finally {
    warn.mockRestore();
  }
});
