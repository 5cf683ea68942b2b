import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { isolatedWranglerConfig, makeProcessEnvHermetic } from "./test/support/hermetic.ts";
import { SAMPLE_CARD, withSampleCard } from "./test/support/sample-card.ts";

// No developer's dev state reaches a test (test/support/hermetic.ts): wrangler runs in this process for the
// workers project, and every process the node project starts inherits this environment.
makeProcessEnvHermetic();
const root = import.meta.dirname;

export default defineConfig({
  test: {
    // Three files at a time on 2 cores (vitest's default there is one): most node suites wait on processes and
    // sockets, not on a core (vitest run on 2 cores: 275 s, where two at a time took 300 s and more).
    maxWorkers: 3,
    silent: "passed-only", // a test's console output (the worker's log lines included) is printed only if it fails
    projects: [
      {
        // Inside workerd, with the bindings of wrangler.toml (real local KV), read from a copy without .dev.vars beside it.
        // TEST_RATE_LIMITER: a real Workers Rate Limiting binding (Miniflare's), handed to the worker as
        // RATE_LIMITER only by the tests about rate limits (test/worker/auth.test.ts).
        plugins: [
          cloudflareTest({
            main: "./src/index.ts",
            wrangler: { configPath: isolatedWranglerConfig(root, withSampleCard) },
            miniflare: { ratelimits: { TEST_RATE_LIMITER: { namespace_id: "1001", simple: { limit: 3, period: 60 } } } },
          }),
        ],
        // The sample card, the tests' own fixture, where the worker imports the user's skills.json.
        resolve: { alias: { "#skills": SAMPLE_CARD } },
        // A slow or loaded machine is not a failure: no test here asserts time (vitest's default timeout is 5 s).
        test: {
          name: "workers",
          // One isolate per vitest worker for all its files, not one per file: the project took 93 s (167 s CPU)
          // isolated and takes 26 s (42 s CPU). test/worker/setup.ts refuses a file that leaves the clock faked.
          isolate: false,
          include: ["test/worker/**/*.test.ts"],
          setupFiles: ["test/worker/setup.ts"],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        // Real processes: the CLI, wrangler, origin agents and SDK clients.
        test: {
          name: "node",
          include: ["test/node/**/*.test.ts"],
          environment: "node",
          // The worker built once per run, for the suites that serve the built bundle.
          globalSetup: ["test/support/bundle-setup.ts"],
          // Hang guards, never a measure of speed: a hook that starts a wrangler dev and two wrangler kv processes
          // (~9 s of CPU) outran 120 s with two whole suites running at once on the 2 cores.
          testTimeout: 300_000,
          hookTimeout: 300_000,
        },
      },
    ],
  },
});
