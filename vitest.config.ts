import { cloudflareTest } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: [
      {
        // Inside workerd, with the bindings of wrangler.toml (real local KV).
        plugins: [cloudflareTest({ main: "./src/index.ts", wrangler: { configPath: "./wrangler.toml" } })],
        test: { name: "workers", include: ["test/worker/**/*.test.ts"] },
      },
      {
        // Real processes: the CLI, wrangler, origin agents and SDK clients.
        test: {
          name: "node",
          include: ["test/node/**/*.test.ts"],
          environment: "node",
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
