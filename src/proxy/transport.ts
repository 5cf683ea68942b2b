// How the edge reaches the origin: a Service Binding (`ORIGIN`, when the
// origin is itself a Worker) or fetch to ORIGIN_URL / the region map.
import type { Config } from "../config";
import { originsOf } from "../card/from-origin";
import { configuredOriginUrls, originCandidates, type RequestLocation } from "./origins";

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

/** The URL a Service Binding request carries when ORIGIN_URL is unset (the binding ignores the host). */
const BINDING_URL = "https://origin.invalid/";

export class OriginTransport {
  /** `scheme://host[:port]` of every configured private URL. */
  readonly privateOrigins: string[];

  constructor(
    private readonly config: Config,
    private readonly binding: Fetcher | undefined,
    private readonly fetchImpl: FetchLike,
  ) {
    this.privateOrigins = originsOf(configuredOriginUrls(config));
  }

  get hasBinding(): boolean {
    return this.binding !== undefined;
  }

  candidates(where: RequestLocation): string[] {
    if (this.binding) return [this.config.originUrl ?? BINDING_URL];
    return originCandidates(this.config, where);
  }

  send(url: string, init: RequestInit): Promise<Response> {
    return this.binding ? this.binding.fetch(url, init) : this.fetchImpl(url, init);
  }

  /** What a log line may say about an origin: its host (never a path, query or credential). */
  label(url: string): string {
    if (this.binding) return "service-binding:ORIGIN";
    try {
      return new URL(url).host;
    } catch {
      return "invalid";
    }
  }
}
