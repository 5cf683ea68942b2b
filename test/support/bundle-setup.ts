// Vitest globalSetup of the node project: the worker built once per run (`wrangler deploy --dry-run`, what
// `npm run build` runs), for every suite that serves the built bundle in workerd. Building it per file cost
// ~4 s each, five times a run. Built around the sample card (test/support/sample-card.ts), never the user's.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { hermeticEnv } from "./hermetic";
import { SAMPLE_CARD_ALIAS } from "./sample-card";

declare module "vitest" {
  export interface ProvidedContext {
    /** The built worker's entry module (index.js). */
    bundlePath: string;
  }
}

const ROOT = new URL("../../", import.meta.url).pathname;

export default function setup(project: TestProject): () => void {
  const outdir = mkdtempSync(join(tmpdir(), "test-bundle-"));
  execFileSync(join(ROOT, "node_modules/.bin/wrangler"), ["deploy", "--dry-run", "--outdir", outdir, ...SAMPLE_CARD_ALIAS], {
    cwd: ROOT,
    env: { ...hermeticEnv(), WRANGLER_SEND_METRICS: "false" },
    stdio: "pipe",
  });
  project.provide("bundlePath", join(outdir, "index.js"));
  return () => rmSync(outdir, { recursive: true, force: true });
}
