// The README and docs/ are part of the product: the configuration table and
// the commands must match the code, and every link between the files must
// land on a file and a heading that exist.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { CONFIG_DEFAULTS, CONFIG_VARIABLES } from "../../src/config";
import { ROOT } from "../support/processes";

/** README.md and every docs/*.md, by path from the repository root. */
const documents = new Map(
  [
    "README.md",
    ...readdirSync(join(ROOT, "docs"))
      .filter((name) => name.endsWith(".md"))
      .map((name) => `docs/${name}`),
  ].map((path) => [path, readFileSync(join(ROOT, path), "utf8")] as const),
);
const readme = documents.get("README.md")!;
const configuration = documents.get("docs/configuration.md") ?? "";

/** The text outside fenced code blocks (a `# comment` in a shell block is no heading, a `](` in it no link). */
function prose(text: string): string {
  let fenced = false;
  return text
    .split("\n")
    .filter((line) => {
      if (line.startsWith("```")) fenced = !fenced;
      return !fenced && !line.startsWith("```");
    })
    .join("\n");
}

// GitHub's anchors: lower case, punctuation other than - and _ dropped, spaces as hyphens.
const slug = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
const anchorsOf = (text: string) => new Set([...prose(text).matchAll(/^#{1,6} (.+)$/gm)].map(([, heading]) => slug(heading ?? "")));

/** Every link of a document that stays in the repository: [path from the root (the document itself for `#x`), anchor]. */
function links(path: string): Array<{ target: string; anchor: string | undefined; written: string }> {
  const found = [...prose(documents.get(path)!).matchAll(/\]\(([^)\s]+)\)/g)].map(([, written]) => written!);
  return found
    .filter((written) => !/^[a-z]+:/i.test(written))
    .map((written) => {
      const [file = "", anchor] = written.split("#");
      const target = file === "" ? path : relative(ROOT, join(ROOT, dirname(path), file));
      return { target, anchor, written };
    });
}

/** The configuration table: variable name -> its default cell, as written. */
const defaultCells = new Map(
  [...configuration.matchAll(/^\| `([A-Z0-9_]+)` \| [^|]* \| ([^|]*) \|/gm)].map(([, name, cell]) => [name, cell?.trim()]),
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

describe("README and docs/", () => {
  it("documents every configuration variable in the table of docs/configuration.md", () => {
    for (const name of CONFIG_VARIABLES) expect(configuration).toMatch(new RegExp(`^\\| \`${name}\` \\|`, "m"));
  });

  it("states each plain default as the declaration does", () => {
    const plain = CONFIG_VARIABLES.filter((name) => writtenDefault(CONFIG_DEFAULTS[name]) !== undefined);
    expect(plain.length).toBeGreaterThan(10);
    for (const name of plain) expect(defaultCells.get(name), name).toBe(writtenDefault(CONFIG_DEFAULTS[name]));
  });

  it("shows the two set-up commands and npm run dev on the README's first screen", () => {
    const firstScreen = readme.split("\n").slice(0, 20).join("\n");
    for (const command of ["npm ci", "npm test", "npm run dev"]) expect(firstScreen).toContain(command);
  });

  it("keeps the README to a few screens: the quick start and the first guides, the reference in docs/", () => {
    // 170 with a fifth guide (agents by path) and the Operations section (traces, access records, metrics): a few screens.
    expect(readme.split("\n").length).toBeLessThanOrEqual(170);
    const headings = [...prose(readme).matchAll(/^### (.+)$/gm)].map(([, heading]) => heading);
    expect(headings).toEqual([
      "Front a private agent, on one machine",
      "Sign the card",
      "Push notifications",
      "Many agents on one host",
      "Deploy",
    ]);
  });

  it("links only to files and headings that exist, between the README and docs/ as within each", () => {
    let across = 0;
    for (const path of documents.keys()) {
      for (const { target, anchor, written } of links(path)) {
        expect(existsSync(join(ROOT, target)), `${path}: ${written}`).toBe(true);
        if (target !== path) across++;
        if (anchor === undefined) continue;
        expect(statSync(join(ROOT, target)).isFile() && target.endsWith(".md"), `${path}: ${written} (an anchor into a non-document)`).toBe(
          true,
        );
        expect(anchorsOf(readFileSync(join(ROOT, target), "utf8")), `${path}: ${written}`).toContain(anchor);
      }
    }
    expect(across).toBeGreaterThan(30);
  });

  it("links every page of docs/ from the README", () => {
    const linked = new Set(links("README.md").map(({ target }) => target));
    for (const path of documents.keys()) if (path !== "README.md") expect(linked, path).toContain(path);
  });

  it("only names npm scripts that exist", () => {
    let named = 0;
    for (const [path, text] of documents) {
      for (const [, script] of text.matchAll(/npm run (?:-s )?([\w:-]+)/g)) {
        expect(Object.keys(pkg.scripts), `${path}: npm run ${script}`).toContain(script);
        named++;
      }
    }
    expect(named).toBeGreaterThan(50);
  });
});
