// Pure card builder: card-source document + public endpoint -> the Agent Card
// of one variant, typed per variant. No I/O; used by the worker and `npm run card`.
import type { HybridAgentCard } from "../a2a/hybrid";
import type * as v1 from "../a2a/v1";
import type * as v03 from "../a2a/v03";
import type { CardEndpoint, CardInput } from "./card-parts";
import { buildV1Card } from "./card-v1";
import { buildHybridCard, buildV03Card } from "./card-v03";
import { prepareSkills } from "./skills";
import type { CardSource } from "./source";
import type { CardVariant } from "./variant";

export type { CardEndpoint } from "./card-parts";

/**
 * The card each variant serves (see variant.ts). Without a 0.x version to
 * serve, every variant is the 1.0 card.
 */
export type CardOfVariant = {
  v1: v1.AgentCard;
  "v0.3": v03.AgentCard | v1.AgentCard;
  hybrid: HybridAgentCard | v1.AgentCard;
  legacy: HybridAgentCard | v1.AgentCard;
};

/** A 0.3-shaped card (`url`, `protocolVersion: "0.3.0"`) is only honest when a 0.x version is served. */
function servesV03(protocolVersions: readonly string[]): boolean {
  return protocolVersions.some((version) => version.startsWith("0."));
}

/** A card never advertises an interface the edge cannot serve: without 0.3 a 0.3-shaped variant is the 1.0 card. */
const unlessV03Unserved =
  <Card>(build: (input: CardInput) => Card) =>
  (input: CardInput): Card | v1.AgentCard =>
    servesV03(input.endpoint.protocolVersions) ? build(input) : buildV1Card(input);

const BUILDERS: { [V in CardVariant]: (input: CardInput) => CardOfVariant[V] } = {
  v1: buildV1Card,
  "v0.3": unlessV03Unserved(buildV03Card),
  hybrid: unlessV03Unserved(buildHybridCard),
  legacy: unlessV03Unserved(buildHybridCard),
};

export function buildCard<V extends CardVariant>(source: CardSource, endpoint: CardEndpoint, variant: V): CardOfVariant[V] {
  const skills = prepareSkills(source.skills, endpoint.skillAllowlist);
  return BUILDERS[variant]({ source, skills, endpoint });
}
