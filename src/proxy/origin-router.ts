// Where a JSON-RPC call goes and how the edge reaches it: a Service Binding
// (`ORIGIN`, when the origin is itself a Worker) or a Workers VPC Service
// (`ORIGIN_VPC`, an origin in a private network with no public hostname), else
// fetch to the region map's candidates for the request's colo/continent, then
// ORIGIN_URL; or the origin a host's document names, when DOCUMENT_ORIGINS
// allows it, or the VPC Service it names, when DOCUMENT_VPC_SERVICES lists it.

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
/**
 * The URL a VPC Service request carries when none is configured. The service's own configuration routes it;
 * the URL's host is only the Host header (and, over https, the TLS name) the private service sees, its port is
 * ignored, its scheme picks the service's HTTP or HTTPS port (developers.cloudflare.com/workers-vpc/api/, the
 * note under `fetch()`). Plain http: a TLS name `origin.invalid` would fail the service's certificate check.
 */
const VPC_URL = "http://origin.invalid/";

/** A binding the edge reaches an origin through: `ORIGIN`, `ORIGIN_VPC` or a document's VPC Service. */
export interface OriginBinding {
  /** The env name, as log lines show it. */
  name: string;
  kind: "service-binding" | "vpc-service";
  fetcher: Fetcher;
}
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
  /** The binding every candidate goes through; none: fetch. */
  through?: OriginBinding | undefined;
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
    private readonly binding: OriginBinding | undefined,
    private readonly fetchImpl: FetchLike,
    /** The bindings DOCUMENT_VPC_SERVICES lists that the Worker has, by name: never any other binding. */
    private readonly documentBindings: ReadonlyMap<string, Fetcher> = new Map(),
  ) {
    const configured = [config.originUrl, config.originCardUrl, config.originRestUrl, ...Object.values(config.originRegions).flat()];
    this.privateOrigins = originsOf(configured);
    this.#privateHosts = hostsOf(this.privateOrigins);
  }

  /** The route of one call: the host document's own origin if allowed, else the binding or the region map. */
  route(document: CardSource, hostname: string, where: RequestLocation): OriginRoute {
    if (document.originVpc !== undefined) return this.#vpcRoute(document, hostname);
    const named = this.#documentOrigin(document, hostname);
    if (named) {
      const privateOrigins = [...this.privateOrigins, ...originsOf([named])];
      const credentials = document.originCredentials;
      const headers = credentials === undefined ? {} : this.config.originCredentials[credentials];
      // A name the configuration lacks: no origin to call with the credentials the operator meant.
      if (!headers) return this.#unknownCredentials(hostname, privateOrigins);
      return { candidates: [named], privateOrigins, privateHosts: hostsOf(privateOrigins), headers };
    }
    const { binding } = this;
    if (!binding) {
      const candidates = originCandidates(this.config, where);
      return { candidates, privateOrigins: this.privateOrigins, privateHosts: this.#privateHosts, headers: this.config.originHeaders };
    }
    const url = this.config.originUrl ?? (binding.kind === "vpc-service" ? VPC_URL : BINDING_URL);
    const privateOrigins = [...new Set([...this.privateOrigins, ...originsOf([url])])];
    const headers = this.config.originHeaders;
    return { candidates: [url], privateOrigins, privateHosts: hostsOf(privateOrigins), headers, through: binding };
  }

  /**
   * A document's VPC Service: only one DOCUMENT_VPC_SERVICES lists and the Worker has, else no origin at all
   * (the call fails closed, never falling back to another agent's origin). The binding routes the call
   * whatever the URL, so its `originUrl` needs no DOCUMENT_ORIGINS entry: it is the Host the service sees.
   */
  #vpcRoute(document: CardSource, hostname: string): OriginRoute {
    const name = document.originVpc ?? "";
    const url = document.originUrl ?? VPC_URL;
    const privateOrigins = [...this.privateOrigins, ...originsOf([url])];
    const fetcher = this.documentBindings.get(name);
    const named = document.originCredentials;
    // ORIGIN_HEADERS are ORIGIN_URL's: this agent's origin gets its own entry or nothing.
    const headers = named === undefined ? {} : this.config.originCredentials[named];
    if (!fetcher) {
      const reason = this.config.documentVpcServices.has(name) ? "not_bound" : "not_in_DOCUMENT_VPC_SERVICES";
      this.#refused(`vpc:${hostname}`, "document_vpc_refused", { host: hostname, binding: name, reason });
      return { candidates: [], privateOrigins, privateHosts: hostsOf(privateOrigins), headers: {} };
    }
    if (!headers) return this.#unknownCredentials(hostname, privateOrigins);
    const through: OriginBinding = { name, kind: "vpc-service", fetcher };
    return { candidates: [url], privateOrigins, privateHosts: hostsOf(privateOrigins), headers, through };
  }

  #refused(key: string, event: string, fields: Record<string, string>): void {
    if (this.#refusedHosts.size >= MAX_REFUSALS_LOGGED || this.#refusedHosts.has(key)) return;
    this.#refusedHosts.add(key);
    log("warn", event, fields);
  }

  #unknownCredentials(hostname: string, privateOrigins: readonly string[]): OriginRoute {
    if (this.#refusedHosts.size < MAX_REFUSALS_LOGGED && !this.#refusedHosts.has(`credentials:${hostname}`)) {
      this.#refusedHosts.add(`credentials:${hostname}`);
      log("error", "document_credentials_unknown", { host: hostname });
    }
    return { candidates: [], privateOrigins, privateHosts: hostsOf(privateOrigins), headers: {} };
  }

  /** ORIGIN or ORIGIN_VPC, when bound: every call of the deployment's own origin goes through it. */
  get deploymentBinding(): OriginBinding | undefined {
    return this.binding;
  }

  /** A route's binding by its env name (a TaskStream sends for the Worker): only ORIGIN, ORIGIN_VPC or a listed VPC Service. */
  bindingNamed(name: string): OriginBinding | undefined {
    if (this.binding?.name === name) return this.binding;
    const fetcher = this.documentBindings.get(name);
    return fetcher ? { name, kind: "vpc-service", fetcher } : undefined;
  }

  /** Through the deployment's binding (ORIGIN, ORIGIN_VPC), else fetch: the origin's own card (origin-store.ts). */
  send(url: string, init: RequestInit): Promise<Response> {
    return this.sendThrough(this.binding, url, init);
  }

  /** A call: through its route's binding, else fetch. */
  sendThrough(through: OriginBinding | undefined, url: string, init: RequestInit): Promise<Response> {
    return through ? through.fetcher.fetch(url, init) : this.fetchImpl(url, init);
  }

  readonly #labels = new Map<string, string>();

  /** What a log line may say about an origin: its host (never a path, query or credential); parsed once per URL. */
  label(url: string, through: OriginBinding | undefined): string {
    if (through) return `${through.kind}:${through.name}`;
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
   * with a deployment binding (ORIGIN, ORIGIN_VPC: every call goes through it); a document names a VPC Service instead.
   */
  #documentOrigin(document: CardSource, hostname: string): string | undefined {
    const named = document.originUrl;
    if (!named) return undefined;
    if (!this.binding && this.config.documentOrigins.has(new URL(named).origin)) return named;
    if (this.#refusedHosts.size < MAX_REFUSALS_LOGGED && !this.#refusedHosts.has(hostname)) {
      this.#refusedHosts.add(hostname);
      const reason = this.binding ? this.binding.kind.replace("-", "_") : "not_in_DOCUMENT_ORIGINS";
      log("warn", "document_origin_refused", { host: hostname, origin: new URL(named).host, reason });
    }
    return undefined;
  }
}
