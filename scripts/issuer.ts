// npm run issuer [-- --port 9998] [--audience URL] [--alg RS256|ES256] [--ttl SECONDS] [--no-card]
// A local OpenID provider for the guides: the oidc-provider issuer of the end-to-end tests
// (test/support/oidc-issuer.ts): discovery, a JWKS and client-credentials access tokens that are JWTs
// for one audience, the edge (AUTH_JWT_ISSUER and AUTH_JWT_AUDIENCE of .dev.vars.example). Its client
// `partner` may ask for every scope the card's OAuth flows name. So that the card served by `npm run dev`
// names this issuer rather than the sample's fictional one, it stores skills.json with its OAuth token
// URLs (and OpenID Connect discovery URLs) pointing here in local KV, under the edge's hostname, while it
// runs (`--no-card`: not), stores it again whenever skills.json changes, and removes it when stopped. It
// prints the command that gets a token.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, unwatchFile, watchFile, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type IssuerOptions, serveIssuer } from "../test/support/oidc-issuer";
import { ISSUER_PORT, LOCAL_EDGE, listenFailure, PARTNER, stopOnSignal } from "./local";
import { type Cli, cli } from "./usage";

const ROOT = new URL("../", import.meta.url).pathname;
const cmd: Cli = cli("issuer", "usage: npm run issuer [-- --port 9998] [--audience URL] [--alg RS256|ES256] [--ttl SECONDS] [--no-card]");
const { values } = cmd.parseArgs({
  options: {
    port: { type: "string", default: String(ISSUER_PORT) },
    audience: { type: "string", default: `${LOCAL_EDGE}/` },
    alg: { type: "string", default: "RS256" },
    ttl: { type: "string", default: "3600" },
    "no-card": { type: "boolean", default: false },
  },
  strict: true,
});
const whole = (flag: string, value: string, min: number, max: number) =>
  /^\d+$/.test(value) && Number(value) >= min && Number(value) <= max
    ? Number(value)
    : cmd.usageError(`--${flag} must be a whole number from ${min} to ${max}, not ${JSON.stringify(value)}`);
const port = whole("port", values.port, 0, 65535);
const ttl = whole("ttl", values.ttl, 1, 86_400);
const alg: IssuerOptions["alg"] =
  values.alg === "RS256" || values.alg === "ES256"
    ? values.alg
    : cmd.usageError(`--alg must be RS256 or ES256, not ${JSON.stringify(values.alg)}`);
if (!URL.canParse(values.audience)) cmd.usageError(`--audience must be an absolute URL, not ${JSON.stringify(values.audience)}`);
const audience = values.audience;

type Schemes = Record<string, { type?: string; flows?: Record<string, { tokenUrl?: string; scopes?: Record<string, string> }> }>;
const bundled = JSON.parse(readFileSync(join(ROOT, "skills.json"), "utf8")) as { securitySchemes?: Schemes };
const oauth = Object.values(bundled.securitySchemes ?? {}).filter((scheme) => scheme.type === "oauth2");
const cardScopes = [
  ...new Set(oauth.flatMap((scheme) => Object.values(scheme.flows ?? {}).flatMap((flow) => Object.keys(flow.scopes ?? {})))),
];
const scope = cardScopes.length > 0 ? cardScopes.join(" ") : "a2a.read a2a.write";

// Two warnings oidc-provider prints that say nothing wrong about a local issuer, kept off a new user's
// terminal: Node 26 from the npm registry has no `process.release.lts` (the provider works on it), and an
// in-memory store is what a local issuer wants (JWT access tokens are not stored at all).
const EXPECTED_WARNINGS = ["Unsupported runtime", "in-memory adapter"];
const warn = console.warn;
console.warn = (...args: unknown[]) => {
  if (!EXPECTED_WARNINGS.some((text) => String(args[0]).includes(text))) warn(...args);
};
const served = await serveIssuer({ port, alg, ttl, resources: [audience], extraClient: { ...PARTNER, scope } }).catch((error: unknown) =>
  listenFailure("issuer", `127.0.0.1:${port}`, error),
);
const { issuer } = served;
const tokenUrl = `${issuer}/token`;

