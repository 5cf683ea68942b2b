// The query `npm run stats` sends to the Workers Analytics Engine SQL API, and
// what it prints of the answer: calls, error rate and latency percentiles per
// agent and operation over a time window. The columns are the data point the
// worker writes (src/observe/access-record.ts): blob1 agent, blob2 operation,
// blob5 outcome (`ok` / `error`), double2 the duration to the end in ms.
// Counts and quantiles are weighted by `_sample_interval`, as the SQL API's
// sampling section asks (Analytics Engine keeps a sample of the points it is
// sent, and `_sample_interval` says how many each one stands for).

/** The window: a whole number of minutes, hours or days (`15m`, `1h`, `7d`). */
export interface Window {
  amount: number;
  unit: "MINUTE" | "HOUR" | "DAY";
}

const UNITS = { m: "MINUTE", h: "HOUR", d: "DAY" } as const;

/** `15m`, `1h`, `7d` as a window; undefined for anything else. */
export function parseWindow(text: string): Window | undefined {
  const match = /^([1-9]\d{0,3})([mhd])$/.exec(text);
  if (!match) return undefined;
  return { amount: Number(match[1]), unit: UNITS[match[2] as keyof typeof UNITS] };
}

/** A dataset name as wrangler.toml declares one: letters, digits and `_` (it is spliced into the query). */
export const isDatasetName = (name: string): boolean => /^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(name);

export const PERCENTILES = [0.5, 0.95, 0.99] as const;

/** The SQL of one report: a row per agent and operation, the busiest first. */
export function statsQuery(dataset: string, window: Window): string {
  if (!isDatasetName(dataset)) throw new Error(`not a dataset name: ${dataset}`);
  const quantiles = PERCENTILES.map((q) => `  quantileExactWeighted(${q})(double2, _sample_interval) AS p${q * 100}_ms`);
  return [
    "SELECT",
    "  blob1 AS agent,",
    "  blob2 AS operation,",
    "  SUM(_sample_interval) AS calls,",
    "  SUM(IF(blob5 = 'error', _sample_interval, 0)) / SUM(_sample_interval) AS error_rate,",
    `${quantiles.join(",\n")}`,
    `FROM ${dataset}`,
    `WHERE timestamp > NOW() - INTERVAL '${window.amount}' ${window.unit}`,
    "GROUP BY agent, operation",
    "ORDER BY calls DESC",
    "FORMAT JSON",
  ].join("\n");
}

/** One row of the answer (the SQL API's JSON format: `{meta, data, rows}`). */
export interface StatsRow {
  agent: string;
  operation: string;
  calls: number;
  error_rate: number;
  p50_ms: number;
  p95_ms: number;
  p99_ms: number;
}

/** The rows of the SQL API's answer; a message when it is not the answer the query asks for. */
export function statsRows(answer: unknown): StatsRow[] | string {
  const data = (answer as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) return "the SQL API's answer has no data rows";
  return data.map((row: Record<string, unknown>) => ({
    agent: String(row.agent ?? ""),
    operation: String(row.operation ?? ""),
    calls: Number(row.calls ?? 0),
    error_rate: Number(row.error_rate ?? 0),
    p50_ms: Number(row.p50_ms ?? 0),
    p95_ms: Number(row.p95_ms ?? 0),
    p99_ms: Number(row.p99_ms ?? 0),
  }));
}

/** A plain table, one line per row, columns aligned. */
export function statsTable(rows: readonly StatsRow[]): string {
  const header = ["agent", "operation", "calls", "errors", "p50 ms", "p95 ms", "p99 ms"];
  const body = rows.map((r) => [
    r.agent,
    r.operation,
    String(Math.round(r.calls)),
    `${(r.error_rate * 100).toFixed(1)}%`,
    r.p50_ms.toFixed(0),
    r.p95_ms.toFixed(0),
    r.p99_ms.toFixed(0),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((cells) => cells[i]?.length ?? 0)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i < 2 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
      .join("  ")
      .trimEnd();
  return [line(header), ...body.map(line)].join("\n");
}
