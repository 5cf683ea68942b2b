// Every configuration variable, declared once: its env name, the Config field
// it becomes, its parser and its value when unset. The Config type, the list
// of names and the defaults the table of docs/configuration.md is checked against
// (test/node/readme.test.ts) all come from this table.
import * as z from "zod/mini";
import { RELAY_PATH } from "../push/relay-configs";
import { fingerprints, headerName, issuerUrl, jwtAlgorithms, trustedUrl } from "./auth-values";
import { envObject, toFields, type ValuesOf, variable } from "./declare";
import { apiKeyHashes, authProfiles, credentialSets, extraPublicKeys, headerMap, originRegions, signingKey } from "./json-values";
import { STREAM_VARIABLES } from "./stream-variables";
import {
  baseUrl,
  bindingNames,
  corsOrigins,
  flag,
  fraction,
  hostAllowlist,
  hostPatterns,
  listOf,
  mastraAgentId,
  oneOf,
  operationAllowlist,
  originsOfUrls,
  originUrl,
  protocolVersions,
  restrictionOf,
  stringList,
  tenantName,
  token,
  urlPath,
  wholeNumber,
} from "./values";

const ONE_YEAR = 31_536_000;
const ONE_DAY = 86_400;
const FIVE_MINUTES_MS = 300_000;

