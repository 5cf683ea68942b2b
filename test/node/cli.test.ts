// The scripts as real processes: `npm run card` (the static-publishing CLI),
// bad usage in every script and bench, and `npm run load` stopping what it
// started on every way out.
import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { processesWithEnv, ROOT, run, start } from "../support/processes";
import { SAMPLE_CARD } from "../support/sample-card";
import { schemaErrors } from "../support/schemas";
import { until, within } from "../support/wait";

const card = (...args: string[]) => run("node_modules/.bin/tsx", ["scripts/card.ts", ...args]);

const pkg = JSON.parse(readFileSync(`${ROOT}package.json`, "utf8")) as { scripts: Record<string, string> };
/** An npm script's command as package.json has it, run without npm (whose own lines would wrap the script's stderr). */
function script(name: string, args: string[], env: Record<string, string>) {
  // `exec` (the servers' scripts: npm's signals reach them, not a shell in between) is the shell's, not a command.
  const [command, ...rest] = pkg.scripts[name]!.replace(/^exec /, "").split(" ");
  return run(command === "tsx" ? "node_modules/.bin/tsx" : command!, [...rest, ...args], env);
}

// Each test runs its own processes, on their own files: the three blocks below run their tests side by side
// (vitest's maxConcurrency at a time), and each asserts with its own test's expect.
describe.concurrent("npm run card", () => {
  it("prints the hybrid card for a public base by default", async ({ expect }) => {
    const { code, stdout } = await card("--base", "https://agents.example.com");
    expect(code).toBe(0);
    const body = JSON.parse(stdout);
    expect(schemaErrors.v03Card(body)).toEqual([]);
    expect(body.url).toBe("https://agents.example.com/");
    expect(body.supportedInterfaces[0].url).toBe("https://agents.example.com/");
  });

  it("prints each variant valid against its schema, with RPC path and version order", async ({ expect }) => {
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

  it("writes the card to --out, from another --source, narrowed by --skills", async ({ expect }) => {
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

  it.for<[string[], RegExp]>([
    [["--variant", "v1"], /--base .* is required/],
    [["--base", "not a url"], /--base: expected an absolute http\(s\) URL/],
    [["--base", "https://a.example.com", "--variant", "v2"], /--variant must be one of/],
    [["--base", "https://a.example.com", "--source", "/nonexistent.json"], /cannot read/],
    [["--base", "https://a.example.com", "--rpc-path", "no-slash"], /--rpc-path: expected a path/],
  ])("refuses %j with a readable error and exit code 2", async ([args, message], { expect }) => {
    const { code, stderr } = await card(...args);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
  });

  it("creates the folders --out names (a fresh clone has no public/.well-known/)", async ({ expect }) => {
    const out = join(mkdtempSync(join(tmpdir(), "card-")), "a", "b", "c.json");
    const { code, stderr } = await card("--base", "https://a.example.com", "--variant", "v1", "--out", out);
    expect(code, stderr).toBe(0);
    expect(schemaErrors.v1Card(JSON.parse(readFileSync(out, "utf8")))).toEqual([]);
  });

  it("refuses an invalid source document, naming the field", async ({ expect }) => {
    const dir = mkdtempSync(join(tmpdir(), "card-"));
    const source = join(dir, "bad.json");
    writeFileSync(source, JSON.stringify({ iconUrl: "not a url" }));
    const { code, stderr } = await card("--base", "https://a.example.com", "--source", source);
    expect(code).toBe(2);
    expect(stderr).toMatch(/iconUrl: Invalid URL/);
  });

  it("publishes each seed's card, and --check prints its repairs, exiting non-zero only when it cannot be published", async ({
    expect,
  }) => {
    const seeds = join(ROOT, "test/fixtures/cards");
    const checked = await card("--source", join(seeds, "lc-a2a.json"), "--check");
    expect(checked.code).toBe(0);
    expect(checked.stdout).toContain("an A2A card, publishable with 17 repairs");
    expect(checked.stdout).toContain("  - provider-string provider: read as {organization");
    expect(checked.stdout).toContain("  authentication: the old `authentication` scheme names");
    expect((await card("--source", SAMPLE_CARD, "--check")).stdout).toContain("a card-source document, publishable with 0 repairs");
    const built = await card("--base", "https://agents.example.com", "--source", join(seeds, "toolnexus-default.json"), "--variant", "v1");
    expect(built.code).toBe(0);
    expect(schemaErrors.v1Card(JSON.parse(built.stdout))).toEqual([]);
    expect(built.stderr).toContain("card: 5 repairs");
    const dir = mkdtempSync(join(tmpdir(), "card-"));
    writeFileSync(join(dir, "nameless.json"), JSON.stringify({ url: "https://x.example/", skills: [] }));
    const refused = await card("--source", join(dir, "nameless.json"), "--check");
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("cannot be published: name: required");
  });
});

describe.concurrent("bad usage, in every script and bench", () => {
  it.for<[string, string[], Record<string, string>, string]>([
    ["card", ["--bogus"], {}, "card: unknown option --bogus"],
    ["card", ["--base"], {}, "card: --base needs a value"],
    ["keys", ["--nope"], {}, "keys: unknown option --nope"],
    ["keys", ["--alg", "RSA"], {}, 'keys: --alg must be ES256 or EdDSA, not "RSA"'],
    ["keys", ["--for", "nope"], {}, 'keys: --for must be card or assertion, not "nope"'],
    ["keys", ["--dev-vars=yes"], {}, "keys: --dev-vars takes no value"],
    ["origin", ["--bogus"], {}, "origin: unknown option --bogus"],
    ["origin", ["--port", "http"], {}, 'origin: --port must be a whole number up to 65535, not "http"'],
    ["origin", ["--edge", "nowhere"], {}, 'origin: --edge must be the edge\'s base URL, not "nowhere"'],
    ["issuer", ["--bogus"], {}, "issuer: unknown option --bogus"],
    ["issuer", ["--alg", "HS256"], {}, 'issuer: --alg must be RS256 or ES256, not "HS256"'],
    ["issuer", ["--ttl", "0"], {}, 'issuer: --ttl must be a whole number from 1 to 86400, not "0"'],
    ["receiver", ["--bogus"], {}, "receiver: unknown option --bogus"],
    ["receiver", ["--port", "99999"], {}, 'receiver: --port must be a whole number up to 65535, not "99999"'],
    ["receiver", ["--edge", "ftp://x"], {}, 'receiver: --edge must be an http(s) URL, not "ftp://x"'],
    ["feed", ["--bogus"], {}, "feed: unknown option --bogus"],
    ["feed", ["--since", "yesterday"], {}, 'feed: --since must be a whole number, not "yesterday"'],
    ["feed", ["--edge", "ftp://x"], {}, 'feed: --edge must be an http(s) URL, not "ftp://x"'],
    ["skills:push", ["--bogus"], {}, "skills:push: unknown option --bogus"],
    ["skills:push", ["--local=yes"], {}, "skills:push: --local takes no value"],
    ["stats", ["--bogus"], {}, "stats: unknown option --bogus"],
    [
      "stats",
      ["--since", "yesterday"],
      {},
      'stats: --since must be a whole number of minutes, hours or days (15m, 1h, 7d), not "yesterday"',
    ],
    ["schema", ["--bogus"], {}, "schema: unknown option --bogus"],
    ["schema", ["extra"], {}, 'schema: unexpected argument "extra"'],
    ["mutation", ["--bogus"], {}, "mutation-check: unknown option --bogus"],
    ["golden", ["--bogus"], {}, "golden: unknown option --bogus"],
    ["bench:card", ["--bogus"], {}, "bench:card: unknown option --bogus"],
    ["bench:card", [], { BENCH_DURATION: "abc" }, 'bench:card: BENCH_DURATION must be a whole number >= 1, not "abc"'],
    ["bench:cpu", ["--bogus"], {}, "bench:cpu: unknown option --bogus"],
    ["bench:cpu", [], { BENCH_BASELINE: "/nonexistent/index.js" }, "bench:cpu: BENCH_BASELINE: no file /nonexistent/index.js"],
    ["bench:proxy", ["--bogus"], {}, "bench:proxy: unknown option --bogus"],
    ["bench:proxy", [], { BENCH_SSE_SAMPLES: "0" }, 'bench:proxy: BENCH_SSE_SAMPLES must be a whole number >= 1, not "0"'],
    ["bench:scale", ["--bogus"], {}, "bench:scale: unknown option --bogus"],
    ["bench:scale", [], { BENCH_TOOL: "nope" }, 'bench:scale: BENCH_TOOL must be one of wrk, autocannon, not "nope"'],
    ["bench:push", ["--bogus"], {}, "bench:push: unknown option --bogus"],
    ["bench:push", [], { BENCH_ROUNDS: "0" }, 'bench:push: BENCH_ROUNDS must be a whole number >= 1, not "0"'],
    ["load", ["--bogus"], {}, "load: unknown option --bogus"],
    ["load", [], { LOAD_DURATION: "-1" }, 'load: LOAD_DURATION must be a whole number >= 1, not "-1"'],
    ["load", [], { LOAD_CONCURRENCY: "0" }, 'load: LOAD_CONCURRENCY must be a whole number >= 1, not "0"'],
    [
      "load",
      [],
      { LOAD_ONLY: "card,bogus" },
      'load: LOAD_ONLY must be one of card, SendMessage, stream, bad request, page/jwks/404, not "bogus"',
    ],
  ])("npm run %s %j with %j: exit 2, one line saying what is wrong, then the usage", async ([name, args, env, message], { expect }) => {
    const { code, stdout, stderr } = await script(name, args, env);
    expect(code, stderr).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).not.toContain("    at ");
    const [first, ...usage] = stderr.trimEnd().split("\n");
    expect(first).toBe(message);
    expect(usage[0]).toMatch(/^usage: .*npm run /);
  });
});

describe.concurrent("help and the assertion key", () => {
  it("prints the usage on stdout and exits 0 for --help", async ({ expect }) => {
    const names = ["keys", "card", "skills:push", "stats", "origin", "issuer", "feed", "receiver"];
    const helped = await Promise.all(names.map((name) => script(name, ["--help"], {})));
    for (const [i, { code, stdout, stderr }] of helped.entries()) {
      expect(code, stderr).toBe(0);
      expect(stdout, names[i]).toMatch(/^usage: .*npm run /);
    }
  });

  it("keys --for assertion prints the AUTH_ASSERTION_KEY commands, never CARD_SIGNING_KEY", async ({ expect }) => {
    const { code, stdout } = await script("keys", ["--for", "assertion", "--kid", "caller-1"], {});
    expect(code).toBe(0);
    expect(stdout).toContain("| npx wrangler secret put AUTH_ASSERTION_KEY");
    expect(stdout).not.toContain("CARD_SIGNING_KEY");
    const jwk = JSON.parse(/echo '(\{.*?\})'/.exec(stdout)?.[1] ?? "{}") as { kid?: string; d?: string };
    expect(jwk).toMatchObject({ kid: "caller-1", d: expect.any(String) });
  });
});

describe("npm run load stops what it started", () => {
  /** `npm run load` with a marker in its environment, which every process it starts inherits. */
  function startLoad(env: Record<string, string>) {
    const marker = randomUUID();
    const load = start("npm", ["run", "load"], { ...env, LOAD_TEST_MARKER: marker });
    const exited = new Promise<number | string>((resolve) => load.child.once("exit", (code, signal) => resolve(code ?? String(signal))));
    const left = () => processesWithEnv("LOAD_TEST_MARKER", marker);
    /** Ends whatever the test left running: the npm group, then each marked process by pid. */
    const cleanUp = async () => {
      await load.stop();
      for (const line of left()) process.kill(Number(line.split(" ")[0]), "SIGKILL");
    };
    return { load, exited, left, cleanUp };
  }

  it("refuses LOAD_ONLY=bogus before starting anything: exit 2, no process left", async () => {
    const { load, exited, left, cleanUp } = startLoad({ LOAD_ONLY: "bogus" });
    try {
      expect(await within(exited, "npm run load to refuse LOAD_ONLY=bogus", 60_000)).toBe(2);
      expect(load.output()).toContain('load: LOAD_ONLY must be one of card, SendMessage, stream, bad request, page/jwks/404, not "bogus"');
      expect(load.output()).not.toContain("    at ");
      await until(() => left().length === 0, `no process left by the refused run (left: ${left().join("; ")})`, 10_000, 100);
    } finally {
      await cleanUp();
    }
  });

  it("on Ctrl-C (SIGINT to its process group) stops the origin agent and workerd", async () => {
    // LOAD_DURATION bounds the run should the signal go unheeded.
    const { load, exited, left, cleanUp } = startLoad({ LOAD_DURATION: "10", LOAD_CONCURRENCY: "2" });
    try {
      await until(() => load.output().includes("load — ") || load.child.exitCode !== null, "npm run load to start", 90_000, 100);
      expect(load.output()).toContain("load — ");
      // Both are running now, found by the marker: else "nothing left" below would prove nothing.
      expect(left().some((line) => line.includes("origin-agent.ts"))).toBe(true);
      expect(left().some((line) => line.includes("workerd"))).toBe(true);
      process.kill(-load.child.pid!, "SIGINT");
      // npm's shell (dash) dies of SIGINT at once, and npm with it, as a terminal shows (exit 130); the script stops its children after.
      expect(await within(exited, "npm run load to stop after SIGINT", 30_000)).toBe("SIGINT");
      await until(() => left().length === 0, `no process left after SIGINT (left: ${left().join("; ")})`, 15_000, 100);
      expect(load.output()).toContain("SIGINT: stopping what this bench started");
    } finally {
      await cleanUp();
    }
  });
});
