// ARD's capability manifest of a host, pure: the Agentic Resource Discovery specification (ards-project/ard-spec
// at commit 5fa2f5a of 2026-07-15, the v0.9 draft: §4.1 manifest, §4.2 entry, §4.2.1 identifier, §4.3 host,
// §5.1 trust manifest), served at `/.well-known/ard.json`, where ARD v0.91 tells consumers to look (v0.9 puts
// this manifest at ai-catalog.json, which here stays the AI Catalog draft's shape: catalog.ts). The agents
// are the other catalogs' (catalog.ts `listed`).
import { A2A_CARD_TYPE, CARD_PATH, type CatalogRoot, type Listed, listed, type TrustManifests } from "./catalog";
import type { AgentEntry } from "./index-copy";

/**
 * ARD names no media type for its manifest (its OpenAPI document, spec/schemas/ard.openapi.yaml, describes a
 * registry's REST answers only, all `application/json`). `application/ai-catalog+json` is the AI Catalog
 * draft's, whose entries carry `mediaType` where ARD's carry `type`: it would claim a shape this is not.
 */
export const ARD_TYPE = "application/json";

/** §4.2.1 / ai-catalog.schema.json: `<publisher>` is a domain name, `[a-zA-Z0-9.-]+`. */
const PUBLISHER = /^[A-Za-z0-9.-]+$/;
/** The `<namespace>` of every identifier here: the host publishes agents. */
const NAMESPACE = "agent";
/** At most an agent path segment's length (agent-paths.ts), so a name-derived segment reads like a path one. */
const MAX_SEGMENT = 63;

/**
 * The `<publisher>` of the host's identifiers: its hostname, without the port (§4.2.1 anchors the identifier
 * in a domain name, and a port is location, not identity); undefined for a host no identifier can name (an
 * IPv6 literal: its colons would read as segments).
 */
export function ardPublisher(hostBase: string): string | undefined {
  const { hostname } = new URL(hostBase);
  return PUBLISHER.test(hostname) ? hostname : undefined;
}

/** The host's own agent has no path: one segment from its name, in an agent path segment's characters. */
function nameSegment(name: string): string {
  const folded = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase();
  const token = folded
    .replace(/[^a-z0-9_-]+/g, "-")
    .slice(0, MAX_SEGMENT)
    .replace(/^[-_]+|[-_]+$/g, "");
  return token === "" ? NAMESPACE : token;
}

/**
 * `urn:air:<publisher>:agent:<name-or-path>` (§4.2.1, RFC 8141): an agent by path by its path, one segment per
 * path segment (`/billing/eu` is `agent:billing:eu`: §4.2.1's hierarchical segments), the host's own agent by
 * its name. Paths are stable and unique, so they keep theirs; a name equal to a one-segment path takes the
 * first free `-2`, `-3` ... (identifiers are unique within a catalog, like the AI Catalog draft's).
 */
function identifiers(publisher: string, agents: readonly Listed[]): Map<string, string> {
  const urn = (rest: string) => `urn:air:${publisher}:${NAMESPACE}:${rest}`;
  const byBase = new Map<string, string>();
  for (const agent of agents) if (agent.path !== "") byBase.set(agent.base, urn(agent.path.slice(1).replaceAll("/", ":")));
  const taken = new Set(byBase.values());
  for (const agent of agents) {
    if (agent.path !== "") continue;
    const segment = nameSegment(agent.name);
    let identifier = urn(segment);
    for (let n = 2; taken.has(identifier); n++) identifier = urn(`${segment}-${n}`);
    byBase.set(agent.base, identifier);
  }
  return byBase;
}

/**
 * The manifest (§4.1): `specVersion`, the host (§4.3: the document's provider, else the domain, which is also
 * its identifier) and an entry per agent (§4.2: identifier, displayName, type, the card's `url`, description),
 * each with its signed trust manifest when there is one (§5.1; the same as the AI Catalog entry's: `identity` is
 * the agent's base URL, the workload identifier §5.1 keeps apart from the URN, on the URN's domain).
 * Undefined for a host without a publisher (ardPublisher).
 */
export function ardManifest(hostBase: string, root: CatalogRoot, entries: readonly AgentEntry[], trust?: TrustManifests) {
  const publisher = ardPublisher(hostBase);
  if (publisher === undefined) return undefined;
  const agents = listed(hostBase, root, entries);
  const identifier = identifiers(publisher, agents);
  return {
    specVersion: "1.0",
    host: { displayName: root.provider?.organization ?? publisher, identifier: publisher },
    entries: agents.map((agent) => {
      const trustManifest = trust?.get(agent.base);
      return {
        identifier: identifier.get(agent.base),
        displayName: agent.name,
        type: A2A_CARD_TYPE,
        url: `${agent.base}${CARD_PATH}`,
        ...(agent.description ? { description: agent.description } : {}),
        ...(trustManifest ? { trustManifest } : {}),
      };
    }),
  };
}
