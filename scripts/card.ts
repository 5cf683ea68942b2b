// npm run card -- --base https://agents.example.com [--variant v1|v0.3|hybrid|legacy]
//                 [--out card.json] [--source skills.json] [--rpc-path /]
//                 [--protocol-versions 1.0,0.3] [--skills "Name A,Name B"] [--pretty]
// Prints (or writes) the card the worker would serve for that public base, for
// publishing a static card. Uses the same pure builder as the worker.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { buildCard } from "../src/card/build-card";
import { parseCardSourceText } from "../src/card/source";
import { CARD_VARIANTS, type CardVariant } from "../src/card/variant";
import { parseConfig } from "../src/config";
import { joinUrl } from "../src/http/urls";
import { issuesToText } from "../src/validation";
import { type Cli, cli } from "./usage";

const cmd: Cli = cli(
  "card",
  `usage: npm run card -- --base URL [--variant ${CARD_VARIANTS.join("|")}] [--out FILE] [--source FILE]
                       [--rpc-path PATH] [--protocol-versions 1.0,0.3] [--skills "Name A,Name B"] [--pretty]`,
);

const { values } = cmd.parseArgs({
  options: {
    base: { type: "string" },
    variant: { type: "string", default: "hybrid" },
    out: { type: "string" },
    source: { type: "string", default: "skills.json" },
    "rpc-path": { type: "string" },
    "protocol-versions": { type: "string" },
    skills: { type: "string" },
    pretty: { type: "boolean", default: false },
  },
  strict: true,
});

if (!values.base) cmd.usageError("--base <public base URL> is required, e.g. --base https://agents.example.com");
if (!(CARD_VARIANTS as readonly string[]).includes(values.variant)) {
  cmd.usageError(`--variant must be one of ${CARD_VARIANTS.join(", ")}`);
}
// The same parser (and errors) as the worker's PUBLIC_BASE_URL, RPC_PATH, ...
const config = parseConfig({
  PUBLIC_BASE_URL: values.base,
  RPC_PATH: values["rpc-path"],
  PROTOCOL_VERSIONS: values["protocol-versions"],
  SKILL_ALLOWLIST: values.skills,
});
const FLAGS: Record<string, string> = {
  PUBLIC_BASE_URL: "--base",
  RPC_PATH: "--rpc-path",
  PROTOCOL_VERSIONS: "--protocol-versions",
  SKILL_ALLOWLIST: "--skills",
};
if (!config.ok) cmd.usageError(issuesToText(config.issues.map((issue) => ({ ...issue, path: FLAGS[issue.path] ?? issue.path }))));

let text: string;
try {
  text = readFileSync(values.source, "utf8");
} catch (error) {
  cmd.usageError(`--source: cannot read ${values.source}: ${(error as Error).message}`);
}
const source = parseCardSourceText(text);
if (!source.ok) cmd.fail(`${values.source} is not a valid card-source document: ${issuesToText(source.issues)}`);

const { publicBaseUrl, rpcPath, protocolVersions, skillAllowlist } = config.value;
if (!publicBaseUrl) cmd.usageError("--base is required (the public base URL the card advertises)");
const card = buildCard(
  source.value,
  { rpcUrl: joinUrl(publicBaseUrl, rpcPath), protocolVersions, skillAllowlist },
  values.variant as CardVariant,
);
const output = values.pretty ? `${JSON.stringify(card, null, 2)}\n` : JSON.stringify(card);
if (values.out) {
  // A fresh clone has no public/.well-known/: make the folders the path names.
  try {
    mkdirSync(dirname(values.out), { recursive: true });
    writeFileSync(values.out, output);
  } catch (error) {
    cmd.fail(`cannot write ${values.out}: ${(error as Error).message}`);
  }
  process.stderr.write(`card: wrote ${values.variant} card for ${publicBaseUrl} to ${values.out}\n`);
} else {
  process.stdout.write(output);
}
