// The README is part of the product: its configuration table and commands
// must match the code.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CONFIG_DEFAULTS, CONFIG_VARIABLES } from "../../src/config";
import { ROOT } from "../support/processes";

const readme = readFileSync(`${ROOT}README.md`, "utf8");
/** The configuration table: variable name -> its default cell, as written. */
const defaultCells = new Map(
  [...readme.matchAll(/^\| `([A-Z0-9_]+)` \| [^|]* \| ([^|]*) \|/gm)].map(([, name, cell]) => [name, cell?.trim()]),
);

/**
 * How the table writes a plain default: a word or number in backticks, a
 * list comma-separated. undefined for the defaults it puts in words (unset,
 * derived from another variable, an empty list or map).
 */
function writtenDefault(value: unknown): string | undefined {
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") return `\`${value}\``;
  if (Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === "string")) return `\`${value.join(",")}\``;
  return undefined;
}

const pkg = JSON.parse(readFileSync(`${ROOT}package.json`, "utf8")) as { scripts: Record<string, string> };

describe("README", () => {
  it("documents every configuration variable in the table", () => {
    for (const name of CONFIG_VARIABLES) expect(readme).toMatch(new RegExp(`^\\| \`${name}\` \\|`, "m"));
  });

  it("states each plain default as the declaration does", () => {
    const plain = CONFIG_VARIABLES.filter((name) => writtenDefault(CONFIG_DEFAULTS[name]) !== undefined);
    expect(plain.length).toBeGreaterThan(10);
    for (const name of plain) expect(defaultCells.get(name), name).toBe(writtenDefault(CONFIG_DEFAULTS[name]));
  });

  it("shows the two set-up commands and npm run dev on its first screen", () => {
    const firstScreen = readme.split("\n").slice(0, 20).join("\n");
    for (const command of ["npm ci", "npm test", "npm run dev"]) expect(firstScreen).toContain(command);
  });

  it("links only to headings it has", () => {
    // GitHub's anchors: lower case, punctuation other than - and _ dropped, spaces as hyphens.
    const slug = (heading: string) =>
      heading
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s_-]/gu, "")
        .replace(/\s/g, "-");
    const anchors = new Set([...readme.matchAll(/^#{1,6} (.+)$/gm)].map(([, heading]) => slug(heading ?? "")));
    const links = [...readme.matchAll(/\]\(#([^)]+)\)/g)].map(([, anchor]) => anchor);
    expect(links.length).toBeGreaterThan(10);
    for (const anchor of links) expect(anchors, anchor).toContain(anchor);
  });

  it("only names npm scripts that exist", () => {
    for (const [, script] of readme.matchAll(/npm run ([\w:-]+)/g)) expect(Object.keys(pkg.scripts)).toContain(script);
  });
});
