// npm run stats [-- --since 1h] [--dataset agent_card_edge_calls]
// Calls, error rate and latency percentiles per agent and operation, from the
// CALL_METRICS data points, through the Workers Analytics Engine SQL API
// (POST /accounts/{account_id}/analytics_engine/sql, a bearer token with
// Account Analytics Read). CLOUDFLARE_ACCOUNT_ID and CLOUDFLARE_API_TOKEN say
// where and who; CLOUDFLARE_API_BASE_URL (as wrangler reads it) another API base.
import { readFileSync } from "node:fs";
import { isDatasetName, parseWindow, statsQuery, statsRows, statsTable } from "./stats-query";
import { type Cli, cli } from "./usage";

const cmd: Cli = cli("stats", "usage: npm run stats [-- --since 1h|15m|7d] [--dataset NAME] [--sql]");

const { values } = cmd.parseArgs({
  options: {
    since: { type: "string", default: "1h" },
    dataset: { type: "string" },
    sql: { type: "boolean", default: false },
  },
  strict: true,
});

/** The dataset wrangler.toml binds to CALL_METRICS. */
function declaredDataset(): string | undefined {
  const toml = readFileSync(new URL("../wrangler.toml", import.meta.url), "utf8");
  const block = toml.split("[[analytics_engine_datasets]]")[1]?.split(/^\[/m)[0] ?? "";
  return /^dataset\s*=\s*"([^"]+)"/m.exec(block)?.[1];
}

const window = parseWindow(values.since);
if (!window) cmd.usageError(`--since must be a whole number of minutes, hours or days (15m, 1h, 7d), not ${JSON.stringify(values.since)}`);
const dataset = values.dataset ?? declaredDataset();
if (dataset === undefined || !isDatasetName(dataset))
  cmd.usageError(`--dataset must name an Analytics Engine dataset (letters, digits, _)`);
const query = statsQuery(dataset, window);
if (values.sql) {
  process.stdout.write(`${query}\n`);
  process.exit(0);
}
const account = process.env.CLOUDFLARE_ACCOUNT_ID;
const token = process.env.CLOUDFLARE_API_TOKEN;
if (!account || !token) cmd.usageError("set CLOUDFLARE_ACCOUNT_ID and CLOUDFLARE_API_TOKEN (a token with Account Analytics Read)");
const base = (process.env.CLOUDFLARE_API_BASE_URL || "https://api.cloudflare.com/client/v4").replace(/\/+$/, "");

let response: Response;
try {
  response = await fetch(`${base}/accounts/${encodeURIComponent(account)}/analytics_engine/sql`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}` },
    body: query,
  });
} catch (error) {
  process.stderr.write(`stats: the SQL API could not be reached: ${(error as Error).message}\n`);
  process.exit(1);
}
const text = await response.text();
if (!response.ok) {
  // The API's own message (never the token): what it refused and why.
  process.stderr.write(`stats: the SQL API answered ${response.status}: ${text.slice(0, 500)}\n`);
  process.exit(1);
}
let answer: unknown;
try {
  answer = JSON.parse(text);
} catch {
  answer = undefined;
}
const rows = statsRows(answer);
if (typeof rows === "string") {
  process.stderr.write(`stats: ${rows}\n`);
  process.exit(1);
}
process.stdout.write(`${dataset}, the last ${values.since}:\n${rows.length === 0 ? "no calls" : statsTable(rows)}\n`);
