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

export function requestTarget(url: string): RequestTarget {
  const afterScheme = url.indexOf("://") + 3;
  let pathStart = url.indexOf("/", afterScheme);
  if (pathStart === -1) pathStart = url.length;
  const queryStart = url.indexOf("?", pathStart);
  const host = url.slice(afterScheme, pathStart);
  const portStart = host.lastIndexOf(":");
  const hostname = portStart > host.lastIndexOf("]") ? host.slice(0, portStart) : host;
  return {
    protocol: url.slice(0, afterScheme - 2),
    host,
    hostname,
    origin: url.slice(0, pathStart),
    pathname: queryStart === -1 ? url.slice(pathStart) || "/" : url.slice(pathStart, queryStart) || "/",
    search: queryStart === -1 ? "" : url.slice(queryStart),
  };
}

/** One query parameter, only when there is a query at all. */
export function searchParam(target: RequestTarget, name: string): string | null {
  return target.search === "" ? null : new URLSearchParams(target.search).get(name);
}
