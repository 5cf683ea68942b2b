// npm run bench:push — what the push-webhook guard (src/push/) costs on a call, inside workerd: the stage of
// src/call/admit.ts run many times in one isolate (bench/push-guard-worker.ts), for a SendMessage with an
// inline push config (native: one side checked; bridged: both), and for a send without one.
// Goal: <= 0.05 ms per send with an inline config. Prints the figure, the goal and whether this run met it.

import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { type Cli, cli } from "../scripts/usage";
import { ROOT, runBench, serve, tempDir, wranglerCompatibilityDate } from "./lib";
import { verdict } from "./measure";

const cmd: Cli = cli("bench:push", "usage: [BENCH_ROUNDS=5] npm run bench:push");
cmd.parseArgs({ options: {} });
const rounds = cmd.intEnv("BENCH_ROUNDS", 5, 1);

const ITERATIONS = 200_000;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** The bench worker bundled by wrangler (its own config: none of the project's bindings). */
function buildWorker(): string {
  const dir = tempDir("bench-push-");
  const config = join(dir, "wrangler.toml");
  const main = join(ROOT, "bench/push-guard-worker.ts");
  writeFileSync(config, `name = "bench-push"\nmain = "${main}"\ncompatibility_date = "${wranglerCompatibilityDate()}"\n`);
  execFileSync(join(ROOT, "node_modules/.bin/wrangler"), ["deploy", "--dry-run", "--config", config, "--outdir", join(dir, "out")], {
    cwd: ROOT,
    env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
    stdio: "ignore",
  });
  return join(dir, "out", "push-guard-worker.js");
}

async function main(): Promise<number> {
  const script = buildWorker();
  const { url, stop } = await serve({ modules: true, scriptPath: script, modulesRoot: dirname(script) });
  const figures: Record<string, number> = {};
  for (const kind of ["inline", "bridged", "none"]) {
    const samples: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const response = await fetch(new URL(`/?kind=${kind}&n=${ITERATIONS}`, url));
      const result = (await response.json()) as { perCallMs: number; refused: number };
      if (result.refused !== 0) throw new Error(`the bench's ${kind} call was refused`);
      samples.push(result.perCallMs);
    }
    figures[kind] = median(samples);
    console.log(`${kind.padEnd(8)} ${(figures[kind]! * 1000).toFixed(2)} µs per call (median of ${rounds} x ${ITERATIONS})`);
  }
  await stop();
  const inline = figures.inline ?? Number.POSITIVE_INFINITY;
  verdict("push guard, send with an inline config", `${inline.toFixed(4)} ms`, "<= 0.05 ms", inline <= 0.05);
  return 0;
}

await runBench(main);
