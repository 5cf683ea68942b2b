// Per-isolate state, built once per env: the parsed config and the services
// built from it. A bad configuration is remembered too: logged once per
// isolate, answered on every route.
import bundledDocument from "../skills.json";
import { CallerAssertions } from "./auth/caller-assertion";
import { EdgeAuth } from "./auth/edge-auth";
import { CardService } from "./card/card-service";
import { readCardInput } from "./card/intake";
import { repairsToText } from "./card/repairs";
import { warnIfSample } from "./card/sample";
import type { Resolved } from "./card/store";
import { type Config, parseConfig } from "./config";
import { EdgeError } from "./errors/failures";
import { signsFor } from "./http/public-base";
import { log } from "./log";
import { secretFragments } from "./proxy/forwarding-headers";
import { type FetchLike, OriginRouter } from "./proxy/origin-router";
import { CardSigner } from "./sign/card-signer";
import { issuesToText } from "./validation";

export interface RuntimeDeps {
  /** Outbound fetch to the origin (tests inject one); defaults to the global fetch, looked up per call. */
  fetch?: FetchLike;
}

export class Runtime {
  readonly origins: OriginRouter;
  readonly cards: CardService;
  /** Undefined when cards are not signed. */
  readonly signer: CardSigner | undefined;
  readonly auth: EdgeAuth;
  /** Undefined without AUTH_ASSERTION_KEY or CARD_SIGNING_KEY: no A2A-Caller-Assertion then. */
  readonly assertions: CallerAssertions | undefined;
  /** ORIGIN_HEADERS values and their tokens, never returned to a client. */
  readonly secretFragments: readonly string[];
  /** Outbound fetch (origin, registries); injectable for tests. */
  readonly fetch: FetchLike;
  /** The path of PUBLIC_BASE_URL (`/agents`), "" without one: requests under it are routed without it. */
  readonly pathPrefix: string;

  constructor(
    readonly config: Config,
    readonly kv: KVNamespace | undefined,
    originBinding: Fetcher | undefined,
    deps: RuntimeDeps = {},
    /** The Workers Rate Limiting binding (RATE_LIMITER); undefined = no limit. */
    readonly rateLimiter: RateLimit | undefined = undefined,
    /** The Workers Analytics Engine dataset (CALL_METRICS); undefined = no data points. */
    readonly callMetrics: AnalyticsEngineDataset | undefined = undefined,
  ) {
    this.fetch = deps.fetch ?? ((input, init) => fetch(input, init));
    this.pathPrefix = config.publicBaseUrl ? new URL(config.publicBaseUrl).pathname.replace(/\/+$/, "") : "";
    this.origins = new OriginRouter(config, originBinding, this.fetch);
    this.signer = config.signingKey
      ? new CardSigner(config.signingKey, config.extraPublicKeys, (base) => signsFor(config, base))
      : undefined;
    this.cards = new CardService(config, kv, bundledCardSource, this.origins, this.signer);
    this.secretFragments = secretFragments(config.originHeaders);
    this.auth = new EdgeAuth(config, this.fetch);
    const assertionKey = config.assertionKey ?? config.signingKey;
    this.assertions = assertionKey ? new CallerAssertions(assertionKey) : undefined;
    if (config.edgeAuth === "off" && config.originHeaders.authorization !== undefined) {
      // Every caller now reaches the origin with the origin's own credential: said once per isolate.
      log("warn", "edge_auth_off", { lends: "ORIGIN_HEADERS Authorization" });
    }
  }
}

let bundledSource: Resolved | undefined;

/**
 * skills.json goes through card intake like every source (a card pasted there is read and repaired);
 * the test suite keeps it a strict document. A broken one is a deploy error, reported per request.
 */
function bundledCardSource(): Resolved {
  if (bundledSource) return bundledSource;
  const parsed = readCardInput(bundledDocument);
  if (!parsed.ok) {
    log("error", "bundled_document_invalid", { issues: issuesToText(parsed.issues) });
    throw new EdgeError("INTERNAL", "The bundled skills.json is invalid; see the worker logs.");
  }
  const { source, repairs } = parsed.value;
  if (repairs.length > 0)
    log("warn", "card_repaired", { source: "bundled", repairs: repairs.length, list: repairsToText(repairs).slice(0, 2000) });
  warnIfSample(source);
  bundledSource = { source, repairs };
  return bundledSource;
}

const runtimes = new WeakMap<object, Runtime | EdgeError>();

/** Bindings read from the env; ORIGIN and RATE_LIMITER are optional and not declared in wrangler.toml (see docs/deploy.md and docs/front-a-private-agent.md). */
type RuntimeEnv = Env & { ORIGIN?: Fetcher; RATE_LIMITER?: RateLimit };

function createRuntime(env: RuntimeEnv, deps: RuntimeDeps): Runtime | EdgeError {
  const parsed = parseConfig({ ...env });
  if (!parsed.ok) {
    const problems = issuesToText(parsed.issues);
    log("error", "config_invalid", { issues: problems });
    return new EdgeError("INTERNAL", `Invalid worker configuration: ${problems}`);
  }
  const binding = typeof env.ORIGIN?.fetch === "function" ? env.ORIGIN : undefined;
  const rateLimiter = typeof env.RATE_LIMITER?.limit === "function" ? env.RATE_LIMITER : undefined;
  // Declared in wrangler.toml, yet optional: a deployment (or a test) without it writes no data points.
  const metrics: Partial<AnalyticsEngineDataset> | undefined = env.CALL_METRICS;
  const callMetrics = typeof metrics?.writeDataPoint === "function" ? env.CALL_METRICS : undefined;
  return new Runtime(parsed.value, env.SKILLS, binding, deps, rateLimiter, callMetrics);
}

export function runtimeFor(env: RuntimeEnv, deps: RuntimeDeps = {}): Runtime {
  let runtime = runtimes.get(env);
  if (!runtime) {
    runtime = createRuntime(env, deps);
    runtimes.set(env, runtime);
  }
  if (runtime instanceof EdgeError) throw runtime;
  return runtime;
}
