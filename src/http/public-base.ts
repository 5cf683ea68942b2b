// The public base URL (scheme://host[/prefix]) every card URL is built from.
// On Cloudflare `request.url` already carries the host and scheme the client
// used. X-Forwarded-* come from whoever sent the request, so they count only
// when the operator says a trusted proxy sets them: trusting them by default
// would let anyone poison a cached card with their own host.
import type { Config } from "../config";
import { normalizeHost, type RequestTarget } from "./request-target";

const HOST =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** First element of a comma-separated header (proxies append their own hop). */
function firstValue(headers: Headers, name: string): string | undefined {
  const value = headers.get(name)?.split(",")[0]?.trim();
  return value === "" ? undefined : value;
}

function forwardedOrigin(requestUrl: RequestTarget, headers: Headers): string {
  const proto = firstValue(headers, "x-forwarded-proto")?.toLowerCase();
  const scheme = proto === "http" || proto === "https" ? proto : requestUrl.protocol.slice(0, -1);
  const forwarded = firstValue(headers, "x-forwarded-host");
  // Normalized before it is checked, like the request's own host: `Agents.Example.com.` is agents.example.com.
  const host = forwarded === undefined ? undefined : normalizeHost(forwarded);
  const authority = host !== undefined && host.length <= 260 && HOST.test(host) ? host : requestUrl.host;
  try {
    return new URL(`${scheme}://${authority}`).origin;
  } catch {
    return requestUrl.origin;
  }
}

/**
 * Segments of unreserved characters and percent-escapes only (RFC 3986 §2.3):
 * the prefix is copied into card URLs and the page's shell command, so
 * sub-delimiters such as `$ ( ) ' ;` are refused, not just made safe later.
 */
const PREFIX = /^(?:\/(?:[A-Za-z0-9._~-]|%[0-9A-Fa-f]{2})+)+\/?$/;

function forwardedPrefix(headers: Headers): string {
  const prefix = firstValue(headers, "x-forwarded-prefix");
  if (prefix === undefined || prefix.length > 200 || !PREFIX.test(prefix)) return "";
  const segments = prefix.split("/").filter((s) => s !== "");
  return segments.some((s) => s === "." || s === "..") ? "" : `/${segments.join("/")}`;
}

export type BaseConfig = Pick<Config, "publicBaseUrl" | "trustForwardedHeaders">;

/** Public base URL without trailing slash, e.g. `https://agents.example.com`. */
export function publicBaseUrl(requestUrl: RequestTarget, headers: Headers, config: BaseConfig): string {
  if (config.publicBaseUrl !== undefined) return config.publicBaseUrl;
  if (!config.trustForwardedHeaders) return requestUrl.origin;
  return forwardedOrigin(requestUrl, headers) + forwardedPrefix(headers);
}

/**
 * Whether a card served under `base` is signed: a signature vouches for the card's URLs, so only under
 * PUBLIC_BASE_URL or a host[:port] HOST_ALLOWLIST names (an entry without a port names the default port:
 * `agents.example.com` does not sign for `agents.example.com:9999`).
 */
export function signsFor(config: Pick<Config, "publicBaseUrl" | "hostAllowlist">, base: string): boolean {
  if (config.publicBaseUrl !== undefined) return true;
  return config.hostAllowlist?.authorities.has(new URL(base).host) ?? false;
}

/** HOST_ALLOWLIST: the one check every route makes (unset = every host is served). */
export function isServedHost(config: Pick<Config, "hostAllowlist">, hostname: string): boolean {
  return config.hostAllowlist === undefined || config.hostAllowlist.has(hostname);
}
