// npm run skills:push [-- --host agents.example.com] [--file skills.json] [--local] [--persist-to DIR] [--env NAME]
// Validates a card-source document with the worker's own schema, then uploads
// it with wrangler to the SKILLS namespace under the host (or `default`).
// An invalid document is refused with readable errors and nothing is uploaded.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { readCardInputText } from "../src/card/intake";
import { repairsToText } from "../src/card/repairs";
import { isDocumentKey } from "../src/card/store";
import { type Cli, cli } from "./usage";

const cmd: Cli = cli(
  "skills:push",
  "usage: npm run skills:push [-- --host agents.example.com] [--file skills.json] [--local] [--persist-to DIR] [--env NAME]",
);

const { values } = cmd.parseArgs({
  options: {
    host: { type: "string", default: "default" },
    file: { type: "string", default: "skills.json" },
    local: { type: "boolean", default: false },
    "persist-to": { type: "string" },
    env: { type: "string" },
  },
  strict: true,
});

const key = values.host.toLowerCase();
if (!isDocumentKey(key)) cmd.usageError(`--host must be "default" or a hostname, not ${JSON.stringify(values.host)}`);
let text: string;
try {
  text = readFileSync(values.file, "utf8");
} catch (error) {
  cmd.usageError(`--file: cannot read ${values.file}: ${(error as Error).message}`);
}
const parsed = readCardInputText(text);
if (!parsed.ok) {
  cmd.fail(
    `${values.file} is not a valid card-source document; nothing was uploaded:\n${parsed.issues.map((i) => `  - ${i.path || "(document)"}: ${i.message}`).join("\n")}`,
  );
}

const args = ["kv", "key", "put", key, "--path", values.file, "--binding", "SKILLS", values.local ? "--local" : "--remote"];
if (values["persist-to"]) args.push("--persist-to", values["persist-to"]);
if (values.env) args.push("--env", values.env);
const { source, repairs } = parsed.value;
if (repairs.length > 0)
  process.stderr.write(`skills:push: the card is published with ${repairs.length} repairs: ${repairsToText(repairs)}\n`);
process.stderr.write(`skills:push: ${values.file} is valid (${source.skills.length} skills); uploading to SKILLS/${key}\n`);
const result = spawnSync(new URL("../node_modules/.bin/wrangler", import.meta.url).pathname, args, { stdio: "inherit" });
process.exit(result.status ?? 1);
