// Your card, as the edge will read and publish it: skills.json (whatever you wrote there: a card-source
// document or an A2A card of any generation) goes through card intake, every card variant is built from it for a
// local and a public base and validated against the official A2A schema, and the page renders it. These tests
// fail only when your card is wrong, naming the field and the fix; every other test uses the sample card, a
// fixture of its own (test/support/sample-card.ts). `npm run card -- --source skills.json --check` lists the
// repairs intake makes.
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { requirementsOf } from "../../src/auth/requirements";
import { buildCard } from "../../src/card/build-card";
import { isSampleDocument } from "../../src/card/sample";
import { CARD_VARIANTS } from "../../src/card/variant";
import { renderCardPage } from "../../src/view/page-response";
import userCards from "../fixtures/user-cards.json";
import { pageCard } from "../support/page-card";
import { nullPaths, schemaErrors } from "../support/schemas";
import { readUserCard, USER_CARD } from "../support/user-card";

const FIX = "fix it in skills.json (`npm run card -- --source skills.json --check` names every field), or `git checkout skills.json`";
const BASES = ["http://127.0.0.1:8787", "https://agents.example.com/travel"];
const FIXTURES = fileURLToPath(new URL("../fixtures/", import.meta.url));
/** Your card first; then the cards users are known to write there, which must pass the same checks. */
const CARDS: [string, string][] = [
  ["your card (skills.json)", USER_CARD],
  ...(userCards.cards as [string, string][]).map(([name, path]): [string, string] => [
    `a user's card like ${name}'s`,
    join(FIXTURES, path),
  ]),
];

describe.each(CARDS)("%s", (_name, path) => {
  const read = readUserCard(path);

  it(`can be published${read.ok ? ` (${read.value.kind === "card" ? "an A2A card" : "a card-source document"}, ${read.value.repairs.length} repairs)` : ""}`, () => {
    const problems = read.ok ? [] : read.issues.map((i) => `${i.path || "(document)"}: ${i.message}`);
    expect(problems, `skills.json cannot be published; ${FIX}`).toEqual([]);
  });

  describe.runIf(read.ok).each(CARD_VARIANTS)("the %s card", (variant) => {
    it.for(BASES)("built for %s, is valid against the official A2A schema, with no null", (base) => {
      if (!read.ok) return;
      const card = buildCard(read.value.source, { rpcUrl: `${base}/`, protocolVersions: ["1.0", "0.3"] }, variant);
      const errors = variant === "v1" ? schemaErrors.v1Card(card) : schemaErrors.v03Card(card);
      expect(errors, `the ${variant} card built from skills.json is not valid A2A; ${FIX}`).toEqual([]);
      expect(nullPaths(card), "members that are null").toEqual([]);
    });
  });

  it.runIf(read.ok)("renders on the page, with its name and every skill", async () => {
    if (!read.ok) return;
    const { source, repairs } = read.value;
    const card = buildCard(source, { rpcUrl: `${BASES[0]}/`, protocolVersions: ["1.0", "0.3"] }, "v1");
    const built = pageCard(card, { repairs, sample: isSampleDocument(source) });
    const names = [...new Set(requirementsOf(source).flatMap((alternative) => alternative.map((need) => need.name)))];
    const context = {
      cardUrl: `${BASES[0]}/.well-known/agent-card.json`,
      enforcement: Object.fromEntries(names.map((n) => [n, "edge" as const])),
    };
    const page = renderCardPage(built, { ...context, pushRelayed: false }, 60);
    expect(page.status).toBe(200);
    const html = await page.text();
    const escaped = (text: string) =>
      text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
    for (const name of [card.name, ...card.skills.map((s) => s.name)]) expect(html, `the page names ${name}`).toContain(escaped(name));
  });
});
