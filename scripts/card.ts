// npm run card -- --base https://agents.example.com [--variant v1|v0.3|hybrid|legacy]
//                 [--out card.json] [--source skills.json] [--rpc-path /]
//                 [--protocol-versions 1.0,0.3] [--skills "Name A,Name B"] [--pretty]
// npm run card -- --source FILE --check
// Prints (or writes) the card the worker would serve for that public base, for
// publishing a static card. Uses the same card intake and pure builder as the
// worker: FILE is a card-source document or an A2A card of any generation.
// --check prints what intake repairs and exits 1 only when FILE cannot be published.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { buildCard } from "../src/card/build-card";
import { readCardInputText } from "../src/card/intake";
import { REPAIR_RULES } from "../src/card/repair-rules";
import { CARD_VARIANTS, type CardVariant } from "../src/card/variant";
import { parseConfig } from "../src/config";
import { joinUrl } from "../src/http/urls";
import { issuesToText } from "../src/validation";
import { type Cli, cli } from "./usage";

const cmd: Cli = cli(
  "card",
  `usage: npm run card -- --base URL [--variant ${CARD_VARIANTS.join("|")}] [--out FILE] [--source FILE]
                       [--rpc-path PATH] [--protocol-versions 1.0,0.3] [--skills "Name A,Name B"] [--pretty]
       npm run card -- --source FILE --check`,
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
    check: { type: "boolean", default: false },
  },
  strict: true,
});

function readSource(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    cmd.usageError(`--source: cannot read ${path}: ${(error as Error).message}`);
  }
}

if (values.check) {
  const read = readCardInputText(readSource(values.source));
  if (!read.ok) cmd.fail(`${values.source} cannot be published: ${issuesToText(read.issues)}`);
  const { kind, repairs } = read.value;
  const lines = repairs.map((r) => `  - ${r.rule}${r.path ? ` ${r.path}` : ""}: ${r.message}`);
  process.stdout.write(
    `${values.source}: ${kind === "card" ? "an A2A card" : "a card-source document"}, publishable with ${repairs.length} repairs\n`,
  );
  if (lines.length > 0) process.stdout.write(`${lines.join("\n")}\n`);
  for (const rule of new Set(repairs.map((r) => r.rule))) process.stdout.write(`  ${rule}: ${REPAIR_RULES[rule]}\n`);
  process.exit(0);
}

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

const source = readCardInputText(readSource(values.source));
if (!source.ok)
  cmd.fail(
    `${values.source} cannot be published (neither a valid card-source document nor a readable A2A card): ${issuesToText(source.issues)}`,
  );
if (source.value.repairs.length > 0) {
  process.stderr.write(`card: ${source.value.repairs.length} repairs (npm run card -- --source ${values.source} --check lists them)\n`);
}

const { publicBaseUrl, rpcPath, protocolVersions, skillAllowlist } = config.value;
if (!publicBaseUrl) cmd.usageError("--base is required (the public base URL the card advertises)");
const card = buildCard(
  source.value.source,
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
