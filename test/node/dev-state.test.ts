// `npm test` in a checkout where someone has been running `npm run dev`: a
// `.dev.vars` (an origin that is not running, EDGE_AUTH=off), another agent in
// local KV (`.wrangler/state`, as `npm run skills:push -- --local` leaves it),
// an environment that asks wrangler to turn process variables into vars, and a
// skills.json of the user's own that is not the sample card.
// The suites that read those before (the generated types, and those expecting
// the bundled agent, an unset origin or enforced auth) run in a scratch copy of
// the working tree holding all that, and must pass as they do here.
import { copyFileSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { stripVTControlCharacters } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, run } from "../support/processes";
import { scratchCopy } from "../support/scratch";

/** A representative subset (the whole suite takes minutes): one suite per way dev state leaked in. */
const SUITES = [
  "test/worker/kv.test.ts", // the bundled agent when KV holds nothing (.wrangler/state)
  "test/worker/proxy.test.ts", // 503 without ORIGIN_URL (.dev.vars)
  "test/worker/page.test.ts", // enforcement per scheme (EDGE_AUTH in .dev.vars)
  "test/node/wrangler.test.ts", // the types check, npm run dev, and startWranglerDev (.dev.vars, .wrangler/state, skills.json)
];

/** Environment a developer might have: wrangler would hand every process variable to the worker under test. */
const DEVELOPER_ENV = {
  CLOUDFLARE_INCLUDE_PROCESS_ENV: "true",
  CLOUDFLARE_LOAD_DEV_VARS_FROM_DOT_ENV: "true",
  ORIGIN_URL: "http://127.0.0.1:9/",
  EDGE_AUTH: "off",
};

describe("npm test beside a developer's dev state", () => {
  let scratch: string;
  beforeAll(async () => {
    scratch = await scratchCopy("dev-state-");
    writeFileSync(join(scratch, ".dev.vars"), "ORIGIN_URL=http://127.0.0.1:9999/\nEDGE_AUTH=off\nDEV_ONLY_SECRET=x\n");
    writeFileSync(join(scratch, ".env"), "ORIGIN_URL=http://127.0.0.1:9998/\n");
    // And a card of the user's own: every worker the suites build or serve must still be the sample's.
    copyFileSync(join(ROOT, "test/fixtures/cards/minimal.json"), join(scratch, "skills.json"));
    // One wrangler for the three keys (a `kv key put` each took as long again apiece): the same local state.
    const doc = JSON.stringify({ name: "Someone's Dev Agent" });
    const docs = join(scratch, "dev-agents.json");
    writeFileSync(docs, JSON.stringify(["default", "127.0.0.1", "localhost"].map((key) => ({ key, value: doc }))));
    const put = await run("node_modules/.bin/wrangler", ["kv", "bulk", "put", docs, "--binding", "SKILLS", "--local"], {}, scratch);
    expect(put.code, put.stdout + put.stderr).toBe(0);
    expect(existsSync(join(scratch, ".wrangler/state"))).toBe(true);
  });
  afterAll(() => {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it("passes the suites that read it before", async () => {
    // Not this vitest's own worker settings: the inner run is a fresh `vitest run`, as from a shell.
    const inner = Object.fromEntries(
      Object.keys(process.env)
        .filter((name) => name.startsWith("VITEST"))
        .map((name) => [name, undefined]),
    );
    // Two workers (vitest's default here is one fewer than the cores): the node suite, mostly waiting on wrangler
    // dev, runs beside the workers suites instead of before them.
    const tests = await run("node_modules/.bin/vitest", ["run", "--maxWorkers=2", ...SUITES], { ...inner, ...DEVELOPER_ENV }, scratch);
    const output = stripVTControlCharacters(tests.stdout);
    expect(tests.code, output.slice(-6000) + tests.stderr.slice(-4000)).toBe(0);
    expect(output).toMatch(/Test Files +4 passed \(4\)/);
  }, 600_000); // a whole inner vitest run: ~30 s idle, minutes on a loaded machine (a bound, not a speed goal)

  it("generates the same worker-configuration.d.ts with npm run types", async () => {
    // .dev.vars and .env only: with CLOUDFLARE_INCLUDE_PROCESS_ENV=true exported, wrangler types every process variable (README).
    const types = await run("npm", ["run", "types"], { CLOUDFLARE_LOAD_DEV_VARS_FROM_DOT_ENV: "true" }, scratch);
    expect(types.code, types.stdout + types.stderr).toBe(0);
    expect(readFileSync(join(scratch, "worker-configuration.d.ts"), "utf8")).toBe(
      readFileSync(join(ROOT, "worker-configuration.d.ts"), "utf8"),
    );
  });

  it("finds the types up to date with npm run types:check, whatever the generated file's header recorded", async () => {
    // wrangler's --check re-runs the command the header names; a header without --env-file (types generated
    // by a plain `wrangler types` in a checkout with no .dev.vars) would make it read this .dev.vars and
    // call the types out of date. The script passes --env-file /dev/null itself.
    const file = join(scratch, "worker-configuration.d.ts");
    const generated = readFileSync(join(ROOT, "worker-configuration.d.ts"), "utf8");
    expect(generated).toContain("--env-file=/dev/null ");
    writeFileSync(file, generated.replace("--env-file=/dev/null ", ""));
    const check = await run("npm", ["run", "types:check"], {}, scratch);
    expect(check.code, check.stdout + check.stderr).toBe(0);
    expect(check.stdout).toContain("are up to date");
  });
});
