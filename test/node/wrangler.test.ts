// The README's commands, as real processes: `npm run build` (offline dry-run
// bundle), `wrangler types --check`, and `npm run dev` serving the bundled card.
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import bundled from "../../skills.json";
import { run, type Started, startWranglerDev } from "../support/processes";
import { schemaErrors } from "../support/schemas";

describe("npm run build", () => {
  it("bundles the worker offline with wrangler deploy --dry-run, within 64 KiB gzip", async () => {
    const outdir = mkdtempSync(join(tmpdir(), "build-"));
    const { code, stdout, stderr } = await run("node_modules/.bin/wrangler", ["deploy", "--dry-run", "--outdir", outdir]);
    expect(code, stdout + stderr).toBe(0);
    expect(stdout).toContain("--dry-run: exiting now.");
    expect(readdirSync(outdir)).toContain("index.js");
    const gzipBytes = gzipSync(readFileSync(join(outdir, "index.js"))).length;
    expect(gzipBytes).toBeLessThanOrEqual(64 * 1024);
  });

  it("has generated binding types that match wrangler.toml", async () => {
    const { code, stdout, stderr } = await run("node_modules/.bin/wrangler", [
      "types",
      "--include-runtime=false",
      "--strict-vars=false",
      "--check",
    ]);
    expect(code, stdout + stderr).toBe(0);
  });
});

describe("npm run dev", () => {
  let dev: Started;
  let base: string;
  beforeAll(async () => {
    ({ dev, base } = await startWranglerDev());
  });
  afterAll(() => dev?.stop());

  it("serves the bundled skills.json card on 127.0.0.1 with URLs of the local host", async () => {
    const response = await fetch(`${base}/.well-known/agent-card.json`, { headers: { "A2A-Version": "1.0" } });
    expect(response.status).toBe(200);
    const card = (await response.json()) as Record<string, any>;
    expect(schemaErrors.v1Card(card)).toEqual([]);
    expect(card.name).toBe(bundled.name);
    expect(card.supportedInterfaces[0].url).toBe(`${base}/`);
    const legacy = (await (await fetch(`${base}/.well-known/agent.json`)).json()) as Record<string, any>;
    expect(legacy.url).toBe(`${base}/`);
  });
});
