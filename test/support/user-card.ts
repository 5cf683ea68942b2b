// The user's card: skills.json as the edge reads it (card intake, the same code the worker runs), for the tests
// that run what the user runs (`npm run dev`, the guides) and the tests of the card itself
// (test/node/your-card.test.ts). Every other test uses the sample card, its own fixture (sample-card.ts).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { type Intake, readCardInputText } from "../../src/card/intake";
import type { ParseResult } from "../../src/card/source";

export const USER_CARD = fileURLToPath(new URL("../../skills.json", import.meta.url));

/** skills.json (or a card at `path`) read by card intake: the source the edge builds every card from, its kind and what it repaired. */
export function readUserCard(path = USER_CARD): ParseResult<Intake> {
  return readCardInputText(readFileSync(path, "utf8"));
}

/** The user's card as the edge publishes it; throws, naming the fields, when it cannot be published. */
export function userCard(): Intake["source"] {
  const read = readUserCard();
  if (!read.ok)
    throw new Error(`skills.json cannot be published: ${read.issues.map((i) => `${i.path || "(document)"}: ${i.message}`).join("; ")}`);
  return read.value.source;
}