/** skills.json as the local card: every OAuth token URL and OpenID Connect discovery URL is this issuer's. */
function localDocument(): string {
  const doc = JSON.parse(readFileSync(join(ROOT, "skills.json"), "utf8")) as { securitySchemes?: Record<string, Record<string, unknown>> };
  for (const scheme of Object.values(doc.securitySchemes ?? {})) {
    if (scheme.type === "openIdConnect") scheme.openIdConnectUrl = `${issuer}/.well-known/openid-configuration`;
    for (const flow of Object.values((scheme.flows ?? {}) as Record<string, Record<string, unknown>>)) {
      if ("tokenUrl" in flow) flow.tokenUrl = tokenUrl;
    }
  }
  return JSON.stringify(doc);
}

/** `wrangler kv key ... --local`, in the repository (the local state npm run dev reads); its output only when it fails. */
function kv(args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [join(ROOT, "node_modules/wrangler/bin/wrangler.js"), "kv", "key", ...args, "--binding", "SKILLS", "--local"],
      {
        cwd: ROOT,
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("close", (code) => resolve({ code: code ?? 1, output }));
  });
}

const host = new URL(audience).hostname;

/** skills.json as the local card, into local KV under the edge's hostname. */
async function storeCard(): Promise<{ code: number; output: string }> {
  const dir = mkdtempSync(join(tmpdir(), "issuer-card-"));
  try {
    writeFileSync(join(dir, "card.json"), localDocument());
    return await kv(["put", host, "--path", join(dir, "card.json")]);
  } catch (error) {
    return { code: 1, output: `${(error as Error).message}\n` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

let stored = false;
if (!values["no-card"]) {
  const put = await storeCard();
  if (put.code !== 0) {
    process.stderr.write(`issuer: could not store the local card in local KV (key ${host}):\n${put.output}`);
    await served.stop();
    process.exit(1);
  }
  stored = true;
}

// An edit of skills.json reaches the card of npm run dev while this runs, so no restart (which would make a new
// signing key and void every token handed out). Polled, not fs.watch: editors save by renaming a new file over the
// old one, which a watch on the old file's inode misses.
let storing: Promise<unknown> = Promise.resolve();
const skillsPath = join(ROOT, "skills.json");
const restore = () => {
  storing = storing.then(async () => {
    const put = await storeCard();
    process.stdout.write(
      put.code === 0
        ? `issuer: skills.json changed: the card of npm run dev is its new copy (local KV key ${host})\n`
        : `issuer: skills.json changed, but the local card keeps the last copy: ${put.output.trim().split("\n")[0]}\n`,
    );
  });
};
if (stored) watchFile(skillsPath, { interval: 300 }, (now, before) => now.mtimeMs !== before.mtimeMs && restore());

const edge = new URL(audience).origin;
process.stdout.write(`issuer: OpenID provider listening on ${issuer} (discovery: ${issuer}/.well-known/openid-configuration)
issuer: client ${PARTNER.clientId} / ${PARTNER.clientSecret} (client credentials; scopes ${scope}); tokens are JWTs for ${audience}, valid ${ttl} s
`);
if (stored)
  process.stdout.write(`issuer: the card of npm run dev now names this issuer: skills.json with token URL ${tokenUrl}, in local KV key ${host} until this stops, copied again on every save
`);
process.stdout.write(`issuer: get a token (then call ${edge}/ with it; npm run dev and .dev.vars: see the README):
TOKEN=$(curl -s ${tokenUrl} -u ${PARTNER.clientId}:${PARTNER.clientSecret} -d grant_type=client_credentials -d scope=${cardScopes[0] ?? "a2a.read"} -d resource=${audience} | sed -E 's/.*"access_token":"([^"]*)".*/\\1/')
`);

stopOnSignal("issuer", async () => {
  // The sample card again once this issuer is gone: a card naming a stopped issuer would send callers nowhere.
  unwatchFile(skillsPath);
  await storing;
  if (stored) await kv(["delete", host]);
  await served.stop();
});
