// A real OpenID provider (the `oidc-provider` package) for tests of edge authentication:
// discovery, a JWKS, and client-credentials access tokens that are JWTs bound to a
// resource (RFC 8707), the kind of bearer token the worker verifies.
//
// - Issuer http://127.0.0.1:PORT (no trailing slash); discovery at
//   <issuer>/.well-known/openid-configuration, token endpoint <issuer>/token, JWKS <issuer>/jwks.
// - Clients (grant client_credentials only; client_secret_basic and client_secret_post are
//   both accepted, oidc-provider treats the two as one secret-based method): OIDC_CLIENTS below.
//   `agent` may ask for `a2a.read a2a.write`, `reader` only for `a2a.read` (asking it for
//   `a2a.write` is `invalid_scope`), `scp` like `agent` but its tokens carry the scopes as
//   an `scp` array instead of the space-separated `scope` string.
// - Resources: each `--resource` URL (default https://agent.example/ and
//   https://other.example/) is a resource server whose tokens are JWTs with `aud` = that URL,
//   `scope` = the granted scopes, `sub` = `client_id` = the client id, `iss` = the issuer,
//   `exp` = `iat` + `--ttl` (default 300 s), header `{alg, typ: "at+jwt", kid}`. Any other
//   `resource` is `invalid_target`; no `resource` at all gets an opaque token (not a JWT).
// - Signing: one RS256 key (2048-bit), or ES256 (P-256) with `--alg ES256`.
// - Key rotation: `POST /__test/rotate` (a harness path, not the provider's) puts a new key
//   (new kid) at the front of the JWKS: later tokens are signed with it, the JWKS lists it
//   first. The previous keys stay listed (tokens already issued still verify) unless the
//   body is `{"retire":true}`. Answers `{kid, kids}`. The provider is rebuilt with the new
//   key set (oidc-provider reads `jwks` once, at construction); clients and resources are
//   configuration, so nothing else changes.
//
// Plain http on loopback: oidc-provider 9 takes an http issuer as it is. Discovery, /token
// and /jwks answer over http, and nothing checks the scheme: its https rules are about client
// metadata (a web client's redirect_uris), and these clients have none (response_types [],
// redirect_uris []), and about cookies, which client credentials never set. The edge accepts
// an http issuer only on a loopback host. Own keys and cookie keys are configured and
// devInteractions (its login pages) is disabled, so the only warnings printed (to stderr,
// kept in output()) are expected ones: "Unsupported runtime. Use Node.js v22.x LTS" (it
// warns on any Node whose `process.release.lts` is unset, as in the npm registry's Node 26
// builds, and works), and the in-memory adapter (sessions and opaque tokens; JWT
// access tokens are not stored at all), once per provider built (start and each rotation).
//
// As a process: `node --import tsx test/support/oidc-issuer.ts --port N [--resource URL]...
// [--alg RS256|ES256] [--ttl SECONDS]` prints `oidc-issuer listening <issuer>` and runs until
// SIGTERM. From a test: `const idp = await startOidcIssuer({ alg: "ES256" })` starts that
// process on port 0 (it binds a free port and prints it) and resolves once discovery answers.
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { calculateJwkThumbprint, type JWK } from "jose";
// Types only here: the package is loaded by the issuer process alone (serveIssuer), never by a test
// that starts one (it warns on import about runtimes it does not list as LTS).
import type { Configuration } from "oidc-provider";
import { outlastClients } from "./keep-alive";
import { isMain, startTs, waitForOutput } from "./processes";
import { until } from "./wait";

type SigningAlg = "RS256" | "ES256";

export interface IssuerOptions {
  /** Port on 127.0.0.1 (`--port`, required on the command line; 0 = any free port). */
  port?: number;
  /** One more client (npm run issuer's, for the scopes of the card it serves): its scopes join the provider's. */
  extraClient?: { clientId: string; clientSecret: string; scope: string };
  /** Resource indicators (token audiences) the provider accepts. */
  resources?: string[];
  /** Access-token signing algorithm. Default RS256. */
  alg?: SigningAlg;
  /** Access-token lifetime, seconds. Default 300. */
  ttl?: number;
}

