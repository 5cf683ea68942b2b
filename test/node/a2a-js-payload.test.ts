// Our re-implementation of the SDK's signing payload must equal the SDK's own
// canonicalizeAgentCard for every card the edge serves.
import { canonicalizeAgentCard } from "@a2a-js/sdk";
import { describe, expect, it } from "vitest";
import { buildCard } from "../../src/card/build-card";
import { parseCardSource } from "../../src/card/source";
import { CARD_VARIANTS } from "../../src/card/variant";
import { a2aJsPayload } from "../../src/sign/a2a-js-payload";
import kitchenSink from "../fixtures/kitchen-sink.json";
import bundled from "../fixtures/sample-card.json";

/**
 * The SDK types its parameter as its in-memory (ts-proto) AgentCard, yet reads
 * it as JSON (`AgentCard.fromJSON(card)` comes first), and a JSON card is what
 * its verifier hands it: typed here as what it actually takes.
 */
const canonicalizeJsonCard = canonicalizeAgentCard as (card: unknown) => string;

describe("a2aJsPayload", () => {
  it.each(Object.entries({ empty: {}, bundled, kitchenSink }))(
    "equals @a2a-js/sdk canonicalizeAgentCard for the %s document, every variant",
    (_name, doc) => {
      const parsed = parseCardSource(doc);
      if (!parsed.ok) throw new Error("invalid fixture");
      for (const variant of CARD_VARIANTS) {
        const card = buildCard(parsed.value, { rpcUrl: "https://a.example.com/", protocolVersions: ["1.0", "0.3"] }, variant);
        expect(a2aJsPayload(card)).toBe(canonicalizeJsonCard(card));
      }
    },
  );
});
