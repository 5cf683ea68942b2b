// The README's commands, as real processes: `npm run build` (offline dry-run
// bundle), `wrangler types --check`, and `npm run dev` serving the bundled card
// and local KV documents, with wrangler flags after `--`.
import { randomUUID } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import bundled from "../fixtures/sample-card.json";
import { builtBundle } from "../support/built-bundle";
import { NO_ENV_FILE } from "../support/hermetic";
import {
  processesWithEnv,
  run,
  type Started,
  start,
  startWranglerDev,
  WRANGLER_READY,
  waitForHttp,
  waitForOutput,
} from "../support/processes";
import { schemaErrors } from "../support/schemas";
import { userCard } from "../support/user-card";
import { until, within } from "../support/wait";

describe("npm run build", () => {
  // 64 KiB until the REST binding: 66.4 KiB with it (REST origins and tenants included), after
  // hono/tiny and the page's and admin's middleware written out saved 4.2 KiB; the budget is the product's
  // own, for cold starts (bench:scale). 74 KiB with card intake (the lenient reader of every card generation,
  // last good copies, the page's repairs): 66.2 -> 72.0 KiB. 77 KiB with the push webhook guard (IP ranges,
  // network-local names, config places, the rule each refusal names): 73.3 -> 76.0 KiB. 80 KiB with the push
  // relay (its Durable Object, config rewriting, notification translation, delivery JWT): 76.0 -> 79.7 KiB.
  // 85 KiB with agents by path (the index and its Durable Object, both catalogs, per-agent credentials and
  // verifiers): 80.0 -> 84.1 KiB. The live feed (its Durable Object, tickets, the FEED_* variables): +2.7 KiB.
  // Telemetry (W3C Trace Context, the access record and its body observer, Analytics Engine data points):
  // +2.7 KiB. 90 KiB. One reading (src/messages/: the field tables of every A2A message the edge reads,
  // 2.0 KiB gzip on their own, and the reader): 89.7 -> 94.0 KiB. 95 KiB. A refusal held while the unread
  // rest of its body is dropped (http/body.ts) and the feed's close reply: 94.4 -> 95.1 KiB. 96 KiB. The feed's
  // host rules (+0.3), card URL schemes and bounded log fields (+0.7), Mastra's paths (+0.4), ard.json with
  // signed trust manifests (+0.8) and VPC Service origins (+0.7): 95.5 -> 98.4 KiB. 100 KiB. Kept streams (the
  // TaskStream object, its log and the Worker's rendering, +3.7): 102.1 KiB. 104 KiB.
  // The budget is the product's: measured around the sample card (the build of this run, test/support/sample-card.ts),
  // so a user's larger card does not fail it.
  it("bundles the worker offline with wrangler deploy --dry-run (the user's card), within 104 KiB gzip (the sample's)", async () => {
    const outdir = mkdtempSync(join(tmpdir(), "build-"));
    const { code, stdout, stderr } = await run("node_modules/.bin/wrangler", ["deploy", "--dry-run", "--outdir", outdir]);
    expect(code, stdout + stderr).toBe(0);
    expect(stdout).toContain("--dry-run: exiting now.");
    expect(readdirSync(outdir)).toContain("index.js");
    const gzipBytes = gzipSync(readFileSync(builtBundle().path)).length;
    expect(gzipBytes).toBeLessThanOrEqual(104 * 1024);
  });

  it("has generated binding types that match wrangler.toml (npm run types:check)", async () => {
    // In this checkout, whatever .dev.vars a developer has beside wrangler.toml: the script reads none
    // (--env-file /dev/null), as the types were generated (test/node/dev-state.test.ts proves it with one).
    const { code, stdout, stderr } = await run("npm", ["run", "types:check"]);
    expect(code, stdout + stderr).toBe(0);
    expect(stdout).toContain("are up to date");
  });
});

