// Section 9 of bench:proxy: what telemetry costs a call, inside workerd.
//  - per call, in one isolate (bench/telemetry-worker.ts, loops framed by timers as bench:push does): the
//    trace context, the CALL_METRICS data point, the access record with its console.log, the same record
//    without the console; goal: the record and the data point together <= 0.03 ms;
//  - end to end on the built bundle, 1 connection: ACCESS_LOG=off without CALL_METRICS, the default
//    (ACCESS_LOG=errors: a successful call unrecorded, its data point written) and ACCESS_LOG=all with
//    CALL_METRICS. Here Miniflare's log pipe (workerd's stdout, parsed in this process, beside the load
//    tool) carries every record: its figure bounds what a record costs locally, not on Cloudflare.
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { ROOT, serve, serveBundle, tempDir, wranglerCompatibilityDate } from "./lib";
import { load, printTable, sideBySide, verdict } from "./measure";
import { sendBody } from "./proxy-targets";

const headers = { "content-type": "application/json", "a2a-version": "1.0" };
const kib = { method: "POST" as const, body: sendBody("SendMessage", 1024) };
const ITERATIONS = 20_000;
const ROUNDS = 5;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

/** The records the `all` target wrote, and their bytes. */
const records = { count: 0, bytes: 0 };
const metrics = { analyticsEngineDatasets: { CALL_METRICS: { dataset: "bench_calls" } } };
const take = {
  handleStructuredLogs: ({ message }: { message: string }) => {
    if (!message.includes('"event":"access"')) return;
    records.count++;
    records.bytes += Buffer.byteLength(message);
  },
};

/** The loop worker bundled by wrangler (its own config: none of the project's bindings). */
function buildLoopWorker(): string {
  const dir = tempDir("bench-telemetry-");
  const config = join(dir, "wrangler.toml");
  const main = join(ROOT, "bench/telemetry-worker.ts");
  writeFileSync(config, `name = "bench-telemetry"\nmain = "${main}"\ncompatibility_date = "${wranglerCompatibilityDate()}"\n`);
  execFileSync(join(ROOT, "node_modules/.bin/wrangler"), ["deploy", "--dry-run", "--config", config, "--outdir", join(dir, "out")], {
    cwd: ROOT,
    env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
    stdio: "ignore",
  });
  return join(dir, "out", "telemetry-worker.js");
}

export async function telemetryTargets(bundle: { path: string }, origin: string) {
  const common = { ORIGIN_URL: origin, EDGE_AUTH: "off" };
  const off = await serveBundle(bundle, { ...common, ACCESS_LOG: "off" });
  const errors = await serveBundle(bundle, { ...common, ACCESS_LOG: "errors" }, metrics);
  const all = await serveBundle(bundle, { ...common, ACCESS_LOG: "all" }, { ...metrics, ...take });
  const script = buildLoopWorker();
  const loop = await serve({
    modules: true,
    scriptPath: script,
    modulesRoot: dirname(script),
    ...metrics,
    handleStructuredLogs: () => undefined,
  });
  return { off: off.url.href, errors: errors.url.href, all: all.url.href, loop: loop.url.href };
}

type Targets = { telemetry: Awaited<ReturnType<typeof telemetryTargets>> };

/** Median ms per call of one piece, in the loop worker. */
async function perCall(loop: string, kind: string): Promise<number> {
  const samples: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const result = (await (await fetch(new URL(`/?kind=${kind}&n=${ITERATIONS}`, loop))).json()) as { perCallMs: number };
    samples.push(result.perCallMs);
  }
  return median(samples);
}

/** 9. What telemetry costs a call. */
export async function telemetryCost({ telemetry: t }: Targets): Promise<void> {
  const pieces: Record<string, number> = {};
  for (const kind of ["trace", "point", "line", "record", "both"]) {
    pieces[kind] = await perCall(t.loop, kind);
    console.log(`${kind.padEnd(7)} ${((pieces[kind] ?? 0) * 1000).toFixed(2)} µs per call (median of ${ROUNDS} x ${ITERATIONS})`);
  }
  const single = { request: kib, connections: 1 };
  const rows = await sideBySide({
    "ACCESS_LOG=off, no CALL_METRICS": () => load(t.off, headers, single),
    "ACCESS_LOG=errors + CALL_METRICS": () => load(t.errors, headers, single),
    "ACCESS_LOG=all + CALL_METRICS": () => load(t.all, headers, single),
  });
  printTable(rows);
  for (const [name, row] of Object.entries(rows)) {
    if (row.non2xx > 0 || row.errors > 0) throw new Error(`${name}: ${row.non2xx} non-2xx and ${row.errors} errors`);
  }
  const meanMs = (name: string) => 1000 / (rows[name]?.requestsPerSecond ?? Number.NaN);
  const off = meanMs("ACCESS_LOG=off, no CALL_METRICS");
  console.log(
    `end to end, mean ms per call over ACCESS_LOG=off: the default ${(meanMs("ACCESS_LOG=errors + CALL_METRICS") - off).toFixed(3)} ms, every call recorded ${(meanMs("ACCESS_LOG=all + CALL_METRICS") - off).toFixed(3)} ms (Miniflare's log pipe included)`,
  );
  if (records.count > 0) console.log(`one access record: ${Math.round(records.bytes / records.count)} bytes, one Workers Logs event`);
  const both = pieces.both ?? Number.POSITIVE_INFINITY;
  verdict("the access record and the data point, per call, in workerd", `${both.toFixed(4)} ms`, "<= 0.03 ms", both <= 0.03);
}
