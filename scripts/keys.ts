// npm run keys [-- --alg ES256|EdDSA] [--kid NAME] [--for card|assertion] [--dev-vars]
// Generates a signing key pair and prints the wrangler commands that store it:
// the card signing key (CARD_SIGNING_KEY) or the key of A2A-Caller-Assertion
// (AUTH_ASSERTION_KEY). The private key is printed once, here, and goes only
// into that secret. With --dev-vars it goes into .dev.vars instead (for npm run
// dev), replacing the line of the same variable, and is not printed at all.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { type Cli, cli } from "./usage";

const cmd: Cli = cli("keys", "usage: npm run keys [-- --alg ES256|EdDSA] [--kid NAME] [--for card|assertion] [--dev-vars]");
const { values } = cmd.parseArgs({
  options: {
    alg: { type: "string", default: "ES256" },
    kid: { type: "string" },
    for: { type: "string", default: "card" },
    "dev-vars": { type: "boolean", default: false },
  },
  strict: true,
});
if (values.for !== "card" && values.for !== "assertion")
  cmd.usageError(`--for must be card or assertion, not ${JSON.stringify(values.for)}`);
const forAssertion = values.for === "assertion";
const alg = values.alg === "EdDSA" || values.alg === "Ed25519" ? "EdDSA" : values.alg === "ES256" ? "ES256" : undefined;
if (!alg) cmd.usageError(`--alg must be ES256 or EdDSA, not ${JSON.stringify(values.alg)}`);
if (values.kid === "") cmd.usageError("--kid must not be empty");
const kid = values.kid ?? `${values.for}-${new Date().toISOString().slice(0, 10)}-${crypto.randomUUID().slice(0, 8)}`;
const pair = (await crypto.subtle.generateKey(alg === "ES256" ? { name: "ECDSA", namedCurve: "P-256" } : { name: "Ed25519" }, true, [
  "sign",
  "verify",
])) as CryptoKeyPair;
const { key_ops: _ops, ext: _ext, ...priv } = (await crypto.subtle.exportKey("jwk", pair.privateKey)) as JsonWebKey;
const { key_ops: _pops, ext: _pext, ...pub } = (await crypto.subtle.exportKey("jwk", pair.publicKey)) as JsonWebKey;
const privateJwk = JSON.stringify({ ...priv, kid, alg });
const publicJwk = JSON.stringify({ ...pub, kid, alg, use: "sig" });

if (values["dev-vars"]) {
  // npm runs scripts in the package root, where wrangler dev reads .dev.vars.
  const file = ".dev.vars";
  const variable = forAssertion ? "AUTH_ASSERTION_KEY" : "CARD_SIGNING_KEY";
  const lines = existsSync(file) ? readFileSync(file, "utf8").split("\n") : [];
  const kept = lines.filter((line) => !line.startsWith(`${variable}=`));
  if (kept.at(-1) === "") kept.pop();
  kept.push(`${variable}='${privateJwk}'`);
  // A card is signed only for hosts named (docs/signing.md); name npm run dev's unless the file names some.
  const named = kept.some((line) => line.startsWith("HOST_ALLOWLIST=") || line.startsWith("PUBLIC_BASE_URL="));
  if (!forAssertion && !named) kept.push("HOST_ALLOWLIST=127.0.0.1:8787,localhost:8787");
  writeFileSync(file, `${kept.join("\n")}\n`);
  process.stdout.write(`keys: ${variable} (kid ${kid}, ${alg}) written to .dev.vars; restart npm run dev\n`);
  process.exit(0);
}

if (forAssertion) {
  process.stdout.write(`# A2A-Caller-Assertion key ${kid} (${alg}). Store the private key as a secret:
echo '${privateJwk}' | npx wrangler secret put AUTH_ASSERTION_KEY

# Its public key is served at /.well-known/jwks.json, where origins verify the assertion.

# For npm run dev, add to .dev.vars (then restart npm run dev):
# AUTH_ASSERTION_KEY='${privateJwk}'
`);
  process.exit(0);
}

process.stdout.write(`# Card signing key ${kid} (${alg}). Store the private key as a secret:
echo '${privateJwk}' | npx wrangler secret put CARD_SIGNING_KEY

# Its public key is served at /.well-known/jwks.json. When you rotate to a new key later,
# keep this one listed there until cached cards signed with it have expired:
echo '[${publicJwk}]' | npx wrangler secret put CARD_SIGNING_PUBLIC_KEYS

# For npm run dev, add to .dev.vars (then restart npm run dev); a card is signed only for the hosts
# and ports you name (with npm run dev -- --port N, name port N):
# CARD_SIGNING_KEY='${privateJwk}'
# HOST_ALLOWLIST=127.0.0.1:8787,localhost:8787
`);
