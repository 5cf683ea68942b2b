// npm run skills:push: local validation, then a real wrangler upload (to local KV).
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { run } from "../support/processes";
import { SAMPLE_CARD } from "../support/sample-card";

const push = (...args: string[]) => run("node_modules/.bin/tsx", ["scripts/skills-push.ts", ...args]);

describe("npm run skills:push", () => {
  it("refuses an invalid document with readable errors and uploads nothing", async () => {
    const dir = mkdtempSync(join(tmpdir(), "push-"));
    const file = join(dir, "bad.json");
    writeFileSync(file, JSON.stringify({ name: "", iconUrl: "nope", skills: [{ name: "A" }, { name: "A" }] }));
    const persist = join(dir, "state");
    const { code, stderr } = await push("--file", file, "--local", "--persist-to", persist);
    expect(code).toBe(2);
    expect(stderr).toContain("nothing was uploaded");
    expect(stderr).toMatch(/- name: /);
    expect(stderr).toMatch(/- iconUrl: Invalid URL/);
    expect(stderr).toMatch(/- skills\.1\.name: duplicate skill name "A"/);
    const get = await run("node_modules/.bin/wrangler", [
      "kv",
      "key",
      "get",
      "default",
      "--binding",
      "SKILLS",
      "--local",
      "--persist-to",
      persist,
    ]);
    expect(get.stdout + get.stderr).toMatch(/not found/i);
  });

  it("uploads a valid document under the host with wrangler", async () => {
    const dir = mkdtempSync(join(tmpdir(), "push-"));
    const persist = join(dir, "state");
    const { code, stderr } = await push("--host", "Agents.Example.com", "--file", SAMPLE_CARD, "--local", "--persist-to", persist);
    expect(code, stderr).toBe(0);
    const get = await run("node_modules/.bin/wrangler", [
      "kv",
      "key",
      "get",
      "agents.example.com",
      "--binding",
      "SKILLS",
      "--local",
      "--persist-to",
      persist,
    ]);
    expect(JSON.parse(get.stdout).name).toBe("Acme Travel Concierge");
  });

  it("refuses a key that is not a hostname", async () => {
    const { code, stderr } = await push("--host", "not a host", "--local");
    expect(code).toBe(2);
    expect(stderr).toMatch(/--host must be/);
  });
});
