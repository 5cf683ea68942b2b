// The strict A2A 1.0 card (spec §5, proto lf.a2a.v1): no 0.3 member, so it
// validates against the v1.0.1 schema (additionalProperties: false).
import { securityRequirementV1, securitySchemeV1 } from "../a2a/correspondence";
import { mapValues, nonEmptyList, nonEmptyMap, presentFields } from "../a2a/presence";
import * as v1 from "../a2a/v1";
import type * as v03 from "../a2a/v03";
import { type CardEndpoint, type CardInput, extensions, profile, skillBase } from "./card-parts";

export function buildV1Card({ source, skills, endpoint }: CardInput): v1.AgentCard {
  const capabilities = source.capabilities;
  return presentFields({
    ...profile(source, endpoint),
    supportedInterfaces: supportedInterfaces(endpoint),
    capabilities: presentFields({
      streaming: capabilities.streaming,
      pushNotifications: capabilities.pushNotifications,
      extensions: extensions(source),
      extendedAgentCard: capabilities.extendedAgentCard || undefined,
    }),
    securitySchemes: nonEmptyMap(source.securitySchemes && mapValues(source.securitySchemes, securitySchemeV1)),
    securityRequirements: securityRequirementsV1(source.security),
    defaultInputModes: source.defaultInputModes,
    defaultOutputModes: source.defaultOutputModes,
    skills: skills.map((skill) => ({
      ...skillBase(skill),
      ...presentFields({ securityRequirements: securityRequirementsV1(skill.security) }),
    })),
  });
}

/** The bindings served, preferred first: JSON-RPC, and HTTP+JSON with REST_PATH (first with PREFERRED_BINDING). */
export function servedBindings(endpoint: CardEndpoint): [v1.ProtocolBinding, string][] {
  const rpc: [v1.ProtocolBinding, string] = [v1.JSONRPC_BINDING, endpoint.rpcUrl];
  if (endpoint.restUrl === undefined) return [rpc];
  const rest: [v1.ProtocolBinding, string] = [v1.HTTP_JSON_BINDING, endpoint.restUrl];
  return endpoint.restFirst ? [rest, rpc] : [rpc, rest];
}

/** One interface per protocol version and binding served, preferred version first (§5.6 "ordered"). */
export function supportedInterfaces(endpoint: CardEndpoint): v1.AgentInterface[] {
  const bindings = servedBindings(endpoint);
  return endpoint.protocolVersions.flatMap((protocolVersion) =>
    bindings.map(([protocolBinding, url]) =>
      endpoint.tenant ? { url, protocolBinding, tenant: endpoint.tenant, protocolVersion } : { url, protocolBinding, protocolVersion },
    ),
  );
}

/** The document's requirements (OpenAPI form) as 1.0 `securityRequirements`; none is absent. */
export function securityRequirementsV1(requirements: readonly v03.SecurityRequirement[] | undefined): v1.SecurityRequirement[] | undefined {
  return nonEmptyList(requirements)?.map(securityRequirementV1);
}
