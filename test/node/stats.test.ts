// `npm run stats`: the query it sends is the one docs/telemetry.md shows, it reads only what the SQL API
// documents (its table structure and functions), and the script prints what an API answer says.

import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { statsQuery } from "../../scripts/stats-query";
import { outlastClients } from "../support/keep-alive";
import { ROOT, run } from "../support/processes";

/**
 * The table every dataset has, as the SQL API documents it ("Table structure",
 * https://developers.cloudflare.com/analytics/analytics-engine/sql-api/): dataset, timestamp,
 * _sample_interval, index1, blob1-blob20, double1-double20.
 */
const COLUMNS = new Set([
  "dataset",
  "timestamp",
  "_sample_interval",
  "index1",
  ...Array.from({ length: 20 }, (_, i) => `blob${i + 1}`),
  ...Array.from({ length: 20 }, (_, i) => `double${i + 1}`),
]);
/** The functions used, each as the SQL reference names it (aggregate: sum, quantileExactWeighted; conditional: if; date-time: now). */
const FUNCTIONS = new Set(["sum", "quantileexactweighted", "if", "now"]);
/** The statement's own words (SELECT statement, INTERVAL literals, FORMAT clause of the SQL reference). */
const KEYWORDS = new Set(["select", "as", "from", "where", "interval", "hour", "group", "by", "order", "desc", "format", "json"]);

/** The ```sql block of docs/telemetry.md under its Metrics section. */
function documentedQuery(): string {
  const doc = readFileSync(join(ROOT, "docs/telemetry.md"), "utf8");
  const block = /```sql\n([\s\S]*?)```/.exec(doc.slice(doc.indexOf("## Metrics")));
  if (!block?.[1]) throw new Error("docs/telemetry.md shows no query under ## Metrics");
  return block[1].trim();
}

const DATASET = "agent_card_edge_calls";

describe("npm run stats", () => {
  it("sends the query docs/telemetry.md documents", async () => {
    const printed = await run("npm", ["run", "--silent", "stats", "--", "--sql"]);
    expect(printed.code, printed.stderr).toBe(0);
    expect(printed.stdout.trim()).toBe(documentedQuery());
    expect(statsQuery(DATASET, { amount: 1, unit: "HOUR" })).toBe(documentedQuery());
  });

  it("reads only the columns and functions the SQL API documents, and the points the worker writes", () => {
    const query = documentedQuery().replace(/'[^']*'/g, "''");
    const aliases = new Set([...query.matchAll(/\bAS (\w+)/g)].map((m) => m[1]!.toLowerCase()));
    const unknown = [...query.matchAll(/[A-Za-z_][A-Za-z0-9_]*/g)]
      .map(([word]) => word)
      .filter((word) => {
        const lower = word.toLowerCase();
        return !(COLUMNS.has(word) || FUNCTIONS.has(lower) || KEYWORDS.has(lower) || aliases.has(lower) || word === DATASET);
      });
    expect(unknown).toEqual([]);
    // The data point (src/observe/access-record.ts): blob1 agent, blob2 operation, blob5 outcome, double2 the duration.
    const source = readFileSync(join(ROOT, "src/observe/access-record.ts"), "utf8");
    expect(source).toMatch(
      /blobs: \[\s*cutText\(fields\.agent\),\s*cutText\(fields\.operation \?\? "unknown"\),\s*cutText\(fields\.caller\),\s*fields\.binding,\s*failed\(/,
    );
    expect(source).toMatch(/doubles: \[\s*status,\s*timing\.durationMs,\s*timing\.firstByteMs,/);
  });

  it("prints calls, error rate and percentiles per agent and operation from the SQL API's answer", async () => {
    const seen: { url?: string; authorization?: string; body: string }[] = [];
    const server = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk) => (body += chunk));
      req.on("end", () => {
        seen.push({ url: req.url, authorization: req.headers.authorization, body });
        const data = [
          { agent: "agents.example.com", operation: "SendMessage", calls: 1200, error_rate: 0.025, p50_ms: 41, p95_ms: 180.4, p99_ms: 950 },
          { agent: "agents.example.com", operation: "GetTask", calls: 300, error_rate: 0, p50_ms: 12, p95_ms: 30, p99_ms: 44 },
        ];
        res.setHeader("content-type", "application/json");
        res.end(JSON.stringify({ meta: [], data, rows: data.length }));
      });
    });
    await new Promise<void>((resolve) => outlastClients(server).listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    try {
      const env = {
        CLOUDFLARE_ACCOUNT_ID: "acct123",
        CLOUDFLARE_API_TOKEN: "t0ken-for-tests",
        CLOUDFLARE_API_BASE_URL: `http://127.0.0.1:${port}/client/v4`,
      };
      const result = await run("npm", ["run", "--silent", "stats", "--", "--since", "1h"], env);
      expect(result.code, result.stderr).toBe(0);
      expect(seen).toEqual([
        { url: "/client/v4/accounts/acct123/analytics_engine/sql", authorization: "Bearer t0ken-for-tests", body: documentedQuery() },
      ]);
      const lines = result.stdout.trim().split("\n");
      expect(lines[1]).toMatch(/^agent\s+operation\s+calls\s+errors\s+p50 ms\s+p95 ms\s+p99 ms$/);
      expect(lines[2]).toMatch(/^agents\.example\.com\s+SendMessage\s+1200\s+2\.5%\s+41\s+180\s+950$/);
      expect(lines[3]).toMatch(/^agents\.example\.com\s+GetTask\s+300\s+0\.0%\s+12\s+30\s+44$/);
      expect(result.stdout + result.stderr).not.toContain("t0ken-for-tests");
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("answers bad usage with exit 2 and the usage, before any request", async () => {
    for (const args of [["--since", "yesterday"], ["--dataset", "x; DROP"], ["--bogus"]]) {
      const result = await run("npm", ["run", "--silent", "stats", "--", ...args]);
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stderr).toMatch(/^stats: .+\nusage: npm run stats/);
    }
    const noCredentials = await run("npm", ["run", "--silent", "stats"], { CLOUDFLARE_ACCOUNT_ID: "", CLOUDFLARE_API_TOKEN: "" });
    expect(noCredentials.code).toBe(2);
    expect(noCredentials.stderr).toContain("CLOUDFLARE_API_TOKEN");
  });
});
