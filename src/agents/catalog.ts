// A host's catalogs of the agents it serves, pure: the RFC 9727 API catalog (`/.well-known/api-catalog`, an
// RFC 9264 linkset, the format the A2A specification's agent-catalog text adopts) and the AI Catalog
// (`/.well-known/ai-catalog.json`, specVersion 1.0 of the editor's draft, Agent-Card/ai-catalog at commit
// 634a09d, 2026-04-30). Both list the host's own agent (at the root) and every agent by path of its index.
import type { AgentEntry } from "./index-copy";

export const API_CATALOG_PATH = "/.well-known/api-catalog";
export const AI_CATALOG_PATH = "/.well-known/ai-catalog.json";
/** RFC 9727 §4.1: the linkset media type with the API-catalog profile. */
export const API_CATALOG_TYPE = 'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"';
export const AI_CATALOG_TYPE = "application/ai-catalog+json";
/** The AI Catalog draft's well-known value for an A2A Agent Card (its "Catalog Entry" `mediaType`). */
const A2A_CARD_TYPE = "application/a2a-agent-card+json";
const CARD_PATH = "/.well-known/agent-card.json";

/** One agent as both catalogs describe it. */
interface Listed {
  /** The agent's base URL: its identifier, and the anchor its card is described from. */
  base: string;
  name: string;
  description?: string | undefined;
}

function listed(hostBase: string, root: { name: string; description?: string | undefined }, entries: readonly AgentEntry[]): Listed[] {
  const agents: Listed[] = [{ base: hostBase, name: root.name, description: root.description }];
  for (const entry of entries) {
    if (entry.path !== "") agents.push({ base: `${hostBase}${entry.path}`, name: entry.name, description: entry.description });
  }
  return agents;
}

/**
 * The RFC 9727 catalog: one link context anchored at the catalog itself whose `item` links (RFC 6573) are the
 * agents' cards, then one per agent, anchored at its base URL, whose `service-desc` (RFC 8631) is its card.
 * RFC 9264 §4.2: every link relation's value is an array of target objects, each with an `href`.
 */
export function apiCatalog(hostBase: string, root: { name: string; description?: string | undefined }, entries: readonly AgentEntry[]) {
  const agents = listed(hostBase, root, entries);
  const card = (agent: Listed) => ({ href: `${agent.base}${CARD_PATH}`, type: "application/json", title: agent.name });
  return {
    linkset: [
      { anchor: `${hostBase}${API_CATALOG_PATH}`, item: agents.map(card) },
      ...agents.map((agent) => ({ anchor: agent.base, "service-desc": [card(agent)] })),
    ],
  };
}

/** The AI Catalog: its required `specVersion` and `entries`, each with identifier, displayName, mediaType and url. */
export function aiCatalog(hostBase: string, root: { name: string; description?: string | undefined }, entries: readonly AgentEntry[]) {
  return {
    specVersion: "1.0",
    entries: listed(hostBase, root, entries).map((agent) => ({
      identifier: agent.base,
      displayName: agent.name,
      mediaType: A2A_CARD_TYPE,
      url: `${agent.base}${CARD_PATH}`,
      ...(agent.description ? { description: agent.description } : {}),
    })),
  };
}

/** The `Link` header of a card and its page (RFC 8288; RFC 9727 §3 `api-catalog`, the AI Catalog draft's `ai-catalog`). */
export const catalogLinks = (hostBase: string) =>
  `<${hostBase}${API_CATALOG_PATH}>; rel="api-catalog", <${hostBase}${AI_CATALOG_PATH}>; rel="ai-catalog"`;
