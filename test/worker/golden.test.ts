// Byte identity with main before the A2A types refactoring:
// every card variant of {}, skills.json and the kitchen-sink document, cards read
// from origin cards, publicized extended cards, @a2a-js/sdk payloads, signed
// cards and the page, exactly as main produced them (captured in Node, compared
// here in workerd). See test/support/golden.ts.
import { describe, expect, it } from "vitest";
import golden from "../fixtures/golden-outputs.json";
import { goldenOutputs } from "../support/golden";

const expected: Record<string, string> = golden;
let computed: Promise<Record<string, string>> | undefined;
const current = () => (computed ??= goldenOutputs());

describe("card output is byte-identical to main", () => {
  it("covers the same outputs", async () => {
    expect(Object.keys(await current()).sort()).toEqual(Object.keys(expected).sort());
  });

  it.each(Object.keys(expected))("%s", async (key) => {
    expect((await current())[key]).toBe(expected[key]);
  });
});
