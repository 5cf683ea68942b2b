// The one-machine setup of the README, as a new user runs it: `.dev.vars.example` copied to `.dev.vars`,
// `npm run keys -- --for assertion --dev-vars`, `npm run origin`, `npm run issuer`, `npm run dev`, the
// token command the issuer prints, then a call through the edge that the origin accepts only with a
// verified A2A-Caller-Assertion. In a scratch copy of the working tree (its own .dev.vars and local KV);
// the fixed ports of the example are replaced by free ones, the rest of the file is used as it is.
import { randomUUID } from "node:crypto";
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ISSUER_PORT, LOCAL_EDGE, ORIGIN_CREDENTIAL, ORIGIN_PORT, PARTNER, RECEIVER_PORT } from "../../scripts/local";
import { CONFIG_VARIABLES } from "../../src/config";
import { blocks, GUIDE_TABLE, type Guide, jsonMembers, restartParts, section, shellSections } from "../support/guides";
import {
  freePort,
  processesWithEnv,
  ROOT,
  run,
  type Started,
  start,
  WRANGLER_READY,
  waitForHttp,
  waitForOutput,
} from "../support/processes";
import { SAMPLE_CARD } from "../support/sample-card";
import { scratchCopy } from "../support/scratch";
import { until, within } from "../support/wait";

/** KEY=VALUE lines of a dotenv file (wrangler's .dev.vars syntax), comments and blank lines skipped. */
function dotenv(text: string): Map<string, string> {
  const entries = text.split("\n").filter((line) => /^[A-Z_][A-Z0-9_]*=/.test(line));
  return new Map(entries.map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]));
}

const example = readFileSync(join(ROOT, ".dev.vars.example"), "utf8");

/** The README's guide on one machine: its shell commands (continued lines joined) and the origin line it quotes. */
function readmeGuide(): { commands: string[]; originLine: string } {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const start = readme.indexOf("### Front a private agent, on one machine");
  const guide = readme.slice(start, readme.indexOf("\n### ", start + 1));
  const blocks = [...guide.matchAll(/```sh\n([\s\S]*?)```/g)].map(([, block]) => block!.replaceAll("\\\n", ""));
  return {
    commands: blocks.flatMap((block) => block.split("\n")).filter((line) => line.trim() !== ""),
    originLine: /`(origin: SendMessage: [^`]+)`/.exec(guide)?.[1] ?? "",
  };
}

describe(".dev.vars.example", () => {
  it("points npm run dev at npm run origin and npm run issuer, with variables the worker declares", () => {
    const vars = dotenv(example);
    expect(vars.get("ORIGIN_URL")).toBe(`http://127.0.0.1:${ORIGIN_PORT}/`);
    expect(JSON.parse(vars.get("ORIGIN_HEADERS") ?? "{}")).toEqual({ Authorization: ORIGIN_CREDENTIAL });
    expect(vars.get("AUTH_JWT_ISSUER")).toBe(`http://127.0.0.1:${ISSUER_PORT}`);
    expect(vars.get("AUTH_JWT_AUDIENCE")).toBe(`${LOCAL_EDGE}/`);
    expect(vars.get("HOST_ALLOWLIST")).toBe(`${new URL(LOCAL_EDGE).host},localhost:${new URL(LOCAL_EDGE).port}`);
    for (const name of vars.keys()) expect(CONFIG_VARIABLES).toContain(name);
    // The edge the origin trusts by default is where npm run dev listens (wrangler.toml [dev]).
    const toml = readFileSync(join(ROOT, "wrangler.toml"), "utf8");
    expect(LOCAL_EDGE).toBe(`http://${/^ip = "(.+)"$/m.exec(toml)?.[1]}:${/^port = (\d+)$/m.exec(toml)?.[1]}`);
  });
});

describe("the guides' shell commands", () => {
  it("are each run by a guide below or say why they run elsewhere (test/fixtures/guides.json)", () => {
    const docs = ["README.md", ...readdirSync(join(ROOT, "docs")).map((name) => `docs/${name}`)].filter((doc) => doc.endsWith(".md"));
    const listed = [...GUIDE_TABLE.guides, ...GUIDE_TABLE.elsewhere].map(({ doc, section }) => `${doc} ${section}`);
    const found = docs.flatMap((doc) => shellSections(doc).map((heading) => `${doc} ${heading}`));
    expect(
      found.filter((where) => !listed.includes(where)),
      "sections with shell commands that no guide runs",
    ).toEqual([]);
    expect(
      listed.filter((where) => !found.includes(where)),
      "listed sections without shell commands",
    ).toEqual([]);
  });
});