const OIDC_CLIENTS = {
  agent: { clientId: "agent-client", clientSecret: "agent-client-secret", scope: "a2a.read a2a.write" },
  reader: { clientId: "reader-client", clientSecret: "reader-client-secret", scope: "a2a.read" },
  scp: { clientId: "scp-client", clientSecret: "scp-client-secret", scope: "a2a.read a2a.write" },
} as const;
const SCOPES = ["a2a.read", "a2a.write"];
const DEFAULT_RESOURCES = ["https://agent.example/", "https://other.example/"];
const ROTATE_PATH = "/__test/rotate";

// --- the provider (runs in the issuer process) -------------------------------------

async function newSigningKey(alg: SigningAlg): Promise<JWK> {
  const { privateKey } =
    alg === "ES256" ? generateKeyPairSync("ec", { namedCurve: "P-256" }) : generateKeyPairSync("rsa", { modulusLength: 2048 });
  const jwk = privateKey.export({ format: "jwk" }) as JWK;
  const { d, p, q, dp, dq, qi, ...publicPart } = jwk;
  return { ...jwk, alg, use: "sig", kid: await calculateJwkThumbprint(publicPart) };
}

type OidcProvider = typeof import("oidc-provider");

function providerConfiguration(
  { errors }: OidcProvider,
  keys: JWK[],
  { resources, alg, ttl, extraClient }: Required<Omit<IssuerOptions, "port" | "extraClient">> & Pick<IssuerOptions, "extraClient">,
): Configuration {
  const scopes = [...new Set([...SCOPES, ...(extraClient?.scope.split(" ") ?? [])])];
  return {
    clients: [...Object.values(OIDC_CLIENTS), ...(extraClient ? [extraClient] : [])].map((c) => ({
      client_id: c.clientId,
      client_secret: c.clientSecret,
      scope: c.scope,
      grant_types: ["client_credentials"],
      response_types: [],
      redirect_uris: [],
      token_endpoint_auth_method: "client_secret_basic",
      // Never used (no ID tokens here), but validated against the keys: RS256 by default, and no RSA key with ES256.
      id_token_signed_response_alg: alg,
    })),
    jwks: { keys: keys as NonNullable<Configuration["jwks"]>["keys"] },
    // Static scopes are checked against each client's `scope` (reader asking for a2a.write: invalid_scope).
    scopes: ["openid", ...scopes],
    cookies: { keys: [randomBytes(32).toString("base64url")] },
    // The token lifetime, stated (else oidc-provider prints a NOTICE at the first token about its default).
    ttl: { ClientCredentials: ttl },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        getResourceServerInfo: (_ctx, resourceIndicator) => {
          if (!resources.includes(resourceIndicator)) throw new errors.InvalidTarget();
          return {
            scope: scopes.join(" "),
            audience: resourceIndicator,
            accessTokenTTL: ttl,
            accessTokenFormat: "jwt",
            jwt: { sign: { alg } },
          };
        },
      },
    },
    formats: {
      customizers: {
        jwt: (_ctx, token, { payload }) => {
          if (token.clientId !== OIDC_CLIENTS.scp.clientId) return;
          payload.scp = typeof payload.scope === "string" ? payload.scope.split(" ") : [];
          delete payload.scope;
        },
      },
    },
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (body += chunk));
    req.on("end", () => resolve(body));
    req.on("error", reject);
  });
}

