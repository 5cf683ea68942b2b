// npm run skills:push [-- --host agents.example.com] [--file skills.json] [--local] [--persist-to DIR] [--env NAME]
// Validates a card-source document with the worker's own schema, then uploads
// it under the host (or `default`): with ADMIN_URL (the admin API's base, e.g.
// https://agents.example.com/_admin) and ADMIN_TOKEN in the environment, as a
// PUT to the admin API, so the write is a version, notifies the registries and
// reaches the live feed; otherwise with wrangler straight into the SKILLS
// namespace (the admin API adopts it later, no event is sent). The token is
// read from the environment only: a flag would show it in process lists.
// An invalid document is refused with readable errors and nothing is uploaded.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { readCardInputText } from "../src/card/intake";
import { repairsToText } from "../src/card/repairs";
import { isDocumentKey } from "../src/card/store";
import { type Cli, cli } from "./usage";

const cmd: Cli = cli(
  "skills:push",
  "usage: npm run skills:push [-- --host agents.example.com] [--file skills.json] [--local] [--persist-to DIR] [--env NAME]\n" +
    "       with ADMIN_URL (e.g. https://agents.example.com/_admin) and ADMIN_TOKEN set: a PUT through the admin API instead",
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
if (!isDocumentKey(key)) {
  cmd.usageError(
    `--host must be "default", a hostname, or a hostname and an agent path (agents.example.com/travel), not ${JSON.stringify(values.host)}`,
  );
}
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

const adminUrl = process.env.ADMIN_URL?.trim().replace(/\/+$/, "");
const adminToken = process.env.ADMIN_TOKEN?.trim();
if (adminUrl && !URL.canParse(adminUrl)) cmd.usageError("ADMIN_URL must be the admin API's URL, such as https://agents.example.com/_admin");
if (adminUrl && !adminToken) cmd.usageError("ADMIN_URL is set: set ADMIN_TOKEN too (the admin API's bearer token)");
if (adminUrl && (values.local || values["persist-to"] || values.env)) {
  cmd.usageError("--local, --persist-to and --env are for wrangler; with ADMIN_URL the admin API writes (unset ADMIN_URL to use wrangler)");
}

/** A PUT through the admin API: what it answers is printed (its own error shape carries no secret). */
async function putThroughAdmin(url: string, token: string): Promise<never> {
  process.stderr.write(
    `skills:push: ${values.file} is valid (${source.skills.length} skills); uploading ${key} through the admin API at ${new URL(url).origin}\n`,
  );
  // A path agent's key keeps its slashes: the admin API takes `/documents/<host>/<path>`.
  const response = await fetch(`${url}/documents/${key.split("/").map(encodeURIComponent).join("/")}`, {
    method: "PUT",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: text,
  }).catch((error: Error) => cmd.fail(`the admin API did not answer: ${error.message}`));
  const answer = await response.text();
  if (!response.ok) cmd.fail(`the admin API refused the document (${response.status}): ${answer.slice(0, 2000)}`);
  process.stderr.write(`skills:push: stored as version ${response.headers.get("etag")}\n`);
  process.exit(0);
}

const { source, repairs } = parsed.value;
if (repairs.length > 0)
  process.stderr.write(`skills:push: the card is published with ${repairs.length} repairs: ${repairsToText(repairs)}\n`);
if (adminUrl && adminToken) await putThroughAdmin(adminUrl, adminToken);
if (adminToken)
  process.stderr.write(
    "skills:push: ADMIN_TOKEN is set but ADMIN_URL is not: writing KV with wrangler (no version check, no feed event)\n",
  );

const args = ["kv", "key", "put", key, "--path", values.file, "--binding", "SKILLS", values.local ? "--local" : "--remote"];
if (values["persist-to"]) args.push("--persist-to", values["persist-to"]);
if (values.env) args.push("--env", values.env);
process.stderr.write(`skills:push: ${values.file} is valid (${source.skills.length} skills); uploading to SKILLS/${key}\n`);
const result = spawnSync(new URL("../node_modules/.bin/wrangler", import.meta.url).pathname, args, { stdio: "inherit" });
process.exit(result.status ?? 1);
