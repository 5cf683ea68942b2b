// The parts of a request URL the card path needs. workerd hands the worker a
// normalized absolute URL (`scheme://host[:port]/path[?query]`, no userinfo,
// no fragment), so plain string slicing gives the same parts as `new URL()`
// without allocating a URL object per request (the card is the hot path).
export interface RequestTarget {
  /** `https:` or `http:` */
  protocol: string;
  /** host[:port], as in URL.host */
  host: string;
  /** host without port, as in URL.hostname */
  hostname: string;
  /** scheme://host[:port], as in URL.origin */
  origin: string;
  pathname: string;
  /** `?...` or "" */
  search: string;
}

/**
 * The one form of a host used for every decision (card document, allowlist,
 * origin routing, URLs): lower case (RFC 3986 §3.2.2: hosts are
 * case-insensitive) and without the trailing dot of a fully qualified name.
 * workerd passes the Host header's case through, so `A.EXAMPLE.COM` and
 * `a.example.com.` must not become other agents.
 */
export function normalizeHost(host: string): string {
  const lower = host.toLowerCase();
  const portStart = lower.lastIndexOf(":");
  if (portStart > lower.lastIndexOf("]")) {
    const name = lower.slice(0, portStart);
    return name.endsWith(".") ? `${name.replace(/\.+$/, "")}${lower.slice(portStart)}` : lower;
  }
  return lower.endsWith(".") ? lower.replace(/\.+$/, "") : lower;
}

export function requestTarget(url: string): RequestTarget {
  const afterScheme = url.indexOf("://") + 3;
  let pathStart = url.indexOf("/", afterScheme);
  if (pathStart === -1) pathStart = url.length;
  const queryStart = url.indexOf("?", pathStart);
  const host = normalizeHost(url.slice(afterScheme, pathStart));
  const portStart = host.lastIndexOf(":");
  const hostname = portStart > host.lastIndexOf("]") ? host.slice(0, portStart) : host;
  const protocol = url.slice(0, afterScheme - 2).toLowerCase();
  return {
    protocol,
    host,
    hostname,
    origin: `${protocol}//${host}`,
    pathname: queryStart === -1 ? url.slice(pathStart) || "/" : url.slice(pathStart, queryStart) || "/",
    search: queryStart === -1 ? "" : url.slice(queryStart),
  };
}

/**
 * The path as routed: a request under the PUBLIC_BASE_URL path (a Workers route
 * such as `example.com/agents/*` hands the worker the whole path) loses the
 * prefix; a request a proxy already stripped is routed as it is.
 */
export function withoutPrefix(pathname: string, prefix: string): string {
  if (prefix === "" || !pathname.startsWith(prefix)) return pathname;
  const rest = pathname.slice(prefix.length);
  return rest === "" ? "/" : rest.startsWith("/") ? rest : pathname;
}

/** The request's target, its path as routed (`withoutPrefix`). */
export function routedTarget(url: string, prefix: string): RequestTarget {
  const target = requestTarget(url);
  return prefix === "" ? target : { ...target, pathname: withoutPrefix(target.pathname, prefix) };
}

/** One query parameter, only when there is a query at all. */
export function searchParam(target: RequestTarget, name: string): string | null {
  return target.search === "" ? null : new URLSearchParams(target.search).get(name);
}
