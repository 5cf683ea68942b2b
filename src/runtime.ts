// Per-isolate state, built once per env: the parsed config and the services
// built from it. A bad configuration is remembered too: logged once per
// isolate, answered on every route.
// skills.json, the user's card (package.json "imports": the product's own tests substitute their fixture).
import bundledDocument from "#skills";
import { IndexCopies } from "./agents/index-copy";
import { CallerAssertions } from "./auth/caller-assertion";
import { EdgeAuth } from "./auth/edge-auth";
import { CardService } from "./card/card-service";
import { readCardInput } from "./card/intake";
import { repairsToText } from "./card/repairs";
import { warnIfSample } from "./card/sample";
import type { CardSource } from "./card/source";
import type { Resolved } from "./card/store";
import { type Config, parseConfig } from "./config";
import { EdgeError } from "./errors/failures";
import { signsFor } from "./http/public-base";
import { log } from "./log";
import { secretFragments } from "./proxy/forwarding-headers";
import { type FetchLike, type OriginBinding, OriginRouter } from "./proxy/origin-router";
import type { PushRelay } from "./push/relay-store";
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
  readonly #profiles = new Map<string, EdgeAuth>();
  readonly #closed: EdgeAuth;

  /**
   * The verifiers of an agent: its document's AUTH_PROFILES entry, or the deployment's AUTH_* variables; a
   * profile the configuration lacks verifies nothing (its required schemes fail closed).
   */
  authFor(source: Pick<CardSource, "authProfile">): EdgeAuth {
    if (source.authProfile === undefined) return this.auth;
    return this.#profiles.get(source.authProfile) ?? this.#closed;
  }

  /** Undefined without AUTH_ASSERTION_KEY or CARD_SIGNING_KEY: no A2A-Caller-Assertion then. */
  readonly assertions: CallerAssertions | undefined;
  /** ORIGIN_HEADERS values and their tokens, never returned to a client. */
  readonly secretFragments: readonly string[];
  /** Outbound fetch (origin, registries); injectable for tests. */
  readonly fetch: FetchLike;
  /** The read path's copies of each host's index of agents (agents by path). */
  readonly agents: IndexCopies;
  /** The push relays, one per public host (PUSH_RELAYS); undefined when not bound. */
  readonly pushRelays: DurableObjectNamespace<PushRelay> | undefined;
  /** The kept streams (STREAM_RESUME=on, TASK_STREAMS); undefined when off. */
  readonly taskStreams: Env["TASK_STREAMS"] | undefined;
  /** The path of PUBLIC_BASE_URL (`/agents`), "" without one: requests under it are routed without it. */
  readonly pathPrefix: string;

  constructor(
    readonly config: Config,
    readonly kv: KVNamespace | undefined,
    /** ORIGIN (a Service Binding) or ORIGIN_VPC (a VPC Service), when bound. */
    originBinding: OriginBinding | undefined,
    deps: RuntimeDeps = {},
    /** The Workers Rate Limiting binding (RATE_LIMITER); undefined = no limit. */
    readonly rateLimiter: RateLimit | undefined = undefined,
    pushRelays: DurableObjectNamespace<PushRelay> | undefined = undefined,
    /** AUTH_PROFILES, each parsed as its variables (authProfileConfigs). */
    profiles: Readonly<Record<string, ProfileAuth>> = {},
    /** The Workers Analytics Engine dataset (CALL_METRICS); undefined = no data points. */
    readonly callMetrics: AnalyticsEngineDataset | undefined = undefined,
    /** The DOCUMENT_VPC_SERVICES bindings the Worker has. */
    documentBindings: ReadonlyMap<string, Fetcher> = new Map(),
    taskStreams: Env["TASK_STREAMS"] | undefined = undefined,
  ) {
    this.pushRelays = pushRelays;
    this.taskStreams = config.streamResume === "on" ? taskStreams : undefined;
    this.agents = new IndexCopies(kv, config.kvCacheTtl);
    this.fetch = deps.fetch ?? ((input, init) => fetch(input, init));
    this.pathPrefix = config.publicBaseUrl ? new URL(config.publicBaseUrl).pathname.replace(/\/+$/, "") : "";
    this.origins = new OriginRouter(config, originBinding, this.fetch, documentBindings);
    this.signer = config.signingKey
      ? new CardSigner(config.signingKey, config.extraPublicKeys, (base) => signsFor(config, base))
      : undefined;
    this.cards = new CardService(config, kv, bundledCardSource, this.origins, this.signer);
    // Every origin credential, ORIGIN_URL's and each ORIGIN_CREDENTIALS entry's: none may come back to a client.
    const credentials = [config.originHeaders, ...Object.values(config.originCredentials)];
    this.secretFragments = [...new Set(credentials.flatMap((headers) => secretFragments(headers)))];
    this.auth = new EdgeAuth(config, this.fetch);
    for (const [name, profile] of Object.entries(profiles)) this.#profiles.set(name, new EdgeAuth({ ...config, ...profile }, this.fetch));
    this.#closed = new EdgeAuth({ ...config, ...NO_VERIFIERS }, this.fetch);
    const assertionKey = config.assertionKey ?? config.signingKey;
    this.assertions = assertionKey ? new CallerAssertions(assertionKey) : undefined;
    if (config.edgeAuth === "off" && config.originHeaders.authorization !== undefined) {
      // Every caller now reaches the origin with the origin's own credential: said once per isolate.
      log("warn", "edge_auth_off", { lends: "ORIGIN_HEADERS Authorization" });
    }
  }
}

