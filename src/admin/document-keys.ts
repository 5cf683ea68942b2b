// The keys of card-source documents as the admin API takes them (`default`, a hostname, or a hostname and an
// agent path), and the public base each key's card is served under.
import type { Context } from "hono";
import { parseAgentPath, reservedCollision, splitKey } from "../agents/agent-paths";
import { DEFAULT_KEY, isDocumentKey } from "../card/store";
import { EdgeError } from "../errors/failures";
import { publicBaseUrl } from "../http/public-base";
import { normalizeHost, requestTarget } from "../http/request-target";
import { RELAY_PATH } from "../push/relay-configs";
import type { Runtime } from "../runtime";

const KEY_FORM =
  'The key must be "default", a hostname such as agents.example.com, or a hostname and an agent path such as agents.example.com/travel';

/**
 * The paths the edge answers itself on every host: an agent path may be none of them, nor under nor above one.
 * FEED_PATH too, even while the feed is off (as the relay's path is while the relay is off): the feed, turned on
 * later, would find an agent in its place. MASTRA_API_PREFIX when set: its paths are framework clients' ways to agents.
 */
function reservedPaths(runtime: Runtime): (string | undefined)[] {
  const { rpcPath, restPath, adminPath, feedPath, mastraApiPrefix } = runtime.config;
  return [rpcPath, restPath, adminPath, feedPath, mastraApiPrefix, RELAY_PATH, "/.well-known"];
}

/** The key as documents are stored: `default`, a hostname in its one form (lower case, no trailing dot), or that and an agent path. */
export function documentKey(raw: string, runtime: Runtime): string {
  const { host, path } = splitKey(raw);
  const hostname = host === DEFAULT_KEY ? host : normalizeHost(host);
  const parsed = path === "" ? { path } : parseAgentPath(path);
  if ("invalid" in parsed) throw new EdgeError("BAD_REQUEST", `${KEY_FORM}: ${parsed.invalid}`);
  const key = `${hostname}${parsed.path}`;
  if (!isDocumentKey(key) || (hostname === DEFAULT_KEY && parsed.path !== "")) throw new EdgeError("BAD_REQUEST", KEY_FORM);
  const collision = parsed.path === "" ? undefined : reservedCollision(parsed.path, reservedPaths(runtime));
  if (collision) throw new EdgeError("BAD_REQUEST", collision);
  const allowlist = runtime.config.hostAllowlist;
  if (allowlist && key !== DEFAULT_KEY && !allowlist.has(hostname))
    throw new EdgeError("BAD_REQUEST", "The hostname is not in HOST_ALLOWLIST");
  return key;
}

/**
 * The public base the key's card is served under, `/<path>` of a `<hostname>/<path>` key after it: the base the
 * card route builds for a request to that card (edge-request.ts), so that the ETag and URL a write announces (its
 * feed event, its registry webhooks) are the ones a client then gets. PUBLIC_BASE_URL wins, as for requests.
 */
export function baseFor(c: Context<{ Bindings: Env }>, runtime: Runtime, key: string): string {
  const { config } = runtime;
  if (config.publicBaseUrl) return `${config.publicBaseUrl}${splitKey(key).path}`;
  const target = requestTarget(c.req.url);
  const own = publicBaseUrl(target, c.req.raw.headers, config);
  if (key === DEFAULT_KEY) return own;
  const { host, path } = splitKey(key);
  const url = new URL(own);
  // The admin request came to the key's own host (`npm run dev`: 127.0.0.1:8787 and its path agents): its base is the card's.
  if (url.hostname === host) return `${own}${path}`;
  // Another host the edge serves on this port (HOST_ALLOWLIST's `localhost:8787` beside 127.0.0.1:8787): that authority.
  const authority = `${host}:${url.port}`;
  if (url.port !== "" && config.hostAllowlist?.authorities.has(authority)) return `${url.protocol}//${authority}${path}`;
  // Otherwise the host as deployed: https on its default port.
  return `https://${key}`;
}
