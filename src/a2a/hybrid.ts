// The hybrid card (DESIGN "Variants"): the 0.3 card plus the 1.0 members a 1.0
// reader looks for (`supportedInterfaces`, `capabilities.extendedAgentCard`,
// `securityRequirements`, on skills too). The 0.3.0 and 0.2.6 schemas allow
// extra members, so it stays valid for 0.x readers (SPEC-NOTES §8.1).
// `agent-card.json` without `A2A-Version` and `agent.json` serve it.

import type * as v1 from "./v1";
import type * as v03 from "./v03";

export type HybridAgentSkill = v03.AgentSkill & Pick<v1.AgentSkill, "securityRequirements">;

export type HybridAgentCard = Omit<v03.AgentCard, "capabilities" | "skills"> & {
  capabilities: v03.AgentCapabilities & Pick<v1.AgentCapabilities, "extendedAgentCard">;
  skills: readonly HybridAgentSkill[];
  securityRequirements?: v1.AgentCard["securityRequirements"];
  supportedInterfaces: v1.AgentCard["supportedInterfaces"];
};