describe("files a user makes in a checkout", () => {
  it("keeps .dev.vars and the admin guide's admin-token.txt out of git, and .dev.vars.example in", async () => {
    const ignored = await run("git", ["check-ignore", "--no-index", ".dev.vars", "admin-token.txt", ".dev.vars.example"]);
    expect(ignored.stdout.split("\n").filter(Boolean).sort()).toEqual([".dev.vars", "admin-token.txt"]);
  });
});

describe("npm run deploy", () => {
  it("is wrangler deploy (with its flags after --: a dry run here, offline)", async () => {
    const outdir = mkdtempSync(join(tmpdir(), "deploy-"));
    try {
      const { code, stdout, stderr } = await run("npm", ["run", "deploy", "--", "--dry-run", "--outdir", outdir]);
      expect(code, stdout + stderr).toBe(0);
      expect(stdout).toContain("--dry-run: exiting now.");
      expect(readdirSync(outdir)).toContain("index.js");
    } finally {
      rmSync(outdir, { recursive: true, force: true });
    }
  });
});

describe("the local recipe: origin, issuer and dev server from the README", () => {
  const marker = randomUUID();
  let scratch: string;
  let origin: Started;
  let issuer: Started;
  let dev: Started;
  /** The long-running commands the guides start (npm run feed, npm run receiver), by the name their step gives. */
  const terminals = new Map<string, Started>();
  let edge: string;
  let issuerUrl: string;
  let originUrl: string;
  let receiverPort: number;
  /** The guides name the example's fixed addresses; this run's servers listen on free ports. */
  const here = (text: string) =>
    text
      .replaceAll(`http://127.0.0.1:${ISSUER_PORT}`, issuerUrl)
      .replaceAll(`http://127.0.0.1:${ORIGIN_PORT}/`, originUrl)
      .replaceAll(`127.0.0.1:${RECEIVER_PORT}`, `127.0.0.1:${receiverPort}`)
      .replaceAll(`127.0.0.1:${new URL(LOCAL_EDGE).port}`, new URL(edge).host)
      .replaceAll(`localhost:${new URL(LOCAL_EDGE).port}`, `localhost:${new URL(edge).port}`);
  const npm = (script: string, args: string[]) => start("npm", ["run", script, "--", ...args], { LOCAL_SETUP_MARKER: marker }, scratch);
  const left = () => processesWithEnv("LOCAL_SETUP_MARKER", marker);
  const card = () => fetch(`${edge}/.well-known/agent-card.json`, { headers: { "A2A-Version": "1.0" } });
  const send = (headers: Record<string, string>) =>
    fetch(`${edge}/`, {
      method: "POST",
      headers: { "content-type": "application/json", "A2A-Version": "1.0", ...headers },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "SendMessage",
        params: { message: { messageId: "m1", role: "ROLE_USER", parts: [{ text: "hi" }] } },
      }),
    });

  /** Ctrl-C in the terminal of a command a guide started (SIGINT to its process group): it stops, saying so. */
  async function ctrlC(name: string): Promise<void> {
    const started = terminals.get(name);
    if (!started) throw new Error(`no command ${name} started`);
    terminals.delete(name);
    expect(started.child.exitCode, `npm run ${name} still running:\n${started.output()}`).toBeNull();
    const exited = new Promise((resolve) => started.child.once("exit", resolve));
    process.kill(-started.child.pid!, "SIGINT");
    await within(exited, `npm run ${name} to exit after Ctrl-C`, 30_000);
    expect(started.output()).toContain(`${name}: SIGINT, stopping`);
  }

  /** npm run dev as a user starts it (again, after a change to .dev.vars: wrangler dev reads it when it starts). */
  async function startDev(): Promise<void> {
    dev = npm("dev", ["--port", new URL(edge).port, "--inspector-port", "0"]);
    await waitForOutput(dev, WRANGLER_READY, "npm run dev's Ready line");
    await waitForHttp(`${edge}/.well-known/agent-card.json`, dev);
  }

  beforeAll(async () => {
    scratch = await scratchCopy("local-setup-");
    // The guide as the README runs it, with the sample card (whose OAuth scheme the issuer takes over), not the user's.
    copyFileSync(SAMPLE_CARD, join(scratch, "skills.json"));
    edge = `http://127.0.0.1:${await freePort()}`;
    receiverPort = await freePort();
    origin = npm("origin", ["--port", "0", "--edge", edge]);
    issuer = npm("issuer", ["--port", "0", "--audience", `${edge}/`]);
    originUrl = await waitForOutput(origin, /listening on (\S+)/, "npm run origin's listening line");
    issuerUrl = await waitForOutput(issuer, /OpenID provider listening on (\S+)/, "npm run issuer's listening line");
    await waitForOutput(issuer, /^(TOKEN=.*)$/m, "npm run issuer's token command");
    // The README's steps: the example, with this run's ports, then the assertion key.
    copyFileSync(join(scratch, ".dev.vars.example"), join(scratch, ".dev.vars"));
    const ports = readFileSync(join(scratch, ".dev.vars"), "utf8")
      .replaceAll(`http://127.0.0.1:${ORIGIN_PORT}/`, originUrl)
      .replaceAll(`http://127.0.0.1:${ISSUER_PORT}`, issuerUrl)
      .replaceAll(LOCAL_EDGE, edge)
      .replace(/^HOST_ALLOWLIST=.*$/m, `HOST_ALLOWLIST=${new URL(edge).host},localhost:${new URL(edge).port}`);
    writeFileSync(join(scratch, ".dev.vars"), ports);
    const keys = await run("npm", ["run", "keys", "--", "--for", "assertion", "--dev-vars"], {}, scratch);
    expect(keys.code, keys.stderr).toBe(0);
    expect(keys.stdout).toContain("AUTH_ASSERTION_KEY");
    expect(dotenv(readFileSync(join(scratch, ".dev.vars"), "utf8")).get("AUTH_ASSERTION_KEY")).toMatch(/^'\{.*"d":/);
    await startDev();
  });
  afterAll(async () => {
    for (const started of [...terminals.values(), dev, issuer, origin]) await started?.stop();
    for (const line of left()) process.kill(Number(line.split(" ")[0]), "SIGKILL");
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it("prints where each listens and the next command to run", () => {
    expect(origin.output()).toContain("next, in another terminal: npm run issuer");
    expect(issuer.output()).toContain(`client ${PARTNER.clientId} / ${PARTNER.clientSecret}`);
    // The provider's own warnings about a local set-up are not a new user's concern (scripts/issuer.ts).
    expect(issuer.output()).not.toContain("oidc-provider WARNING");
  });

  it("serves a card that names the local issuer, not the sample's fictional one", async () => {
    const response = await card();
    expect(response.headers.get("card-source")).toBe(`kv:127.0.0.1`);
    const body = (await response.json()) as { securitySchemes: Record<string, any> };
    expect(body.securitySchemes.acmeOAuth.oauth2SecurityScheme.flows.clientCredentials.tokenUrl).toBe(`${issuerUrl}/token`);
    expect(JSON.stringify(body)).not.toContain("login.acme.example.com");
  });

  it("reaches the origin with the README's commands, and the origin verifies the caller assertion as the README says", async () => {
    expect((await send({})).status).toBe(401);
    const { commands, originLine } = readmeGuide();
    const tokenCommand = commands.find((line) => line.startsWith("TOKEN="));
    const call = commands.find((line) => line.startsWith(`curl -s ${LOCAL_EDGE}/ -H "Authorization: Bearer $TOKEN"`));
    const stream = commands.find((line) => line.startsWith(`curl -sN ${LOCAL_EDGE}/`));
    expect([tokenCommand, call, stream].every(Boolean), commands.join("\n")).toBe(true);
    // What the issuer prints is what the README shows.
    expect(issuer.output()).toContain(`\n${here(tokenCommand!)}\n`);

    const token = await run("sh", ["-c", `${here(tokenCommand!)}; printf %s "$TOKEN"`]);
    expect(token.stdout).toMatch(/^ey[\w-]+\.[\w-]+\.[\w-]+$/);
    const answer = await run("sh", ["-c", `${here(tokenCommand!)}; ${here(call!)}`]);
    const reply = JSON.parse(answer.stdout) as { result?: { task?: { status?: { state?: string } } } };
    expect(reply.result?.task?.status?.state, answer.stdout).toBe("TASK_STATE_COMPLETED");
    await until(() => origin.output().includes("SendMessage: caller"), "the origin's line for the call");
    expect(origin.output()).toContain(here(originLine));
    expect(originLine).toContain("A2A-Caller-Assertion verified");

    const events = await run("sh", ["-c", `${here(tokenCommand!)}; ${here(stream!)}`]);
    expect(events.stdout).toContain('"kind":"status-update"');
    expect(events.stdout).toContain('"state":"completed"');
  });

  // The guides of README.md and docs/, each as written, on this set-up (test/fixtures/guides.json), in one shell
  // whose variables carry from guide to guide as in a terminal kept open; the fixed ports of the guides are this run's.
  describe("every guide on one machine, as written", () => {
    const shellState = () => join(scratch, ".guide-shell");
    beforeAll(() => {
      for (const [file, fixture] of Object.entries(GUIDE_TABLE.files)) copyFileSync(join(ROOT, fixture), join(scratch, file));
    });
    /** A block in the guides' shell: the variables of the blocks before it, its own kept for the blocks after it. */
    const shell = (commands: string, exec = false) => {
      const state = JSON.stringify(shellState());
      const prologue = `set -a\n[ -f ${state} ] && . ${state}\nset -eo pipefail\n`;
      const script = exec ? `${prologue}exec ${commands}` : `${prologue}${commands}\nexport -p > ${state}\n`;
      // RECEIVER_PORT: what a started command's added arguments name (`--port $RECEIVER_PORT`).
      return { args: ["-c", script], env: { LOCAL_SETUP_MARKER: marker, RECEIVER_PORT: String(receiverPort) } };
    };
    const outputOf = (name: string): string => {
      const started = { origin, issuer, dev }[name] ?? terminals.get(name);
      if (!started) throw new Error(`no process ${name} in the set-up`);
      return started.output();
    };

    async function runGuide(guide: Guide): Promise<void> {
      const code = blocks(section(guide.doc, guide.section));
      const block = (index: number) => {
        if (!code[index]) throw new Error(`${guide.doc} ${guide.section} has no block ${index}`);
        return code[index]!.text;
      };
      let last = "";
      for (const step of guide.steps) {
        if ("sh" in step) {
          for (const [at, part] of restartParts(block(step.sh)).entries()) {
            if (at > 0) await dev.stop().then(startDev);
            if (part.trim() === "") continue;
            const { args, env } = shell(here(part));
            const ran = await run("bash", args, env, scratch);
            last = ran.stdout + ran.stderr;
            expect(ran.code, `${guide.doc} ${guide.section}, block ${step.sh}:\n${here(part)}\n${last}`).toBe(0);
          }
        } else if ("start" in step) {
          // The block is the command and, as comments, what it prints.
          const commands = block(step.start)
            .split("\n")
            .filter((line) => line.trim() !== "" && !line.trim().startsWith("#"));
          expect(commands, `${guide.doc} ${guide.section}, block ${step.start}: one long-running command`).toHaveLength(1);
          const { args, env } = shell([here(commands[0]!), ...(step.args ?? []).map(here)].join(" "), true);
          const started = start("bash", args, env, scratch);
          terminals.set(step.name, started);
          await until(() => started.output().includes(here(step.ready)) || started.child.exitCode !== null, `${step.name}'s ready line`);
          expect(started.output(), `${step.name} exited before its ready line`).toContain(here(step.ready));
        } else if ("json" in step) {
          const file = join(scratch, step.file);
          const doc = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
          const members = jsonMembers(block(step.json));
          if (step.at) doc[step.at] = { ...(doc[step.at] as object), ...members };
          else Object.assign(doc, members);
          writeFileSync(file, JSON.stringify(doc, null, 2));
        } else if ("restart" in step) {
          if (step.restart !== "dev") throw new Error(`restart ${step.restart}: only npm run dev restarts in the guides`);
          await dev.stop().then(startDev);
        } else if ("stop" in step) {
          await ctrlC(step.stop);
        } else if ("expect" in step) {
          const text = step.expect === "step" ? last : outputOf(step.expect);
          expect(text, `${guide.doc} ${guide.section}; npm run dev printed:\n${dev.output().slice(-3000)}`).toContain(here(step.contains));
        } else {
          await until(() => outputOf(step.await).includes(here(step.contains)), `${step.await} to print ${here(step.contains)}`).catch(
            (error: Error) => {
              throw new Error(`${error.message}; it printed:\n${outputOf(step.await).slice(-3000)}`);
            },
          );
        }
      }
    }

    for (const guide of GUIDE_TABLE.guides) {
      it(`${guide.doc}, ${guide.section.replace(/^#+ /, "")}: ${guide.what}`, () => runGuide(guide));
    }
  });

  // Ctrl-C in a terminal signals the process group: the issuer gets SIGINT from the terminal and again from npm,
  // and must still finish taking its card out (a second signal once ended it halfway, 5 of 6 stops).
  it("stops each on Ctrl-C (SIGINT to the group), SIGINT or SIGTERM to npm alone, the issuer taking its card out of local KV", async () => {
    for (const name of terminals.keys()) await ctrlC(name);
    for (const [started, signal, group] of [
      [issuer, "SIGINT", true],
      [origin, "SIGINT", false],
      [dev, "SIGTERM", false],
    ] as const) {
      const exited = new Promise((resolve) => started.child.once("exit", resolve));
      process.kill(group ? -started.child.pid! : started.child.pid!, signal);
      await within(exited, `npm to exit after ${signal}`, 30_000);
      if (started === issuer) await until(() => issuer.output().includes("issuer: SIGINT, stopping"), "the issuer's stopping line");
      if (started === origin) expect(origin.output()).toContain("origin: SIGINT, stopping");
      if (started === issuer) await until(async () => (await card()).headers.get("card-source") === "bundled", "the bundled card again");
    }
    await until(() => left().length === 0, `nothing left running (left: ${left().join("; ")})`, 15_000, 100);
  });
});
