// The origin's extended card (A2A 1.0 GetExtendedAgentCard, 0.3
// agent/getAuthenticatedExtendedCard) names its private address: the reply is
// read (bounded in size, time and depth), every origin URL becomes the public
// one, and the card is signed again at the edge like the public card.
import { translateResponse } from "../bridge";
import { publicizeCard, sourceFromCard } from "../card/from-origin";
import { type Failure, failure } from "../errors/failures";
import { readBody } from "../http/body";
import type { EdgeRequest } from "../http/edge-request";
import { joinUrl } from "../http/urls";
import { exceedsDepth } from "../json";
import { log } from "../log";
import type { BridgedCall } from "../rpc/bridge-call";
import { ORIGIN_REPLY_MAX_BYTES } from "./bridge-reply";
import type { ClassifiedReply } from "./classify";

export const EXTENDED_CARD_METHODS: ReadonlySet<string> = new Set(["GetExtendedAgentCard", "agent/getAuthenticatedExtendedCard"]);

type Reply = { result?: unknown } & Record<string, unknown>;

async function readReply(edge: EdgeRequest, reply: ClassifiedReply): Promise<Reply | undefined> {
  const { originTimeoutMs } = edge.runtime.config;
  const read = await readBody(reply.response.body, { maxBytes: ORIGIN_REPLY_MAX_BYTES, timeoutMs: originTimeoutMs, excess: "cancel" });
  if (!read.ok) return undefined;
  try {
    const value: unknown = JSON.parse(new TextDecoder().decode(read.bytes));
    return typeof value === "object" && value !== null && !Array.isArray(value) && !exceedsDepth(value) ? (value as Reply) : undefined;
  } catch {
    return undefined;
  }
}

/** The reply with its card made public and re-signed; a reply without a card object (an error) passes as is. */
export async function publicExtendedCard(
  edge: EdgeRequest,
  reply: ClassifiedReply,
  privateOrigins: readonly string[],
  method: string,
  /** A bridged call: the card is rebuilt in the caller's version (as the public card is), an error translated. */
  bridge?: BridgedCall,
): Promise<string | Failure> {
  const body = await readReply(edge, reply);
  if (!body) {
    log("error", "origin_failed", { kind: "invalid_response", method, origin: reply.origin, status: reply.response.status });
    return failure("ORIGIN_INVALID_RESPONSE", "origin agent returned an unreadable card");
  }
  const card = body.result;
  // Rebuilt like the public card (every served binding and version) when the caller's version or the edge's
  // bindings differ from what the origin's card can say: a bridged call, or a REST binding the origin lacks.
  const rebuildAs =
    bridge?.client ?? (edge.runtime.config.restPath === undefined ? undefined : method === "GetExtendedAgentCard" ? "1.0" : "0.3");
  const read = rebuildAs && card !== undefined ? sourceFromCard(card) : undefined;
  if (rebuildAs && read?.ok) {
    const built = await edge.runtime.cards.card(read.value.source, edge.base, rebuildAs === "1.0" ? "v1" : "v0.3");
    body.result = built.card;
  } else if (card && typeof card === "object" && !Array.isArray(card)) {
    const { config, signer } = edge.runtime;
    const publicCard = publicizeCard(card as Record<string, unknown>, privateOrigins, edge.base, joinUrl(edge.base, config.rpcPath));
    // The origin's signatures covered its private URLs: the edge signs what it serves.
    body.result = signer ? await signer.sign(publicCard, edge.base) : publicCard;
  }
  return JSON.stringify(bridge && "error" in body ? translateResponse(bridge.originMethod, body, bridge.origin, bridge.client) : body);
}
