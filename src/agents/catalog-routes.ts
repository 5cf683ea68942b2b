// GET/HEAD /.well-known/api-catalog, /.well-known/ai-catalog.json and /.well-known/ard.json of a host
// (catalog.ts, ard.ts): built from the host's own document and its index of agents (no KV list), cached and
// revalidated like the card (a strong ETag over the bytes, 304, the card's Cache-Control), built once per
// index version and host document. With a signing key for the host, each AI Catalog and ARD entry carries
// its agent's trust manifest, signed here (the builders stay pure).

import { EdgeError } from "../errors/failures";
import type { EdgeRequest } from "../http/edge-request";
import { ifNoneMatchHits, strongEtag } from "../http/etag";
import type { CardSigner } from "../sign/card-signer";
import { ARD_TYPE, ardManifest, ardPublisher } from "./ard";
import {
  AI_CATALOG_TYPE,
  API_CATALOG_TYPE,
  aiCatalog,
  apiCatalog,
  type CatalogRoot,
  listed,
  type TrustManifest,
  type TrustManifests,
  trustManifestOf,
} from "./catalog";
import type { HostIndex } from "./index-copy";
import { agentPathOf } from "./request-agent";

type Which = "api" | "ai" | "ard";
const TYPES: Record<Which, string> = { api: API_CATALOG_TYPE, ai: AI_CATALOG_TYPE, ard: ARD_TYPE };
interface Built {
  body: Uint8Array;
  etag: string;
}

/** Per index copy (a new one per change), per host document and base: the catalog's bytes. */
const built = new WeakMap<HostIndex, Map<string, Promise<Built>>>();
const MAX_PER_INDEX = 64;

/** Per index copy and host base: the agents' signed trust manifests, one signature each for both catalogs. */
const trusted = new WeakMap<HostIndex, Map<string, Promise<TrustManifests>>>();

/** Every listed agent's trust manifest, signed; none without a key, or under a base the key does not sign for. */
async function sign(signer: CardSigner, hostBase: string, root: CatalogRoot, index: HostIndex): Promise<TrustManifests> {
  const agents = listed(hostBase, root, index.entries);
  const manifests = await Promise.all(agents.map((agent) => signer.signTrustManifest(trustManifestOf(agent.base), hostBase)));
  const signed = new Map<string, TrustManifest>();
  agents.forEach((agent, i) => {
    const manifest = manifests[i];
    if (manifest) signed.set(agent.base, manifest);
  });
  return signed;
}

function signedManifests(signer: CardSigner | undefined, hostBase: string, root: CatalogRoot, index: HostIndex): Promise<TrustManifests> {
  if (!signer) return Promise.resolve(new Map());
  let byBase = trusted.get(index);
  if (!byBase) {
    byBase = new Map();
    trusted.set(index, byBase);
  }
  let manifests = byBase.get(hostBase);
  if (!manifests) {
    manifests = sign(signer, hostBase, root, index);
    if (byBase.size < MAX_PER_INDEX) byBase.set(hostBase, manifests);
  }
  return manifests;
}

async function build(which: Which, hostBase: string, root: CatalogRoot, index: HostIndex, signer: CardSigner | undefined): Promise<Built> {
  let document: unknown;
  if (which === "api") document = apiCatalog(hostBase, root, index.entries);
  else {
    const trust = await signedManifests(signer, hostBase, root, index);
    document = which === "ai" ? aiCatalog(hostBase, root, index.entries, trust) : ardManifest(hostBase, root, index.entries, trust);
  }
  const body = new TextEncoder().encode(JSON.stringify(document));
  return { body, etag: await strongEtag(body) };
}

export async function catalogResponse(edge: EdgeRequest, which: Which): Promise<Response> {
  // A catalog is the host's: a path agent has none of its own. ARD identifiers need a domain name (ard.ts).
  if (agentPathOf(edge.request) !== "") throw new EdgeError("NOT_FOUND");
  if (which === "ard" && ardPublisher(edge.hostBase) === undefined) throw new EdgeError("NOT_FOUND");
  const { runtime } = edge;
  const index = await runtime.agents.of(edge.hostname, edge.keepAlive);
  const root = await runtime.cards.source(edge.hostname, edge.keepAlive);
  let byKey = built.get(index);
  if (!byKey) {
    byKey = new Map();
    built.set(index, byKey);
  }
  // Each part whole (JSON), so no name or description can pass for another split of the same words.
  const key = JSON.stringify([which, edge.hostBase, root.name, root.description, root.provider?.organization]);
  let catalog = byKey.get(key);
  if (!catalog) {
    catalog = build(which, edge.hostBase, root, index, runtime.signer);
    if (byKey.size < MAX_PER_INDEX) byKey.set(key, catalog);
  }
  const { body, etag } = await catalog;
  const { cardMaxAge, cardStaleWhileRevalidate } = runtime.config;
  const headers = {
    "access-control-allow-origin": "*",
    "cache-control": `public, max-age=${cardMaxAge}, stale-while-revalidate=${cardStaleWhileRevalidate}`,
    etag,
  };
  if (ifNoneMatchHits(edge.request.headers.get("if-none-match"), etag)) return new Response(null, { status: 304, headers });
  return new Response(body, { headers: { ...headers, "content-type": TYPES[which] } });
}