export const VARIABLES = {
  // ---- the card and its URLs ----
  PUBLIC_BASE_URL: variable("publicBaseUrl", baseUrl),
  TRUST_FORWARDED_HEADERS: variable("trustForwardedHeaders", flag, false),
  CARD_COMPAT: variable("cardCompat", oneOf(["hybrid", "strict"]), "hybrid"),
  RPC_PATH: variable("rpcPath", urlPath, "/"),
  // Unset: no HTTP+JSON (REST) binding.
  REST_PATH: variable("restPath", urlPath),
  // Case-insensitive, as every word-valued variable: `HTTP+JSON` or `http+json`.
  PREFERRED_BINDING: variable("preferredBinding", oneOf(["jsonrpc", "http+json"]), "jsonrpc"),
  // Unset: interfaces carry no tenant.
  INTERFACE_TENANT: variable("interfaceTenant", tenantName),
  PROTOCOL_VERSIONS: variable("protocolVersions", protocolVersions, ["1.0", "0.3"]),
  // Unset: the origin speaks what the edge serves (no translation).
  ORIGIN_PROTOCOL_VERSIONS: variable("originProtocolVersions", protocolVersions),
  SKILL_ALLOWLIST: variable("skillAllowlist", stringList),
  CARD_MAX_AGE: variable("cardMaxAge", wholeNumber(0, ONE_YEAR), 300),
  CARD_STALE_WHILE_REVALIDATE: variable("cardStaleWhileRevalidate", wholeNumber(0, ONE_YEAR), 600),
  // The isolate's copy lives this long; KV's edge cacheTtl is at least 30 s (Cloudflare's minimum).
  KV_CACHE_TTL: variable("kvCacheTtl", wholeNumber(0, ONE_DAY), 60),

  // ---- the origin and the proxy ----
  ORIGIN_URL: variable("originUrl", originUrl),
  ORIGIN_HEADERS: variable("originHeaders", headerMap, {}),
  // A secret: per name, the headers of the origin of each document that names it (`originCredentials`).
  ORIGIN_CREDENTIALS: variable("originCredentials", credentialSets, {}),
  ORIGIN_REGIONS: variable("originRegions", originRegions, {}),
  ORIGIN_TIMEOUT_MS: variable("originTimeoutMs", wholeNumber(100, FIVE_MINUTES_MS), 30_000),
  MAX_BODY_BYTES: variable("maxBodyBytes", wholeNumber(1, 100 * 1024 * 1024), 1024 * 1024),
  // The most of one origin reply (a JSON body, one SSE event) the edge reads to translate it; an untranslated reply is not read.
  ORIGIN_REPLY_MAX_BYTES: variable("originReplyMaxBytes", wholeNumber(1024, 100 * 1024 * 1024), 4 * 1024 * 1024),
  // Time allowed for a whole request body to arrive.
  BODY_TIMEOUT_MS: variable("bodyTimeoutMs", wholeNumber(100, FIVE_MINUTES_MS), 10_000),
  METHOD_ALLOWLIST: variable("methodAllowlist", operationAllowlist),
  CORS_ALLOWED_ORIGINS: variable("corsAllowedOrigins", corsOrigins, "*"),

  // ---- passthrough card mode ----
  CARD_SOURCE: variable("cardSource", oneOf(["document", "origin"]), "document"),
  // Unset: derived from ORIGIN_URL (see withDerivedDefaults).
  ORIGIN_CARD_URL: variable("originCardUrl", originUrl),
  // jsonrpc: the origin's JSON-RPC endpoint (ORIGIN_URL); http+json: its REST binding at ORIGIN_REST_URL.
  ORIGIN_BINDING: variable("originBinding", oneOf(["jsonrpc", "http+json"]), "jsonrpc"),
  ORIGIN_REST_URL: variable("originRestUrl", originUrl),
  ORIGIN_CARD_TTL: variable("originCardTtl", wholeNumber(1, ONE_DAY), 60),

  // ---- signing ----
  // A secret: never logged or echoed.
  CARD_SIGNING_KEY: variable("signingKey", signingKey),
  CARD_SIGNING_PUBLIC_KEYS: variable("extraPublicKeys", extraPublicKeys, []),

  // ---- admin API and hosts ----
  // A secret; unset = no admin API.
  ADMIN_TOKEN: variable("adminToken", token(16)),
  ADMIN_PATH: variable("adminPath", urlPath, "/_admin"),
  // Hostnames this worker answers for; unset or empty = any.
  HOST_ALLOWLIST: variable("hostAllowlist", hostAllowlist),
  // Origins a card-source document may name as its `originUrl` (multi-agent mode).
  DOCUMENT_ORIGINS: variable("documentOrigins", originsOfUrls, new Set<string>()),
  // Workers VPC Service bindings a document may name as its `originVpc`; any other name reaches no origin.
  DOCUMENT_VPC_SERVICES: variable("documentVpcServices", bindingNames, new Set<string>()),
  REGISTRY_WEBHOOKS: variable("registryWebhooks", listOf(originUrl), []),

  // ---- where agent frameworks' own clients look (docs/many-agents.md#framework-paths) ----
  // Mastra's client reads <prefix>/.well-known/<agentId>/agent-card.json, calls <prefix>/a2a/<agentId>. Unset: off.
  MASTRA_API_PREFIX: variable("mastraApiPrefix", urlPath),
  // The agentId the host's own agent answers to there; an agent by path answers to its path's segment.
  MASTRA_HOST_AGENT_ID: variable("mastraHostAgentId", mastraAgentId),

  // ---- the live feed of card changes (docs/feed.md) ----
  // A secret: the subscribers' read token, and the key of their tickets. Unset with FEED_PUBLIC off: no feed.
  FEED_TOKEN: variable("feedToken", token(16)),
  // true: anyone may subscribe, without a token.
  FEED_PUBLIC: variable("feedPublic", flag, false),
  FEED_PATH: variable("feedPath", urlPath, "/_feed"),

  // ---- push notifications (docs/push-notifications.md) ----
  // Unset: any public host; set: only these hosts (`hooks.example.com`, `*.example.com`), after every other rule.
  PUSH_URL_ALLOWLIST: variable("pushUrlAllowlist", hostPatterns),
  // Local development only: webhooks over plain http: (and https:) to loopback (127.0.0.0/8, [::1], localhost).
  PUSH_ALLOW_HTTP_LOOPBACK: variable("pushAllowHttpLoopback", flag, false),
  // The largest push config url, token and authentication field, in UTF-8 bytes.
  PUSH_FIELD_MAX_BYTES: variable("pushFieldMaxBytes", wholeNumber(64, 65_536), 2048),
  // on: the origin gets an edge URL in every push config, and the edge delivers its notifications (PUSH_RELAYS).
  PUSH_RELAY: variable("pushRelay", oneOf(["off", "on"]), "off"),
  // Delivery attempts per relayed notification, the first included; then it is logged as lost.
  PUSH_RELAY_ATTEMPTS: variable("pushRelayAttempts", wholeNumber(1, 20), 6),
  // The wait before the first retry; each next one waits twice as long (at most an hour).
  PUSH_RELAY_RETRY_MS: variable("pushRelayRetryMs", wholeNumber(10, 3_600_000), 5000),

  ...STREAM_VARIABLES, // ---- streams that resume (docs/streams.md) ----
  // ---- edge authentication (the card's own security schemes) ----
  EDGE_AUTH: variable("edgeAuth", oneOf(["enforce", "off"]), "enforce"),
  AUTH_JWT_ISSUER: variable("jwtIssuer", issuerUrl),
  AUTH_JWT_AUDIENCE: variable("jwtAudience", restrictionOf(stringList)),
  AUTH_JWT_JWKS_URL: variable("jwtJwksUrl", trustedUrl),
  AUTH_JWT_ALGORITHMS: variable("jwtAlgorithms", jwtAlgorithms, ["RS256", "ES256", "EdDSA"]),
  // Unset: the token comes from `Authorization: Bearer`.
  AUTH_JWT_HEADER: variable("jwtHeader", headerName),
  // A secret: never logged or echoed.
  AUTH_API_KEYS: variable("apiKeys", apiKeyHashes),
  AUTH_MTLS_FINGERPRINTS: variable("mtlsFingerprints", fingerprints),
  AUTH_FORWARD_CREDENTIALS: variable("forwardCredentials", flag, false),
  // A secret: per name, the verifiers (AUTH_JWT_*, AUTH_API_KEYS, AUTH_MTLS_FINGERPRINTS) of each agent whose document names it.
  AUTH_PROFILES: variable("authProfiles", authProfiles, {}),
  // A secret; unset: A2A-Caller-Assertion is signed with CARD_SIGNING_KEY (if set).
  AUTH_ASSERTION_KEY: variable("assertionKey", signingKey),
  // Retry-After of a 429: the period of the RATE_LIMITER binding's `simple` rule.
  RATE_LIMIT_PERIOD: variable("rateLimitPeriod", wholeNumber(1, ONE_DAY), 60),

  // ---- telemetry (docs/telemetry.md) ----
  // One `access` log line per call: none, every call that failed, or every call (successful ones sampled).
  ACCESS_LOG: variable("accessLog", oneOf(["off", "errors", "all"]), "errors"),
  // The share of successful calls recorded with ACCESS_LOG=all; a failed call is always recorded.
  ACCESS_LOG_SAMPLE: variable("accessLogSample", fraction, 1),
  // The caller's subject as a SHA-256 prefix in records and data points, not as the token or key named it.
  ACCESS_LOG_HASH_SUBJECT: variable("accessLogHashSubject", flag, false),
};

