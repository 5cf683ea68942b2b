// `npm run card`: the static-publishing CLI, run as a real process.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { run } from "../support/processes";
import { schemaErrors } from "../support/schemas";

const card = (...args: string[]) => run("node_modules/.bin/tsx", ["scripts/card.ts", ...args]);

describe("npm run card", () => {
  it("prints the hybrid card for a public base by default", async () => {
    const { code, stdout } = await card("--base", "https://agents.example.com");
    expect(code).toBe(0);
    const body = JSON.parse(stdout);
    expect(schemaErrors.v03Card(body)).toEqual([]);
    expect(body.url).toBe("https://agents.example.com/");
    expect(body.supportedInterfaces[0].url).toBe("https://agents.example.com/");
  });

  it("prints each variant valid against its schema, with RPC path and version order", async () => {
    const v1 = JSON.parse(
      (await card("--base", "https://a.example.com/p", "--variant", "v1", "--rpc-path", "/rpc", "--protocol-versions", "0.3,1.0")).stdout,
    );
    expect(schemaErrors.v1Card(v1)).toEqual([]);
    expect(v1.supportedInterfaces.map((i: any) => [i.url, i.protocolVersion])).toEqual([
      ["https://a.example.com/p/rpc", "0.3"],
      ["https://a.example.com/p/rpc", "1.0"],
    ]);
    for (const variant of ["v0.3", "legacy"]) {
      expect(schemaErrors.v03Card(JSON.parse((await card("--base", "https://a.example.com", "--variant", variant)).stdout))).toEqual([]);
    }
  });

  it("writes the card to --out, from another --source, narrowed by --skills", async () => {
    const dir = mkdtempSync(join(tmpdir(), "card-"));
    const source = join(dir, "doc.json");
    writeFileSync(source, JSON.stringify({ name: "Static", skills: [{ name: "One" }, { name: "Two" }] }));
    const out = join(dir, "agent-card.json");
    const { code, stdout, stderr } = await card(
      "--base",
      "https://s.example.com",
      "--source",
      source,
      "--skills",
      "Two",
      "--out",
      out,
      "--pretty",
    );
    expect(code).toBe(0);
    expect(stdout).toBe("");
    expect(stderr).toContain(out);
    const written = JSON.parse(readFileSync(out, "utf8"));
    expect(written.name).toBe("Static");
    expect(written.skills.map((s: any) => s.name)).toEqual(["Two"]);
  });

  it.each([
    [["--variant", "v1"], /--base .* is required/],
    [["--base", "not a url"], /--base: expected an absolute http\(s\) URL/],
    [["--base", "https://a.example.com", "--variant", "v2"], /--variant must be one of/],
    [["--base", "https://a.example.com", "--source", "/nonexistent.json"], /cannot read/],
    [["--base", "https://a.example.com", "--rpc-path", "no-slash"], /--rpc-path: expected a path/],
  ])("refuses %j with a readable error and exit code 2", async (args, message) => {
    const { code, stderr } = await card(...args);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
  });

  it("refuses an invalid source document, naming the field", async () => {
    const dir = mkdtempSync(join(tmpdir(), "card-"));
    const source = join(dir, "bad.json");
    writeFileSync(source, JSON.stringify({ iconUrl: "not a url" }));
    const { code, stderr } = await card("--base", "https://a.example.com", "--source", source);
    expect(code).toBe(2);
    expect(stderr).toMatch(/iconUrl: Invalid URL/);
  });
});
