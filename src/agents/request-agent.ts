// The agent a request is for, found once at the front door (app.ts) before any route: the longest of the
// host's agent paths (its index, index-copy.ts) that the request path is under. Every route then sees the
// request without that path (routedTarget with requestPrefix) and builds its URLs under it (edge-request.ts),
// so a path agent's card, page, JWKS, JSON-RPC and REST endpoints are the host's, one level down.
import type { KeepAlive } from "../http/body";
import { isServedHost, publicBaseUrl } from "../http/public-base";
import { routedTarget } from "../http/request-target";
import type { Runtime } from "../runtime";
import { matchAgent } from "./agent-paths";
import type { HostIndex } from "./index-copy";

const agentPaths = new WeakMap<Request, string>();

/** The request's agent path (`/travel`), "" for the host's own agent. */
export const agentPathOf = (request: Request): string => agentPaths.get(request) ?? "";

/** The path every route strips from this request: PUBLIC_BASE_URL's, then the agent's. */
export const requestPrefix = (request: Request, runtime: Runtime): string => runtime.pathPrefix + agentPathOf(request);

/**
 * Whether `pathname` could be under an agent path at all: no agent path starts with `.` or `_` (the host's
 * own `/.well-known/...`, the relay's `/_push`, `/_admin`, `/_feed`) nor lies under REST_PATH, ADMIN_PATH,
 * FEED_PATH or MASTRA_API_PREFIX (refused when written; a framework client's path is already the agent's own): the host's own card, RPC, REST and feed read no index, so an agent stored
 * there before (by hand, or before FEED_PATH moved) never takes their requests.
 */
function mayBeAgent(pathname: string, runtime: Runtime): boolean {
  const first = pathname.charCodeAt(1);
  const letterOrDigit = (first >= 97 && first <= 122) || (first >= 48 && first <= 57);
  if (!letterOrDigit) return false;
  const { restPath, adminPath, feedPath, mastraApiPrefix } = runtime.config;
  const under = (prefix: string | undefined) => prefix !== undefined && (pathname === prefix || pathname.startsWith(`${prefix}/`));
  return !under(restPath) && !under(adminPath) && !under(feedPath) && !under(mastraApiPrefix);
}

/** Records the request's agent path; synchronous when the isolate holds the host's index (the hot path). */
export function findAgent(request: Request, runtime: Runtime, keepAlive: KeepAlive): undefined | Promise<void> {
  const target = routedTarget(request.url, runtime.pathPrefix);
  const { pathname } = target;
  if (!mayBeAgent(pathname, runtime)) return undefined;
  // The public hostname, as admitRequest reads it: the index is that host's.
  const base = publicBaseUrl(target, request.headers, runtime.config);
  const hostname = base === target.origin ? target.hostname : new URL(base).hostname;
  if (!isServedHost(runtime.config, hostname)) return undefined;
  const index = runtime.agents.of(hostname, keepAlive);
  const record = ({ paths }: HostIndex) => {
    const path = matchAgent(pathname, paths);
    if (path) agentPaths.set(request, path);
  };
  if (index instanceof Promise) return index.then(record);
  record(index);
  return undefined;
}
