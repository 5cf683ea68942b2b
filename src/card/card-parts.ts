// What every card shape shares, built once from the card-source document: the
// agent's profile, its extensions and the skills' common fields.

import { nonEmptyList, presentFields } from "../a2a/presence";
import type * as v1 from "../a2a/v1";
import type * as v03 from "../a2a/v03";
import type { PreparedSkill } from "./skills";
import type { CardSource, SkillSource } from "./source";

export interface CardEndpoint {
  /** Absolute public URL of the JSON-RPC endpoint. */
  rpcUrl: string;
  /** Absolute public URL of the HTTP+JSON (REST) binding (REST_PATH); absent = not served. */
  restUrl?: string | undefined;
  /** PREFERRED_BINDING=HTTP+JSON: REST is listed (and, in 0.3 cards, `url`) first. */
  restFirst?: boolean;
  /** INTERFACE_TENANT: every 1.0 interface carries it (§5.8), so clients send it in every request. */
  tenant?: string | undefined;
  /** `Major.Minor` versions the origin speaks, preferred first (e.g. ["1.0", "0.3"]). */
  protocolVersions: readonly string[];
  /** Skill names to advertise; absent or empty = all. */
  skillAllowlist?: readonly string[] | undefined;
}

/** A builder's input: the document, its skills as advertised (sorted, narrowed, with ids) and the endpoint. */
export interface CardInput {
  source: CardSource;
  skills: readonly PreparedSkill[];
  endpoint: CardEndpoint;
}

/** Members with the same name and meaning in 0.3 and 1.0. */
type Profile = Pick<v1.AgentCard & v03.AgentCard, "name" | "description" | "version" | "provider" | "documentationUrl" | "iconUrl">;

/** AgentProvider.url is required by 0.3 and 1.0: a provider known by name only points at its documentation, else the card's own base. */
function providerUrl(source: CardSource, endpoint: CardEndpoint): string {
  return source.provider?.url ?? source.documentationUrl ?? new URL(endpoint.rpcUrl).origin;
}

export function profile(source: CardSource, endpoint: CardEndpoint): Profile {
  return presentFields({
    name: source.name,
    description: source.description,
    version: source.version,
    provider: source.provider && { organization: source.provider.organization, url: providerUrl(source, endpoint) },
    documentationUrl: source.documentationUrl,
    iconUrl: source.iconUrl,
  });
}

/** 0.3's extension (its `uri` is required), which is also a 1.0 one. */
export function extensions(source: CardSource): v03.AgentExtension[] | undefined {
  return nonEmptyList(source.capabilities.extensions)?.map((e) =>
    presentFields({ uri: e.uri, description: e.description, required: e.required || undefined, params: e.params }),
  );
}

/** Skill members with the same name and meaning in 0.3 and 1.0. */
type SkillBase = Pick<v1.AgentSkill & v03.AgentSkill, "id" | "name" | "description" | "tags" | "examples" | "inputModes" | "outputModes">;

export function skillBase(skill: PreparedSkill): SkillBase {
  return presentFields({
    id: skill.id,
    name: skill.name,
    description: skill.description,
    tags: skill.tags,
    examples: nonEmptyList(skill.examples),
    inputModes: skill.inputModes,
    outputModes: skill.outputModes,
  } satisfies { [K in keyof SkillSource]?: unknown });
}