type Values = ValuesOf<typeof VARIABLES>;

const isWellKnown = (path: string) => path === "/.well-known" || path.startsWith("/.well-known/");

/** The relay signs what it delivers, and its path is its own. */
function relayRules(v: Values, problem: (name: keyof Values, message: string) => void): void {
  if (v.AUTH_ASSERTION_KEY === undefined && v.CARD_SIGNING_KEY === undefined) {
    problem("PUSH_RELAY", "on needs AUTH_ASSERTION_KEY or CARD_SIGNING_KEY (relayed notifications carry an edge-signed JWT)");
  }
  const paths = [v.RPC_PATH, v.ADMIN_PATH, ...(v.REST_PATH === undefined ? [] : [v.REST_PATH])];
  if (paths.some((path) => path === RELAY_PATH || path.startsWith(`${RELAY_PATH}/`))) {
    problem("PUSH_RELAY", `on needs ${RELAY_PATH} for itself: RPC_PATH, REST_PATH and ADMIN_PATH must be elsewhere`);
  }
}

/** The feed's path is its own (checked only when the feed is on: a default nobody uses never stands in the way). */
function feedRules(v: Values, problem: (name: keyof Values, message: string) => void): void {
  const under = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix === "/" ? "" : prefix}/`);
  const others = [v.ADMIN_PATH, RELAY_PATH, ...(v.REST_PATH === undefined ? [] : [v.REST_PATH])];
  const feed = v.FEED_PATH;
  if (feed === "/" || under(v.RPC_PATH, feed) || isWellKnown(feed) || others.some((path) => under(feed, path) || under(path, feed))) {
    problem("FEED_PATH", "must be its own path, apart from RPC_PATH, REST_PATH, ADMIN_PATH, /_push and /.well-known/ (e.g. /_feed)");
  }
}

/** Mastra's paths are their own: under none of the edge's, and none of the edge's under them. */
function mastraRules(v: Values, problem: (name: keyof Values, message: string) => void): void {
  const prefix = v.MASTRA_API_PREFIX;
  if (prefix === undefined) {
    if (v.MASTRA_HOST_AGENT_ID !== undefined) problem("MASTRA_HOST_AGENT_ID", "needs MASTRA_API_PREFIX (e.g. /api, Mastra's default)");
    return;
  }
  const under = (path: string, above: string) => path === above || path.startsWith(`${above === "/" ? "" : above}/`);
  const others = [v.ADMIN_PATH, v.FEED_PATH, RELAY_PATH, ...(v.REST_PATH === undefined ? [] : [v.REST_PATH])];
  if (
    prefix === "/" ||
    under(v.RPC_PATH, prefix) ||
    isWellKnown(prefix) ||
    others.some((path) => under(prefix, path) || under(path, prefix))
  ) {
    problem(
      "MASTRA_API_PREFIX",
      "must be its own path, apart from RPC_PATH, REST_PATH, ADMIN_PATH, FEED_PATH, /_push and /.well-known/ (e.g. /api)",
    );
  }
}

/** Rules between variables. Each issue names the variable to change; they see only values that parsed. */
function crossFieldRules(v: Values, ctx: z.core.$RefinementCtx<Values>): void {
  const problem = (name: keyof Values, message: string) => ctx.addIssue({ code: "custom", path: [name], message, input: "(redacted)" });
  if (v.ADMIN_PATH === "/" || v.ADMIN_PATH === v.RPC_PATH || isWellKnown(v.ADMIN_PATH)) {
    problem("ADMIN_PATH", "must be its own path, apart from RPC_PATH and /.well-known/");
  }
  if (isWellKnown(v.RPC_PATH)) problem("RPC_PATH", "must not be under /.well-known/ (the card paths live there)");
  const rest = v.REST_PATH;
  const under = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix === "/" ? "" : prefix}/`);
  if (rest !== undefined && (rest === "/" || under(v.RPC_PATH, rest) || under(rest, v.ADMIN_PATH) || isWellKnown(rest))) {
    problem("REST_PATH", "must be its own path, apart from RPC_PATH, ADMIN_PATH and /.well-known/ (e.g. /rest)");
  }
  // A signature vouches for the URLs in the card: sign only for hosts the operator named, never for any Host header.
  if (v.CARD_SIGNING_KEY !== undefined && v.PUBLIC_BASE_URL === undefined && v.HOST_ALLOWLIST === undefined) {
    problem("CARD_SIGNING_KEY", "needs HOST_ALLOWLIST or PUBLIC_BASE_URL (cards are signed only for hosts you name)");
  }
  if (v.PUSH_RELAY === "on") relayRules(v, problem);
  if (v.FEED_TOKEN !== undefined || v.FEED_PUBLIC) feedRules(v, problem);
  mastraRules(v, problem);
  if (v.AUTH_JWT_ISSUER !== undefined && v.AUTH_JWT_AUDIENCE === undefined) {
    problem("AUTH_JWT_ISSUER", "needs AUTH_JWT_AUDIENCE (tokens for another audience must be refused)");
  }
  if (v.AUTH_JWT_ISSUER === undefined && v.AUTH_JWT_JWKS_URL !== undefined) {
    problem("AUTH_JWT_JWKS_URL", "needs AUTH_JWT_ISSUER (tokens of another issuer must be refused)");
  }
  if (v.ORIGIN_BINDING === "http+json" && v.ORIGIN_REST_URL === undefined) {
    problem("ORIGIN_BINDING", "http+json needs ORIGIN_REST_URL (the base URL of the origin's REST binding)");
  }
  if (v.CARD_SOURCE === "origin" && v.ORIGIN_URL === undefined && v.ORIGIN_CARD_URL === undefined) {
    problem("CARD_SOURCE", "origin needs ORIGIN_URL or ORIGIN_CARD_URL");
  }
}

/** Defaults that depend on another variable. */
function withDerivedDefaults(v: Values): Values {
  const originCard = v.ORIGIN_URL === undefined ? undefined : new URL("/.well-known/agent-card.json", v.ORIGIN_URL).href;
  return { ...v, ORIGIN_CARD_URL: v.ORIGIN_CARD_URL ?? originCard };
}

/** The env (keyed by variable name) -> Config (keyed by field). */
export const CONFIG_SCHEMA = z.pipe(
  envObject(VARIABLES).check(
    // By default zod would run the rules even beside a variable that failed; they are meant for parsed values only.
    z.superRefine(crossFieldRules, { when: (payload) => payload.issues.length === 0 }),
  ),
  z.transform((values) => toFields(VARIABLES, withDerivedDefaults(values))),
);
