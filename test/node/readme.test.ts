// The README is part of the product: its configuration table and commands
// must match the code.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CONFIG_VARIABLES } from "../../src/config";
import { ROOT } from "../support/processes";

const readme = readFileSync(`${ROOT}README.md`, "utf8");
const pkg = JSON.parse(readFileSync(`${ROOT}package.json`, "utf8")) as { scripts: Record<string, string> };

describe("README", () => {
  it("documents every configuration variable in the table", () => {
    for (const name of CONFIG_VARIABLES) expect(readme).toMatch(new RegExp(`^\\| \`${name}\` \\|`, "m"));
  });

  it("shows the two set-up commands and npm run dev on its first screen", () => {
    const firstScreen = readme.split("\n").slice(0, 20).join("\n");
    for (const command of ["npm ci", "npm test", "npm run dev"]) expect(firstScreen).toContain(command);
  });

  it("only names npm scripts that exist", () => {
    for (const [, script] of readme.matchAll(/npm run ([\w:-]+)/g)) expect(Object.keys(pkg.scripts)).toContain(script);
  });
});
