// The origin's extended card (A2A 1.0 GetExtendedAgentCard, 0.3
// agent/getAuthenticatedExtendedCard) names its private address: the reply is
// always read (bounded like any reply the edge reads), every origin URL
// becomes the public one, and the card is signed again at the edge like the
// public card. Rebuilt like the public card (every served binding and version)
// when the caller's version or the edge's bindings differ from what the
// origin's card can say: a translated call, or a REST binding the origin lacks.
import { translateResponse } from "../bridge";
import { publicizeCard, sourceFromCard } from "../card/from-origin";
import { withPublishedUrlsOnly } from "../card/url-schemes";
import type { EdgeRequest } from "../http/edge-request";
import { joinUrl } from "../http/urls";
import { isJsonObject } from "../json";
import type { Call, Outcome } from "./call";

export const EXTENDED_CARD_METHODS: ReadonlySet<string> = new Set(["GetExtendedAgentCard", "agent/getAuthenticatedExtendedCard"]);

/** The outcome (of the origin's generation) in the caller's, its card public and re-signed; an error translated. */
export async function publicExtendedCard(
  edge: EdgeRequest,
  outcome: Outcome,
  privateOrigins: readonly string[],
  call: Call,
  origin: Call,
): Promise<Outcome> {
  const translated = call.generation !== origin.generation;
  if (Object.hasOwn(outcome, "error")) {
    return translated ? (translateResponse(origin.method, outcome, origin.generation, call.generation) as Outcome) : outcome;
  }
  const card = outcome.result;
  const rebuild = translated || edge.runtime.config.restPath !== undefined;
  const read = rebuild && card !== undefined ? sourceFromCard(card) : undefined;
  if (read?.ok) {
    const built = await edge.runtime.cards.card(read.value.source, edge.base, call.generation === "1.0" ? "v1" : "v0.3");
    return { ...outcome, result: built.card };
  }
  if (!isJsonObject(card)) return outcome;
  const { config, signer } = edge.runtime;
  // Read by no intake: the URLs a card never publishes (`javascript:` ...) are left out here, as intake leaves them out.
  const publicCard = publicizeCard(withPublishedUrlsOnly(card), privateOrigins, edge.base, joinUrl(edge.base, config.rpcPath));
  // The origin's signatures covered its private URLs: the edge signs what it serves.
  return { ...outcome, result: signer ? await signer.sign(publicCard, edge.base) : publicCard };
}
