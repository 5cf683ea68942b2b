// The shape of src/ (house style): files under ~250 lines, functions under ~60,
// one file per name, no `any`, `as never` or non-null assertion. Biome checks
// `any` and `!` too (npm run lint); this counts them with the TypeScript
// compiler itself and adds what a linter does not measure.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { ROOT } from "../support/processes";

const MAX_FILE_LINES = 250;
const MAX_FUNCTION_LINES = 60;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : /\.tsx?$/.test(name) ? [path] : [];
  });
}

interface Shape {
  lines: number;
  functions: Array<{ name: string; lines: number }>;
  any: number;
  asNever: number;
  nonNull: number;
}

function functionName(node: ts.Node): string {
  const named = (node as { name?: ts.Node }).name;
  if (named) return named.getText();
  if (ts.isVariableDeclaration(node.parent) || ts.isPropertyAssignment(node.parent)) return node.parent.name.getText();
  return "(anonymous)";
}

function shapeOf(path: string): Shape {
  const text = readFileSync(path, "utf8");
  const kind = path.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, kind);
  const shape: Shape = { lines: text.split("\n").length, functions: [], any: 0, asNever: 0, nonNull: 0 };
  const line = (pos: number) => file.getLineAndCharacterOfPosition(pos).line;
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && "body" in node && node.body) {
      shape.functions.push({ name: functionName(node), lines: line(node.getEnd()) - line(node.getStart()) + 1 });
    }
    if (node.kind === ts.SyntaxKind.AnyKeyword) shape.any++;
    if (ts.isAsExpression(node) && node.type.kind === ts.SyntaxKind.NeverKeyword) shape.asNever++;
    if (ts.isNonNullExpression(node)) shape.nonNull++;
    ts.forEachChild(node, visit);
  };
  visit(file);
  return shape;
}

/** The src/ files a file imports or re-exports from (`import type` too), relative to ROOT. */
function importsOf(path: string): string[] {
  const file = ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.Latest, true);
  const specifiers = file.statements.flatMap((statement) =>
    (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) &&
    statement.moduleSpecifier &&
    ts.isStringLiteral(statement.moduleSpecifier)
      ? [statement.moduleSpecifier.text]
      : [],
  );
  return specifiers
    .filter((specifier) => specifier.startsWith("."))
    .flatMap((specifier) => {
      const base = resolve(dirname(path), specifier);
      const found = [`${base}.ts`, `${base}.tsx`, join(base, "index.ts")].find((candidate) => shapes.has(relative(ROOT, candidate)));
      return found ? [relative(ROOT, found)] : [];
    });
}

const files = sourceFiles(join(ROOT, "src"));
const shapes = new Map(files.map((path) => [relative(ROOT, path), shapeOf(path)]));

