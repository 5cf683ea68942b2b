// The toolchain pins agree with each other: one Node version named by .nvmrc, .node-version and the
// `node` dev dependency (what npm scripts run on, and what .ci/run installs), an engines floor that is
// wrangler's own, no patched dependency, and one wrangler/miniflare (so one workerd) for the tests
// inside workerd and for `wrangler dev`.
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../support/processes";

interface Manifest {
  engines?: { node?: string };
  scripts?: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}
const read = (path: string) => readFileSync(join(ROOT, path), "utf8");
const pkg = JSON.parse(read("package.json")) as Manifest;
const installed = (name: string, from = ROOT) =>
  JSON.parse(readFileSync(createRequire(join(from, "package.json")).resolve(`${name}/package.json`), "utf8")) as Manifest & {
    version: string;
  };
/** [major, minor, patch] of "v26.10.0", "26.10.0" or ">=22.12.0". */
const version = (text: string) => (/(\d+)\.(\d+)\.(\d+)/.exec(text) ?? []).slice(1).map(Number);
const atLeast = (a: number[], b: number[]) => a[0]! * 1e6 + a[1]! * 1e3 + a[2]! >= b[0]! * 1e6 + b[1]! * 1e3 + b[2]!;

describe("toolchain pins", () => {
  it("names one Node version in .nvmrc, .node-version and the exact `node` dev dependency, which .ci/run installs", () => {
    const pinned = pkg.devDependencies?.node;
    expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
    expect(read(".nvmrc").trim()).toBe(pinned);
    expect(read(".node-version").trim()).toBe(pinned);
    expect(installed("node").version).toBe(pinned);
    expect(read(".ci/run")).toContain("node@$node_version");
    expect(read(".ci/run")).toContain(".nvmrc");
  });

  it("requires the Node wrangler requires, which the pinned Node and this one satisfy", () => {
    expect(pkg.engines?.node).toBe(installed("wrangler").engines?.node);
    const floor = version(pkg.engines!.node!);
    expect(atLeast(version(pkg.devDependencies!.node!), floor)).toBe(true);
    expect(atLeast(version(process.version), floor)).toBe(true);
  });

  it("patches no dependency", () => {
    expect(existsSync(join(ROOT, "patches"))).toBe(false);
    expect(Object.keys({ ...pkg.dependencies, ...pkg.devDependencies })).not.toContain("patch-package");
    expect(Object.values(pkg.scripts ?? {}).join("\n")).not.toMatch(/patch-package/);
  });

  it("gives the vitest plugin the project's own wrangler and miniflare: one workerd", () => {
    const plugin = join(ROOT, "node_modules/@cloudflare/vitest-plugin");
    for (const name of ["wrangler", "miniflare"]) {
      expect(installed(name, plugin).version, name).toBe(pkg.devDependencies?.[name]);
    }
    expect(installed("workerd", join(ROOT, "node_modules/miniflare")).version).toBe(
      installed("workerd", join(ROOT, "node_modules/wrangler")).version,
    );
  });
});
