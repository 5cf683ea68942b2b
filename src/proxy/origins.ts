// Which origin a JSON-RPC call goes to (pure).
import type { Config } from "../config";

export interface RequestLocation {
  /** request.cf.colo, e.g. FRA */
  colo?: string | undefined;
  /** request.cf.continent, e.g. EU */
  continent?: string | undefined;
}

/**
 * Ordered candidates: the region map's entry for the colo, else for the
 * continent, then ORIGIN_URL as the last resort. Later entries are tried only
 * when an earlier one cannot be connected to.
 */
export function originCandidates(config: Pick<Config, "originRegions" | "originUrl">, where: RequestLocation): string[] {
  const regional = (where.colo && config.originRegions[where.colo]) || (where.continent && config.originRegions[where.continent]) || [];
  const all = config.originUrl ? [...regional, config.originUrl] : [...regional];
  return [...new Set(all)];
}

/** Every private URL the config names (their origins must never reach a client). */
export function configuredOriginUrls(config: Pick<Config, "originRegions" | "originUrl" | "originCardUrl">): string[] {
  return [config.originUrl, config.originCardUrl, ...Object.values(config.originRegions).flat()].filter((u): u is string => !!u);
}

/** The origin endpoint with the client's query string (e.g. ?A2A-Version=1.0, A2A 1.0 §3.6) merged in. */
export function withClientQuery(originUrl: string, search: string): string {
  if (search === "" || search === "?") return originUrl;
  const url = new URL(originUrl);
  for (const [key, value] of new URLSearchParams(search)) url.searchParams.append(key, value);
  return url.href;
}
