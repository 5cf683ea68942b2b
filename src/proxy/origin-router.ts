// Where a JSON-RPC call goes and how the edge reaches it: a Service Binding
// (`ORIGIN`, when the origin is itself a Worker), else fetch to the region
// map's candidates for the request's colo/continent, then ORIGIN_URL; or the
// origin a host's document names, when DOCUMENT_ORIGINS allows it.

import { originsOf } from "../card/from-origin";
import type { CardSource } from "../card/source";
import type { Config } from "../config";
import { log } from "../log";

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

export interface RequestLocation {
  /** request.cf.colo, e.g. FRA */
  colo?: string | undefined;
  /** request.cf.continent, e.g. EU */
  continent?: string | undefined;
}

/** The URL a Service Binding request carries when ORIGIN_URL is unset (the binding ignores the host). */
const BINDING_URL = "https://origin.invalid/";
/** Hosts whose document named a refused origin, logged once each; bounded (hosts come from requests). */
const MAX_REFUSALS_LOGGED = 1000;

export interface OriginRoute {
  /** Ordered: later entries are tried only when an earlier one cannot be connected to. */
  candidates: string[];
  /** `scheme://host[:port]` of every private URL involved: never shown to a client. */
  privateOrigins: readonly string[];
  /** Their `host[:port]`, lower case, as response headers are checked against them. */
  privateHosts: readonly string[];
  /**
   * The origin's own headers: ORIGIN_HEADERS for ORIGIN_URL and the regions; for a document's own origin, the
   * ORIGIN_CREDENTIALS entry it names, or none: one agent's credentials never reach another agent's origin.
   */
  headers: Readonly<Record<string, string>>;
}

function hostsOf(origins: readonly string[]): string[] {
  return origins.map((origin) => new URL(origin).host.toLowerCase());
}

/**
 * Ordered candidates: the region map's entry for the colo, else for the
 * continent, then ORIGIN_URL as the last resort.
 */
function originCandidates(config: Pick<Config, "originRegions" | "originUrl" | "originRestUrl">, where: RequestLocation): string[] {
  const regional = (where.colo && config.originRegions[where.colo]) || (where.continent && config.originRegions[where.continent]) || [];
  // A REST origin (ORIGIN_REST_URL) is a configured origin too: the call goes there (origins/rest-origin.ts).
  const last = config.originUrl ?? config.originRestUrl;
  const all = last ? [...regional, last] : [...regional];
  return [...new Set(all)];
}

/** The origin endpoint with the client's query string (e.g. ?A2A-Version=1.0, A2A 1.0 §3.6) merged in. */
export function withClientQuery(originUrl: string, search: string): string {
  if (search === "" || search === "?") return originUrl;
  const url = new URL(originUrl);
  for (const [key, value] of new URLSearchParams(search)) url.searchParams.append(key, value);
  return url.href;
}

export class OriginRouter {
  /** `scheme://host[:port]` of every configured private URL. */
  readonly privateOrigins: readonly string[];
  readonly #privateHosts: readonly string[];
  readonly #refusedHosts = new Set<string>();

  constructor(
    private readonly config: Config,
    private readonly binding: Fetcher | undefined,
    private readonly fetchImpl: FetchLike,
  ) {
    const configured = [config.originUrl, config.originCardUrl, config.originRestUrl, ...Object.values(config.originRegions).flat()];
    this.privateOrigins = originsOf(configured);
    this.#privateHosts = hostsOf(this.privateOrigins);
  }

  get hasBinding(): boolean {
    return this.binding !== undefined;
  }

  /** The route of one call: the host document's own origin if allowed, else the binding or the region map. */
  route(document: CardSource, hostname: string, where: RequestLocation): OriginRoute {
    const named = this.#documentOrigin(document, hostname);
    if (named) {
      const privateOrigins = [...this.privateOrigins, ...originsOf([named])];
      const credentials = document.originCredentials;
      const headers = credentials === undefined ? {} : this.config.originCredentials[credentials];
      // A name the configuration lacks: no origin to call with the credentials the operator meant.
      if (!headers) return this.#unknownCredentials(hostname, privateOrigins);
      return { candidates: [named], privateOrigins, privateHosts: hostsOf(privateOrigins), headers };
    }
    const candidates = this.binding ? [this.config.originUrl ?? BINDING_URL] : originCandidates(this.config, where);
    return { candidates, privateOrigins: this.privateOrigins, privateHosts: this.#privateHosts, headers: this.config.originHeaders };
  }

  #unknownCredentials(hostname: string, privateOrigins: readonly string[]): OriginRoute {
    if (this.#refusedHosts.size < MAX_REFUSALS_LOGGED && !this.#refusedHosts.has(`credentials:${hostname}`)) {
      this.#refusedHosts.add(`credentials:${hostname}`);
      log("error", "document_credentials_unknown", { host: hostname });
    }
    return { candidates: [], privateOrigins, privateHosts: hostsOf(privateOrigins), headers: {} };
  }

  send(url: string, init: RequestInit): Promise<Response> {
    return this.binding ? this.binding.fetch(url, init) : this.fetchImpl(url, init);
  }

  readonly #labels = new Map<string, string>();

  /** What a log line may say about an origin: its host (never a path, query or credential); parsed once per URL. */
  label(url: string): string {
    if (this.binding) return "service-binding:ORIGIN";
    let label = this.#labels.get(url);
    if (label === undefined) {
      try {
        label = new URL(url).host;
      } catch {
        label = "invalid";
      }
      if (this.#labels.size < MAX_REFUSALS_LOGGED) this.#labels.set(url, label);
    }
    return label;
  }

  /**
   * A document is data (KV, admin API) and the origin gets ORIGIN_HEADERS, so
   * the origin it names is used only if DOCUMENT_ORIGINS lists it, and never
   * with a Service Binding.
   */
  #documentOrigin(document: CardSource, hostname: string): string | undefined {
    const named = document.originUrl;
    if (!named) return undefined;
    if (!this.binding && this.config.documentOrigins.has(new URL(named).origin)) return named;
    if (this.#refusedHosts.size < MAX_REFUSALS_LOGGED && !this.#refusedHosts.has(hostname)) {
      this.#refusedHosts.add(hostname);
      const reason = this.binding ? "service_binding" : "not_in_DOCUMENT_ORIGINS";
      log("warn", "document_origin_refused", { host: hostname, origin: new URL(named).host, reason });
    }
    return undefined;
  }
}