describe("npm run dev", () => {
  let dev: Started;
  let base: string;
  let state: string;
  /** In the environment of npm and of everything it starts: finds wrangler and workerd left behind, whatever their parent. */
  const marker = randomUUID();
  const card = () => fetch(`${base}/.well-known/agent-card.json`, { headers: { "A2A-Version": "1.0" } });
  const kv = (...args: string[]) =>
    run("node_modules/.bin/wrangler", ["kv", "key", ...args, "--binding", "SKILLS", "--local", "--persist-to", state]);

  beforeAll(async () => {
    // wrangler.toml [dev] has the defaults (127.0.0.1:8787); flags after `--` reach wrangler dev: the port
    // (0: wrangler binds a free one and prints it, see startWranglerDev), this test's own state and no
    // .dev.vars (test/support/hermetic.ts), and a --var beside the script's own.
    state = mkdtempSync(join(tmpdir(), "npm-run-dev-"));
    dev = start(
      "npm",
      ["run", "dev", "--", "--port", "0", "--inspector-port", "0", "--persist-to", state, ...NO_ENV_FILE, "--var", "CARD_MAX_AGE:123"],
      // What a user's shell has (vitest sets NODE_ENV=test, which Miniflare also takes as "fetch no request.cf"):
      // the script itself must keep Miniflare from fetching a sample request.cf.
      { CLOUDFLARE_CF_FETCH_ENABLED: undefined, NODE_ENV: undefined, DEV_TEST_MARKER: marker },
    );
    base = await waitForOutput(dev, WRANGLER_READY, "npm run dev's Ready line");
    expect(new URL(base).port).not.toBe("8787");
    await waitForHttp(`${base}/.well-known/agent-card.json`, dev);
  });
  afterAll(async () => {
    await dev?.stop();
    if (state) rmSync(state, { recursive: true, force: true });
  });

  it("serves the bundled skills.json card on the port given after --, with URLs of the local host", async () => {
    const response = await card();
    expect(response.status).toBe(200);
    expect(response.headers.get("card-source")).toBe("bundled");
    expect(response.headers.get("cache-control")).toContain("max-age=123,");
    const body = (await response.json()) as Record<string, any>;
    expect(schemaErrors.v1Card(body)).toEqual([]);
    expect(body.name).toBe(userCard().name); // npm run dev serves the user's skills.json
    expect(body.supportedInterfaces[0].url).toBe(`${base}/`);
    const legacy = (await (await fetch(`${base}/.well-known/agent.json`)).json()) as Record<string, any>;
    expect(legacy.url).toBe(`${base}/`);
  });

  it("starts without fetching a sample request.cf (no network, no warning, no stack trace)", () => {
    expect(dev.output()).toContain("Ready on");
    expect(dev.output()).not.toContain("Request.cf");
    expect(dev.output()).not.toMatch(/^\s+at /m);
  });

  it("shows a local KV document put or deleted while it runs on the next request (no isolate copy in dev)", async () => {
    const doc = join(state, "agent.json");
    writeFileSync(doc, JSON.stringify({ name: "Local KV Agent" }));
    const put = await kv("put", "default", "--path", doc);
    expect(put.code, put.stdout + put.stderr).toBe(0);
    // Bounded well under KV_CACHE_TTL's default (60 s): only a dev server without an isolate copy passes.
    const seen = await until(async () => {
      const response = await card();
      return response.headers.get("card-source") === "kv:default" && ((await response.json()) as { name: string }).name;
    }, "the local KV document");
    expect(seen).toBe("Local KV Agent");
    const deleted = await kv("delete", "default");
    expect(deleted.code, deleted.stdout + deleted.stderr).toBe(0);
    await until(async () => (await card()).headers.get("card-source") === "bundled", "the bundled card again");
  });

  // Last in this block: it ends the server. A process manager, an IDE's stop button or `kill <npm pid>` signal
  // npm alone, not its process group; npm passes the signal to the script's shell, and a shell that ran
  // `wrangler dev` as its child died without passing it on, leaving wrangler and workerd serving the port.
  it("stops wrangler and workerd when npm alone gets SIGTERM", async () => {
    const left = () => processesWithEnv("DEV_TEST_MARKER", marker);
    expect(left().some((line) => line.includes("workerd"))).toBe(true);
    const exited = new Promise((resolve) => dev.child.once("exit", resolve));
    try {
      process.kill(dev.child.pid!, "SIGTERM");
      await within(exited, "npm to exit after SIGTERM", 30_000);
      await until(() => left().length === 0, `nothing left serving after SIGTERM to npm (left: ${left().join("; ")})`, 15_000, 100);
      await expect(fetch(`${base}/`)).rejects.toThrow();
    } finally {
      // npm has exited, so dev.stop() does nothing: end what it left, by pid.
      for (const line of left()) process.kill(Number(line.split(" ")[0]), "SIGKILL");
    }
  });
});

describe("startWranglerDev, the dev server of the other node suites", () => {
  let dev: Started;
  let base: string;
  beforeAll(async () => {
    ({ dev, base } = await startWranglerDev());
  });
  afterAll(() => dev?.stop());

  it("starts from fresh local state with the configuration of wrangler.toml alone", async () => {
    const response = await fetch(`${base}/.well-known/agent-card.json`);
    expect(response.headers.get("card-source")).toBe("bundled");
    expect(((await response.json()) as { name: string }).name).toBe(bundled.name);
    // EDGE_AUTH=enforce (the default) refuses a call without credentials to the bundled agent, origin or not.
    const call = await fetch(`${base}/`, {
      method: "POST",
      headers: { "content-type": "application/json", "A2A-Version": "1.0" },
      body: '{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"t1"}}',
    });
    expect(call.status).toBe(401);
  });
});
