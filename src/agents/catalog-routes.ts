// GET/HEAD /.well-known/api-catalog and /.well-known/ai-catalog.json of a host (catalog.ts): built from the
// host's own document and its index of agents (no KV list), cached and revalidated like the card (a strong
// ETag over the bytes, 304, the card's Cache-Control), built once per index version and host document.

import { EdgeError } from "../errors/failures";
import type { EdgeRequest } from "../http/edge-request";
import { ifNoneMatchHits, strongEtag } from "../http/etag";
import { AI_CATALOG_TYPE, API_CATALOG_TYPE, aiCatalog, apiCatalog } from "./catalog";
import type { HostIndex } from "./index-copy";
import { agentPathOf } from "./request-agent";

type Which = "api" | "ai";
interface Built {
  body: Uint8Array;
  etag: string;
}

/** Per index copy (a new one per change), per host document and base: the catalog's bytes. */
const built = new WeakMap<HostIndex, Map<string, Promise<Built>>>();
const MAX_PER_INDEX = 64;

async function build(which: Which, hostBase: string, root: { name: string; description: string }, index: HostIndex): Promise<Built> {
  const document = which === "api" ? apiCatalog(hostBase, root, index.entries) : aiCatalog(hostBase, root, index.entries);
  const body = new TextEncoder().encode(JSON.stringify(document));
  return { body, etag: await strongEtag(body) };
}

export async function catalogResponse(edge: EdgeRequest, which: Which): Promise<Response> {
  // A catalog is the host's: a path agent has none of its own.
  if (agentPathOf(edge.request) !== "") throw new EdgeError("NOT_FOUND");
  const { runtime } = edge;
  const index = await runtime.agents.of(edge.hostname, edge.keepAlive);
  const root = await runtime.cards.source(edge.hostname, edge.keepAlive);
  let byKey = built.get(index);
  if (!byKey) {
    byKey = new Map();
    built.set(index, byKey);
  }
  const key = `${which} ${edge.hostBase} ${root.name} ${root.description}`;
  let catalog = byKey.get(key);
  if (!catalog) {
    catalog = build(which, edge.hostBase, root, index);
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
  return new Response(body, { headers: { ...headers, "content-type": which === "api" ? API_CATALOG_TYPE : AI_CATALOG_TYPE } });
}