/** The provider on 127.0.0.1, in this process (the CLI below, and npm run issuer). */
export async function serveIssuer(options: IssuerOptions): Promise<{ issuer: string; stop(): Promise<void> }> {
  const oidc = await import("oidc-provider");
  const alg = options.alg ?? "RS256";
  const resources = options.resources ?? DEFAULT_RESOURCES;
  const ttl = options.ttl ?? 300;
  const settings = { resources, alg, ttl, extraClient: options.extraClient };
  let keys = [await newSigningKey(alg)];
  let handle: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;

  const rotate = async (req: IncomingMessage, res: ServerResponse) => {
    const body = await readBody(req);
    const retire = body !== "" && (JSON.parse(body) as { retire?: unknown }).retire === true;
    const key = await newSigningKey(alg);
    keys = retire ? [key] : [key, ...keys];
    handle = new oidc.Provider(issuer, providerConfiguration(oidc, keys, settings)).callback();
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ kid: key.kid, kids: keys.map((k) => k.kid) }));
  };

  const server = createServer((req, res) => {
    if (req.method === "POST" && req.url === ROTATE_PATH) {
      rotate(req, res).catch((error: unknown) => {
        res.writeHead(500, { "content-type": "text/plain" });
        res.end(String(error));
      });
    } else if (handle) {
      handle(req, res);
    } else {
      res.writeHead(503).end();
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    outlastClients(server).listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  handle = new oidc.Provider(issuer, providerConfiguration(oidc, keys, settings)).callback();
  return {
    issuer,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

// --- the harness (runs in the test) ------------------------------------------------

type OidcClient = (typeof OIDC_CLIENTS)[keyof typeof OIDC_CLIENTS];

export interface OidcIssuer {
  /** http://127.0.0.1:PORT, exactly the tokens' `iss` and the discovery document's `issuer`. */
  issuer: string;
  discoveryUrl: string;
  /** From the discovery document. */
  tokenUrl: string;
  jwksUrl: string;
  /** Accepted resource indicators (token audiences), in the order given. */
  resources: string[];
  alg: SigningAlg;
  clients: typeof OIDC_CLIENTS;
  /** A client-credentials token (a JWT) for `client`, `resource` default resources[0], `scope` default all of the client's. */
  token(client: OidcClient, params?: { scope?: string; resource?: string }): Promise<string>;
  /** New signing key (new kid) for later tokens; the previous keys stay in the JWKS unless `retire`. */
  rotateKeys(options?: { retire?: boolean }): Promise<{ kid: string; kids: string[] }>;
  /** Everything the process printed. */
  output(): string;
  /** The process's exit code once it has exited (0 after stop()), else null. */
  exitCode(): number | null;
  stop(): Promise<void>;
}

interface TokenRequest {
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  /** Space-separated; omitted when undefined. */
  scope?: string;
  /** RFC 8707 resource indicator; omitted when undefined. */
  resource?: string;
  /** How the client authenticates: HTTP Basic (default) or client_secret in the form body. */
  auth?: "basic" | "post";
}

/** POSTs a client-credentials token request and returns the raw response (for error cases). */
export function requestToken(request: TokenRequest): Promise<Response> {
  const form = new URLSearchParams({ grant_type: "client_credentials" });
  if (request.scope !== undefined) form.set("scope", request.scope);
  if (request.resource !== undefined) form.set("resource", request.resource);
  const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded" };
  if (request.auth === "post") {
    form.set("client_id", request.clientId);
    form.set("client_secret", request.clientSecret);
  } else {
    // RFC 6749 §2.3.1: id and secret are form-urlencoded before Base64.
    const basic = `${encodeURIComponent(request.clientId)}:${encodeURIComponent(request.clientSecret)}`;
    headers.authorization = `Basic ${Buffer.from(basic).toString("base64")}`;
  }
  return fetch(request.tokenUrl, { method: "POST", headers, body: form });
}

/** The access token of a successful client-credentials request; throws with the status and body otherwise. */
export async function fetchClientCredentialsToken(request: TokenRequest): Promise<string> {
  const response = await requestToken(request);
  const text = await response.text();
  if (response.status !== 200) throw new Error(`token endpoint answered ${response.status}: ${text}`);
  const { access_token } = JSON.parse(text) as { access_token?: unknown };
  if (typeof access_token !== "string") throw new Error(`token endpoint answered without access_token: ${text}`);
  return access_token;
}

/** Starts the issuer as a process on a free port of 127.0.0.1 (its own choice) and waits until discovery answers. */
export async function startOidcIssuer(options: Omit<IssuerOptions, "port"> = {}): Promise<OidcIssuer> {
  const resources = options.resources ?? DEFAULT_RESOURCES;
  const alg = options.alg ?? "RS256";
  const args = ["--port", "0", "--alg", alg];
  for (const resource of resources) args.push("--resource", resource);
  if (options.ttl !== undefined) args.push("--ttl", String(options.ttl));
  const child = startTs("test/support/oidc-issuer.ts", args);
  let issuer: string;
  try {
    issuer = await waitForOutput(child, /^oidc-issuer listening (\S+)$/m, "the oidc-issuer listening line");
  } catch (error) {
    await child.stop();
    throw error;
  }
  const discoveryUrl = `${issuer}/.well-known/openid-configuration`;
  let discovery: { token_endpoint: string; jwks_uri: string } | undefined;
  try {
    discovery = await until(
      async () => {
        if (child.child.exitCode !== null) throw new Error(`oidc-issuer exited early:\n${child.output()}`);
        // It listens already (it said so): a slow answer on a busy machine is awaited, not raced by another.
        const response = await fetch(discoveryUrl, { signal: AbortSignal.timeout(30_000) }).catch(() => undefined);
        return response?.ok ? ((await response.json()) as typeof discovery) : undefined;
      },
      `the discovery document at ${discoveryUrl}`,
      60_000,
      100,
    );
  } catch (error) {
    await child.stop();
    throw error;
  }
  const { token_endpoint: tokenUrl, jwks_uri: jwksUrl } = discovery!;
  return {
    issuer,
    discoveryUrl,
    tokenUrl,
    jwksUrl,
    resources,
    alg,
    clients: OIDC_CLIENTS,
    token: (client, params = {}) =>
      fetchClientCredentialsToken({ tokenUrl, ...client, scope: params.scope ?? client.scope, resource: params.resource ?? resources[0] }),
    async rotateKeys(rotation = {}) {
      const response = await fetch(`${issuer}${ROTATE_PATH}`, { method: "POST", body: JSON.stringify(rotation) });
      if (response.status !== 200) throw new Error(`rotate answered ${response.status}: ${await response.text()}`);
      return (await response.json()) as { kid: string; kids: string[] };
    },
    output: child.output,
    exitCode: () => child.child.exitCode,
    stop: child.stop,
  };
}

// --- CLI ---------------------------------------------------------------------------

function parseArgs(argv: string[]): IssuerOptions {
  const options: IssuerOptions = {};
  const resources: string[] = [];
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (value === undefined) throw new Error(`missing value for ${flag}`);
    if (flag === "--port") options.port = Number(value);
    else if (flag === "--resource") resources.push(absoluteUrl(value));
    else if (flag === "--alg") options.alg = value === "RS256" || value === "ES256" ? value : fail("--alg must be RS256 or ES256");
    else if (flag === "--ttl") options.ttl = Number(value);
    else throw new Error(`unknown option ${flag}`);
  }
  if (resources.length > 0) options.resources = resources;
  if (!Number.isInteger(options.port) || (options.port ?? -1) < 0) throw new Error("--port N is required (0 = any free port)");
  if (options.ttl !== undefined && !(Number.isSafeInteger(options.ttl) && options.ttl > 0))
    throw new Error("--ttl must be a positive integer");
  return options;
}

function fail(message: string): never {
  throw new Error(message);
}

/** `value` itself (the provider compares resource indicators as given), once checked to be an absolute URL. */
function absoluteUrl(value: string): string {
  try {
    new URL(value);
    return value;
  } catch {
    return fail(`--resource ${value} is not an absolute URL`);
  }
}

if (isMain(import.meta.url)) {
  const served = await serveIssuer(parseArgs(process.argv.slice(2)));
  process.stdout.write(`oidc-issuer listening ${served.issuer}\n`);
  const shutdown = () => {
    void served.stop().then(() => process.exit(0));
  };
  process.once("SIGTERM", shutdown);
  process.once("SIGINT", shutdown);
}
