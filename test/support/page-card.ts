// A built 1.0 card as the page renders it (renderCardPage), for tests that render a card without a worker:
// the golden outputs and the checks of the user's card.
import type * as v1 from "../../src/a2a/v1";
import type { BuiltCard } from "../../src/card/card-service";
import type { Repair } from "../../src/card/repairs";

export function pageCard(
  card: v1.AgentCard,
  { repairs = [], sample = false }: { repairs?: readonly Repair[]; sample?: boolean } = {},
): BuiltCard<"v1"> {
  const empty = new Headers();
  return { card, body: new Uint8Array(), etag: '"x"', dataSource: "bundled", repairs, sample, okHeaders: empty, notModifiedHeaders: empty };
}