describe("the shape of src/", () => {
  it(`keeps every file under ${MAX_FILE_LINES} lines`, () => {
    const long = [...shapes].filter(([, s]) => s.lines > MAX_FILE_LINES).map(([path, s]) => `${path}: ${s.lines}`);
    expect(long).toEqual([]);
  });

  it(`keeps every function under ${MAX_FUNCTION_LINES} lines`, () => {
    const long = [...shapes].flatMap(([path, s]) =>
      s.functions.filter((f) => f.lines > MAX_FUNCTION_LINES).map((f) => `${path} ${f.name}: ${f.lines}`),
    );
    expect(long).toEqual([]);
  });

  it("has no any, no `as never`, no non-null assertion", () => {
    const found = [...shapes]
      .filter(([, s]) => s.any + s.asNever + s.nonNull > 0)
      .map(([path, s]) => `${path}: any ${s.any}, as never ${s.asNever}, ! ${s.nonNull}`);
    expect(found).toEqual([]);
  });

  it("has no import circle, type-only imports included", () => {
    // A circle makes the data flow unreadable and the evaluation order fragile (a module used before it is initialized).
    const edges = new Map([...shapes.keys()].map((path) => [path, importsOf(join(ROOT, path))]));
    const circles = new Set<string>();
    const visit = (path: string, trail: string[]): void => {
      const at = trail.indexOf(path);
      if (at >= 0) {
        const circle = trail.slice(at);
        const start = circle.indexOf([...circle].sort()[0] ?? path);
        circles.add([...circle.slice(start), ...circle.slice(0, start)].join(" -> "));
        return;
      }
      if (done.has(path)) return;
      for (const next of edges.get(path) ?? []) visit(next, [...trail, path]);
      done.add(path);
    };
    const done = new Set<string>();
    for (const path of edges.keys()) visit(path, []);
    expect([...circles]).toEqual([]);
  });

  it("gives every file its own name", () => {
    const byName = new Map<string, string[]>();
    // index.ts is a folder's entry point (src/index.ts, src/config/index.ts), named by its folder.
    for (const path of shapes.keys())
      if (basename(path) !== "index.ts") byName.set(basename(path), [...(byName.get(basename(path)) ?? []), path]);
    expect([...byName.values()].filter((paths) => paths.length > 1)).toEqual([]);
  });

  it("still holds every line bench:cpu's builds without a feature edit out (bench/without.json), once", () => {
    type Edit = { file: string; from: string };
    const { features } = JSON.parse(readFileSync(join(ROOT, "bench/without.json"), "utf8")) as { features: { edits: Edit[] }[] };
    const count = ({ file, from }: Edit) => readFileSync(join(ROOT, file), "utf8").split(from).length - 1;
    const edits = features.flatMap((f) => f.edits);
    expect(edits.length).toBeGreaterThan(0);
    expect(edits.filter((edit) => count(edit) !== 1).map((edit) => `${edit.file}: ${edit.from}`)).toEqual([]);
  });
});

describe("the user's card in the tests", () => {
  // npm test must pass with any valid skills.json: one module reads it (for the tests of the user's card and of the
  // commands the user runs); everything else is built around the sample card, a fixture (test/support/sample-card.ts).
  // ... or builds the worker around it (bench/lib's buildBundle: the benches measure the user's deployment).
  const reads = /(?:\.\.\/)+skills\.json|ROOT,\s*"skills\.json"|"#skills"(?!:)|\bbuildBundle\(/;
  it("is read by test/support/user-card.ts alone; every worker the tests build or serve gets the sample card", () => {
    const readers = sourceFiles(join(ROOT, "test"))
      // sample-card.ts names the import to put the sample in its place (wrangler's [alias]), reading nothing.
      .filter((path) => path !== import.meta.filename && !path.endsWith("/sample-card.ts") && reads.test(readFileSync(path, "utf8")))
      .map((path) => relative(ROOT, path));
    expect(readers).toEqual(["test/support/user-card.ts"]);
    expect(readFileSync(join(ROOT, "test/support/bundle-setup.ts"), "utf8")).toContain("...SAMPLE_CARD_ALIAS");
    // One build per run around the sample, that one; a test building its own bundle built the user's card (signing.test
    // did). wrangler.test builds the user's card on purpose: it is the build the user runs (npm run build).
    const builders = sourceFiles(join(ROOT, "test"))
      .filter((path) => path !== import.meta.filename && /"deploy",\s*"--dry-run"/.test(readFileSync(path, "utf8")))
      .map((path) => relative(ROOT, path));
    expect(builders.sort()).toEqual(["test/node/wrangler.test.ts", "test/support/bundle-setup.ts"]);
    // wrangler dev: the [alias] table of the config it is given (test/node/dev-state.test.ts runs the suites that
    // start it beside a card that is not the sample).
    expect(readFileSync(join(ROOT, "test/support/processes.ts"), "utf8")).toContain("withSampleCard(");
    expect(readFileSync(join(ROOT, "vitest.config.ts"), "utf8")).toContain("isolatedWranglerConfig(root, withSampleCard)");
    expect(readFileSync(join(ROOT, "vitest.config.ts"), "utf8")).toContain('alias: { "#skills": SAMPLE_CARD }');
  });
});
