// `npm run lint` (part of `npm test`) checks what contributors write (src, test, scripts, bench and the
// root config files), never what users generate in a checkout: the static cards of docs/static-card.md's
// `npm run card -- ... --out` commands (public/), a card written elsewhere (out/), the bundle of
// `npm run build` (dist/), `.dev.vars`, `.env` and local state (.wrangler/). Both halves run in a
// scratch copy of the working tree: the lint passes beside all of that, and still refuses a contributor
// file in each linted place that the formatter would change.
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { stripVTControlCharacters } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtBundle } from "../support/built-bundle";
import { putLocalKv } from "../support/local-kv";
import { ROOT, run } from "../support/processes";
import { scratchCopy } from "../support/scratch";

/** The documented commands that write files into the tree (`npm run card -- ... --out PATH`, docs/static-card.md), verbatim. */
const documents = ["README.md", ...readdirSync(join(ROOT, "docs")).map((name) => `docs/${name}`)].filter((path) => path.endsWith(".md"));
const writingCommands = documents
  .flatMap((path) => [...readFileSync(join(ROOT, path), "utf8").matchAll(/^(npm run card -- .*--out \S+.*)$/gm)])
  .map(([line]) => line!.trim().split(/\s+/));

/** A bound per process a step starts: each is a hang guard, never a measure of speed (a loaded machine is not a failure). */
const PER_PROCESS_MS = 60_000;

describe("npm run lint beside files users generate", () => {
  let scratch: string;
  const lint = async () => {
    const { code, stdout, stderr } = await run("npm", ["run", "lint"], {}, scratch);
    return { code, output: stripVTControlCharacters(stdout + stderr) };
  };

  // What a user leaves in a checkout: the documented commands' files, a card written elsewhere, the build,
  // dev vars and local state. Written once, before the lint runs: the commands, one process each, verbatim.
  beforeAll(
    async () => {
      scratch = await scratchCopy("lint-scope-");
      expect(writingCommands.length).toBeGreaterThanOrEqual(2);
      for (const [command, ...args] of writingCommands) {
        const result = await run(command!, args, {}, scratch);
        expect(result.code, `${[command, ...args].join(" ")}\n${result.stdout}${result.stderr}`).toBe(0);
      }
      const elsewhere = await run(
        "npm",
        ["run", "card", "--", "--base", "https://agents.example.com", "--out", "out/agent-card.json"],
        {},
        scratch,
      );
      expect(elsewhere.code, elsewhere.stderr).toBe(0);
      // `npm run build`'s output: this run's build of it (test/support/bundle-setup.ts), not a second build.
      cpSync(dirname(builtBundle().path), join(scratch, "dist"), { recursive: true });
      writeFileSync(join(scratch, ".dev.vars"), "EDGE_AUTH=off\n");
      writeFileSync(join(scratch, ".env"), "ORIGIN_URL=http://127.0.0.1:9999/\n");
      // Local KV, as `npm run skills:push -- --local` leaves it: a one-line JSON document among wrangler's files.
      await putLocalKv(join(scratch, ".wrangler/state"), "SKILLS", { default: '{"name":"A local agent" ,"skills":[ ]}' });
    },
    PER_PROCESS_MS * (writingCommands.length + 1),
  );
  afterAll(() => {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it(
    "passes after the README's commands wrote their files, and a build, dev vars and local state sit beside them",
    async () => {
      // One-line JSON, as `--out` writes without --pretty: what the formatter refuses.
      expect(readFileSync(join(scratch, "public/.well-known/agent-card.json"), "utf8").trim().split("\n")).toHaveLength(1);
      expect(existsSync(join(scratch, "dist/index.js"))).toBe(true);
      expect(readdirSync(join(scratch, ".wrangler/state/v3/kv/SKILLS"), { recursive: true }).length).toBeGreaterThan(0);
      const { code, output } = await lint();
      expect(code, output.slice(-4000)).toBe(0);
    },
    PER_PROCESS_MS * 2,
  ); // biome, then knip

  it("still refuses a contributor file the formatter would change, in each place it lints", async () => {
    const linted = ["src/index.ts", "test/support/wait.ts", "scripts/card.ts", "bench/lib.ts", "vitest.config.ts"];
    // A space before the first semicolon: formatting only, nothing else for the linter to object to.
    for (const file of linted) writeFileSync(join(scratch, file), readFileSync(join(scratch, file), "utf8").replace(";\n", " ;\n"));
    const { code, output } = await lint();
    expect(code).not.toBe(0);
    for (const file of linted) expect(output, output.slice(-4000)).toContain(file);
  });
});
