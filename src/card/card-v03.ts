// The A2A 0.3.0 card (specification/json/a2a.json), and the hybrid card built
// on it (the 0.3 card plus the 1.0 members; see a2a/hybrid.ts).
import { securitySchemeV03 } from "../a2a/correspondence";
import type { HybridAgentCard, HybridAgentSkill } from "../a2a/hybrid";
import { mapValues, nonEmptyList, nonEmptyMap, presentFields } from "../a2a/presence";
import type * as v1 from "../a2a/v1";
import * as v03 from "../a2a/v03";
import { type CardInput, extensions, profile, skillBase } from "./card-parts";
import { securityRequirementsV1, servedBindings, supportedInterfaces } from "./card-v1";
import type { PreparedSkill } from "./skills";

export function buildV03Card(input: CardInput): v03.AgentCard {
  return buildV03Shape(input, () => undefined);
}

/**
 * The 0.3 card plus what 1.0 readers look for: `supportedInterfaces`,
 * `capabilities.extendedAgentCard` and `securityRequirements` (the v0.3.0 and
 * v0.2.6 schemas allow extra members, so it stays valid for 0.x readers).
 */
export function buildHybridCard(input: CardInput): HybridAgentCard {
  const card = buildV03Shape(input, (skill) => securityRequirementsV1(skill.security));
  const extendedAgentCard = input.source.capabilities.extendedAgentCard || undefined;
  const capabilities = { ...card.capabilities, ...presentFields({ extendedAgentCard }) };
  return presentFields({
    ...card,
    capabilities,
    securityRequirements: securityRequirementsV1(input.source.security),
    supportedInterfaces: supportedInterfaces(input.endpoint),
  });
}

type V03Shape = Omit<v03.AgentCard, "skills"> & { skills: HybridAgentSkill[] };

function buildV03Shape(
  { source, skills, endpoint }: CardInput,
  skillRequirementsV1: (skill: PreparedSkill) => v1.SecurityRequirement[] | undefined,
): V03Shape {
  const capabilities = source.capabilities;
  const bindings = servedBindings(endpoint);
  const preferred = bindings[0] ?? [v03.JSONRPC_TRANSPORT, endpoint.rpcUrl];
  return presentFields({
    protocolVersion: v03.PROTOCOL_VERSION,
    ...profile(source, endpoint),
    // The 0.3 transports are the 1.0 bindings by name (TransportProtocol: JSONRPC, GRPC, HTTP+JSON).
    url: preferred[1],
    preferredTransport: preferred[0],
    // §5.6: additionalInterfaces SHOULD repeat the main url + transport.
    additionalInterfaces: bindings.map(([transport, url]) => ({ url, transport })),
    capabilities: presentFields({
      streaming: capabilities.streaming,
      pushNotifications: capabilities.pushNotifications,
      stateTransitionHistory: capabilities.stateTransitionHistory || undefined,
      extensions: extensions(source),
    }),
    securitySchemes: nonEmptyMap(source.securitySchemes && mapValues(source.securitySchemes, securitySchemeV03)),
    security: nonEmptyList(source.security),
    defaultInputModes: source.defaultInputModes,
    defaultOutputModes: source.defaultOutputModes,
    supportsAuthenticatedExtendedCard: capabilities.extendedAgentCard || undefined,
    skills: skills.map((skill) => ({
      ...skillBase(skill),
      ...presentFields({ security: nonEmptyList(skill.security), securityRequirements: skillRequirementsV1(skill) }),
    })),
  });
}