/** The verifier settings an AUTH_PROFILES entry replaces (unset ones stay unset: nothing is inherited from AUTH_*). */
type ProfileAuth = Pick<
  Config,
  "jwtIssuer" | "jwtAudience" | "jwtJwksUrl" | "jwtAlgorithms" | "jwtHeader" | "apiKeys" | "mtlsFingerprints"
>;
const NO_VERIFIERS: ProfileAuth = {
  jwtIssuer: undefined,
  jwtAudience: undefined,
  jwtJwksUrl: undefined,
  jwtAlgorithms: [],
  jwtHeader: undefined,
  apiKeys: undefined,
  mtlsFingerprints: undefined,
};

/** Each AUTH_PROFILES entry parsed as the variables it sets, by the same parsers and rules (an issuer needs an audience). */
function authProfileConfigs(
  profiles: Readonly<Record<string, Record<string, string>>>,
): { ok: true; value: Record<string, ProfileAuth> } | { ok: false; problems: string } {
  const value: Record<string, ProfileAuth> = {};
  for (const [name, variables] of Object.entries(profiles)) {
    const parsed = parseConfig(variables);
    if (!parsed.ok) return { ok: false, problems: `AUTH_PROFILES entry ${name}: ${issuesToText(parsed.issues)}` };
    const { jwtIssuer, jwtAudience, jwtJwksUrl, jwtAlgorithms, jwtHeader, apiKeys, mtlsFingerprints } = parsed.value;
    value[name] = { jwtIssuer, jwtAudience, jwtJwksUrl, jwtAlgorithms, jwtHeader, apiKeys, mtlsFingerprints };
  }
  return { ok: true, value };
}

let bundledSource: Resolved | undefined;

/**
 * skills.json goes through card intake like every source (a card pasted there is read and repaired;
 * `npm test` checks the user's, test/node/your-card.test.ts). A broken one is a deploy error, reported per request.
 */
function bundledCardSource(): Resolved {
  if (bundledSource) return bundledSource;
  const parsed = readCardInput(bundledDocument);
  if (!parsed.ok) {
    log("error", "bundled_document_invalid", { issues: issuesToText(parsed.issues) });
    throw new EdgeError("INTERNAL", "The bundled skills.json is invalid; see the worker logs.");
  }
  const { source, repairs } = parsed.value;
  if (repairs.length > 0) log("warn", "card_repaired", { source: "bundled", repairs: repairs.length, list: repairsToText(repairs) });
  warnIfSample(source);
  bundledSource = { source, repairs };
  return bundledSource;
}

