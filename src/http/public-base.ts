// The public base URL (scheme://host[/prefix]) every card URL is built from.
// On Cloudflare `request.url` already carries the host and scheme the client
// used. X-Forwarded-* come from whoever sent the request, so they count only
// when the operator says a trusted proxy sets them: trusting them by default
// would let anyone poison a cached card with their own host.
import { parsePath, type Config } from "../config";
import type { RequestTarget } from "./request-url";

const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** First element of a comma-separated header (proxies append their own hop). */
function firstValue(headers: Headers, name: string): string | undefined {
  const value = headers.get(name)?.split(",")[0]?.trim();
  return value === "" ? undefined : value;
}

function forwardedOrigin(requestUrl: RequestTarget, headers: Headers): string {
  const proto = firstValue(headers, "x-forwarded-proto")?.toLowerCase();
  const scheme = proto === "http" || proto === "https" ? proto : requestUrl.protocol.slice(0, -1);
  const host = firstValue(headers, "x-forwarded-host");
  const authority = host !== undefined && host.length <= 260 && HOST.test(host) ? host : requestUrl.host;
  try {
    return new URL(`${scheme}://${authority}`).origin;
  } catch {
    return requestUrl.origin;
  }
}

function forwardedPrefix(headers: Headers): string {
  const prefix = firstValue(headers, "x-forwarded-prefix");
  if (prefix === undefined) return "";
  try {
    const path = parsePath(prefix);
    return path === "/" ? "" : path;
  } catch {
    return "";
  }
}

export type BaseConfig = Pick<Config, "publicBaseUrl" | "trustForwardedHeaders">;

/** Public base URL without trailing slash, e.g. `https://agents.example.com`. */
export function publicBaseUrl(requestUrl: RequestTarget, headers: Headers, config: BaseConfig): string {
  if (config.publicBaseUrl !== undefined) return config.publicBaseUrl;
  if (!config.trustForwardedHeaders) return requestUrl.origin;
  return forwardedOrigin(requestUrl, headers) + forwardedPrefix(headers);
}
