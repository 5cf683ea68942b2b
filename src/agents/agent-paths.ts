// Agents by path: one hostname serving several agents, each under a path of its own (`/travel`,
// `/billing/eu`), keyed in KV and the admin API as `<hostname><path>` (`agents.example.com/travel`). Pure:
// the one form of a path, keys, the paths an agent may not take, and the longest-prefix match of a request
// path against the paths a host serves. The host's own agent (key `<hostname>`) stays at the root.

/** At most this many segments: the match walks a request path's prefixes, not the host's list. */
const MAX_AGENT_SEGMENTS = 4;
/** Lower case, unreserved characters only (RFC 3986 §2.3) and no dot segments: one spelling per agent, never encoded. */
const SEGMENT = /^[a-z0-9](?:[a-z0-9_-]{0,62})$/;
/** Segments that name admin sub-resources of a document (`/documents/<key>/versions`): never an agent's last one. */
const ADMIN_SUFFIXES = new Set(["repairs", "versions", "rollback"]);

/** `/travel` from `travel`, `/travel/` or `/travel`; undefined when it is no agent path (with why). */
export function parseAgentPath(raw: string): { path: string } | { invalid: string } {
  const segments = raw.replace(/^\/+|\/+$/g, "").split("/");
  if (segments.length > MAX_AGENT_SEGMENTS) return { invalid: `an agent path has at most ${MAX_AGENT_SEGMENTS} segments` };
  if (!segments.every((segment) => SEGMENT.test(segment))) {
    return { invalid: "each segment of an agent path is lower-case letters, digits, - and _ (at most 63)" };
  }
  if (ADMIN_SUFFIXES.has(segments.at(-1) ?? "")) return { invalid: "an agent path may not end in repairs, versions or rollback" };
  return { path: `/${segments.join("/")}` };
}

/** A document key's hostname and agent path ("" for the host's own agent and `default`). */
export function splitKey(key: string): { host: string; path: string } {
  const slash = key.indexOf("/");
  return slash < 0 ? { host: key, path: "" } : { host: key.slice(0, slash), path: key.slice(slash) };
}

const under = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix === "/" ? "" : prefix}/`);

/**
 * Why an agent path collides with a path the edge answers itself (RPC_PATH, REST_PATH, ADMIN_PATH, the push
 * relay's and the well-known ones), either way round; undefined when it does not.
 */
export function reservedCollision(path: string, reserved: readonly (string | undefined)[]): string | undefined {
  for (const taken of reserved) {
    if (taken === undefined || taken === "/") continue;
    if (under(path, taken) || under(taken, path)) return `the agent path ${path} collides with ${taken}, which the edge answers itself`;
  }
  return undefined;
}

/**
 * The longest of `paths` that `pathname` is at or under, on a segment boundary (`/travelers` is not under
 * `/travel`); undefined for none. Walks the request path's own prefixes (at most MAX_AGENT_SEGMENTS
 * look-ups), so the cost does not grow with the number of agents.
 */
export function matchAgent(pathname: string, paths: ReadonlySet<string>): string | undefined {
  if (paths.size === 0) return undefined;
  let end = 0;
  let found: string | undefined;
  for (let depth = 0; depth < MAX_AGENT_SEGMENTS; depth++) {
    const next = pathname.indexOf("/", end + 1);
    const prefix = next < 0 ? pathname : pathname.slice(0, next);
    if (prefix.length <= 1) break;
    if (paths.has(prefix)) found = prefix;
    if (next < 0) break;
    end = next;
  }
  return found;
}