const runtimes = new WeakMap<object, Runtime | EdgeError>();

/**
 * Bindings read from the env; ORIGIN, ORIGIN_VPC and RATE_LIMITER are optional and not declared in wrangler.toml
 * (see docs/deploy.md and docs/front-a-private-agent.md), nor are the VPC Services DOCUMENT_VPC_SERVICES names.
 */
type RuntimeEnv = Omit<Env, "PUSH_RELAYS" | "TASK_STREAMS"> & {
  TASK_STREAMS?: Env["TASK_STREAMS"];
  ORIGIN?: Fetcher;
  ORIGIN_VPC?: Fetcher;
  RATE_LIMITER?: RateLimit;
  PUSH_RELAYS?: Env["PUSH_RELAYS"];
};

const isFetcher = (value: unknown): value is Fetcher => typeof (value as Partial<Fetcher> | undefined)?.fetch === "function";

/** ORIGIN first: a Worker origin bound beside a VPC Service is the one meant (docs/front-a-private-agent.md). */
function deploymentBinding(env: RuntimeEnv): OriginBinding | undefined {
  if (isFetcher(env.ORIGIN)) return { name: "ORIGIN", kind: "service-binding", fetcher: env.ORIGIN };
  if (isFetcher(env.ORIGIN_VPC)) return { name: "ORIGIN_VPC", kind: "vpc-service", fetcher: env.ORIGIN_VPC };
  return undefined;
}

/** Only the names DOCUMENT_VPC_SERVICES lists are looked up: a document can never name any other binding. */
function documentBindings(env: RuntimeEnv, names: ReadonlySet<string>): Map<string, Fetcher> {
  const found = new Map<string, Fetcher>();
  for (const name of names) {
    const value: unknown = (env as Record<string, unknown>)[name];
    if (isFetcher(value)) found.set(name, value);
  }
  return found;
}

function createRuntime(env: RuntimeEnv, deps: RuntimeDeps): Runtime | EdgeError {
  const parsed = parseConfig({ ...env });
  if (!parsed.ok) {
    const problems = issuesToText(parsed.issues);
    log("error", "config_invalid", { issues: problems });
    return new EdgeError("INTERNAL", `Invalid worker configuration: ${problems}`);
  }
  const profiles = authProfileConfigs(parsed.value.authProfiles);
  if (!profiles.ok) {
    log("error", "config_invalid", { issues: profiles.problems });
    return new EdgeError("INTERNAL", `Invalid worker configuration: ${profiles.problems}`);
  }
  const binding = deploymentBinding(env);
  const vpcs = documentBindings(env, parsed.value.documentVpcServices);
  const rateLimiter = typeof env.RATE_LIMITER?.limit === "function" ? env.RATE_LIMITER : undefined;
  const relays = typeof env.PUSH_RELAYS?.idFromName === "function" ? env.PUSH_RELAYS : undefined;
  // Declared in wrangler.toml, yet optional: a deployment (or a test) without it writes no data points.
  const streams = typeof env.TASK_STREAMS?.idFromString === "function" ? env.TASK_STREAMS : undefined;
  if (parsed.value.streamResume === "on" && !streams) {
    const problems = "STREAM_RESUME: on needs the TASK_STREAMS Durable Object binding (class TaskStream, wrangler.toml)";
    log("error", "config_invalid", { issues: problems });
    return new EdgeError("INTERNAL", `Invalid worker configuration: ${problems}`);
  }
  const metrics: Partial<AnalyticsEngineDataset> | undefined = env.CALL_METRICS;
  const callMetrics = typeof metrics?.writeDataPoint === "function" ? env.CALL_METRICS : undefined;
  return new Runtime(parsed.value, env.SKILLS, binding, deps, rateLimiter, relays, profiles.value, callMetrics, vpcs, streams);
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
