// A host's catalogs of the agents it serves, pure: the RFC 9727 API catalog (`/.well-known/api-catalog`, an
// RFC 9264 linkset, the format the A2A specification's agent-catalog text adopts) and the AI Catalog
// (`/.well-known/ai-catalog.json`, specVersion 1.0 of the editor's draft, Agent-Card/ai-catalog at commit
// 634a09d, 2026-04-30); ARD's manifest (`/.well-known/ard.json`) is ard.ts. Each lists the host's own agent
// (at the root) and every agent by path of its index.
import type { AgentEntry } from "./index-copy";

export const API_CATALOG_PATH = "/.well-known/api-catalog";
export const AI_CATALOG_PATH = "/.well-known/ai-catalog.json";
export const ARD_PATH = "/.well-known/ard.json";
/** RFC 9727 §4.1: the linkset media type with the API-catalog profile. */
export const API_CATALOG_TYPE = 'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"';
export const AI_CATALOG_TYPE = "application/ai-catalog+json";
/** The AI Catalog draft's well-known value for an A2A Agent Card (its "Catalog Entry" `mediaType`, ARD's `type`). */
export const A2A_CARD_TYPE = "application/a2a-agent-card+json";
export const CARD_PATH = "/.well-known/agent-card.json";

/** The host's own document, as the catalogs read it (a card-source document). */
export interface CatalogRoot {
  name: string;
  description?: string | undefined;
  provider?: { organization: string } | undefined;
}

/** One agent as every catalog describes it. */
export interface Listed {
  /** The agent's base URL: its AI Catalog identifier, and the anchor its card is described from. */
  base: string;
  /** Its agent path (`/billing/eu`), "" for the host's own agent. */
  path: string;
  name: string;
  description?: string | undefined;
}

export function listed(hostBase: string, root: CatalogRoot, entries: readonly AgentEntry[]): Listed[] {
  const agents: Listed[] = [{ base: hostBase, path: "", name: root.name, description: root.description }];
  for (const entry of entries) {
    if (entry.path !== "")
      agents.push({ base: `${hostBase}${entry.path}`, path: entry.path, name: entry.name, description: entry.description });
  }
  return agents;
}

/**
 * An agent's Trust Manifest before it is signed (AI Catalog draft, "Trust Manifest" / "Identity"): `identity` is
 * the entry's `identifier`, the agent's base URL, which the draft requires it to match. `identityType` is the
 * hint ARD §5.1 enumerates (`https`), left out for another scheme (`http` under a development host), where the
 * draft makes it optional since the URI's scheme says it.
 */
export type TrustManifest = {
  identity: string;
  identityType?: "https";
  /** The detached compact JWS over the JCS form of the rest (src/sign/trust-manifest.ts). */
  signature?: string;
};

export const trustManifestOf = (base: string): TrustManifest =>
  base.startsWith("https:") ? { identity: base, identityType: "https" } : { identity: base };

/** Signed Trust Manifests by agent base URL: none without a signing key for this host. */
export type TrustManifests = ReadonlyMap<string, TrustManifest>;

/**
 * The RFC 9727 catalog: one link context anchored at the catalog itself whose `item` links (RFC 6573) are the
 * agents' cards, then one per agent, anchored at its base URL, whose `service-desc` (RFC 8631) is its card.
 * RFC 9264 §4.2: every link relation's value is an array of target objects, each with an `href`.
 */
export function apiCatalog(hostBase: string, root: CatalogRoot, entries: readonly AgentEntry[]) {
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
export function aiCatalog(hostBase: string, root: CatalogRoot, entries: readonly AgentEntry[], trust?: TrustManifests) {
  return {
    specVersion: "1.0",
    entries: listed(hostBase, root, entries).map((agent) => {
      const trustManifest = trust?.get(agent.base);
      return {
        identifier: agent.base,
        displayName: agent.name,
        mediaType: A2A_CARD_TYPE,
        url: `${agent.base}${CARD_PATH}`,
        ...(agent.description ? { description: agent.description } : {}),
        ...(trustManifest ? { trustManifest } : {}),
      };
    }),
  };
}

/**
 * The `Link` header of a card and its page (RFC 8288): RFC 9727 §3 `api-catalog`, the AI Catalog draft's
 * `ai-catalog`, and `ard`, the relation ARD v0.91 tells consumers to follow (the v0.9 snapshot ard.ts follows
 * has none: it points to ai-catalog.json only).
 */
export const catalogLinks = (hostBase: string) =>
  `<${hostBase}${API_CATALOG_PATH}>; rel="api-catalog", <${hostBase}${AI_CATALOG_PATH}>; rel="ai-catalog", <${hostBase}${ARD_PATH}>; rel="ard"`;
