// Tests never see a developer's dev state. Without care, wrangler hands the
// worker under test whatever `.dev.vars` (else `.env`, `.env.local`) beside
// wrangler.toml holds, uses `.wrangler/state` as local KV and Durable Object
// storage, picks the environment named by CLOUDFLARE_ENV, and with
// CLOUDFLARE_INCLUDE_PROCESS_ENV=true turns the whole process environment into
// vars: `ORIGIN_URL=... EDGE_AUTH=off` in `.dev.vars`, or a document put with
// `npm run skills:push -- --local`, would change what the tests see.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { delimiter, dirname, join, resolve } from "node:path";

/** What wrangler must not take from the environment, and the settings that keep it from reading dev files. */
const DROPPED = ["CLOUDFLARE_ENV"];
const SET = { CLOUDFLARE_INCLUDE_PROCESS_ENV: "false", CLOUDFLARE_LOAD_DEV_VARS_FROM_DOT_ENV: "false", WRANGLER_SEND_METRICS: "false" };

/**
 * The environment of every process the tests start: none of the above, and the node running the tests
 * first on PATH, so that `node_modules/.bin/wrangler` (`#!/usr/bin/env node`), npm and every script they
 * start run on the same Node as the tests, whatever node comes first in the caller's PATH.
 */
export function hermeticEnv(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base, ...SET, PATH: [dirname(process.execPath), base.PATH].filter(Boolean).join(delimiter) };
  for (const name of DROPPED) delete env[name];
  return env;
}

/** The same for this process (vitest.config.ts: the workers pool runs wrangler in it). */
export function makeProcessEnvHermetic(): void {
  for (const name of DROPPED) delete process.env[name];
  Object.assign(process.env, SET);
}

/**
 * For `wrangler dev` and `wrangler types`: once an env file is named, wrangler
 * (4.86 as 4.164) skips `.dev.vars` (getVarsForDev), and with
 * CLOUDFLARE_LOAD_DEV_VARS_FROM_DOT_ENV=false it loads no env file either.
 * /dev/null is empty where it exists and skipped as missing where it does not.
 */
export const NO_ENV_FILE = ["--env-file", "/dev/null"];

/**
 * @cloudflare/vitest-plugin reads its bindings through wrangler's
 * unstable_getMiniflareWorkerOptions, which loads `.dev.vars` (or `.env`) from
 * the config's directory and takes no env-file option: it gets a copy of
 * wrangler.toml in a directory of its own (`test-output/`, ignored by git),
 * with `main` made absolute and `edit` applied (the sample card: sample-card.ts). Returns the copy's path.
 * A running `wrangler dev` watches its config file and restarts when it is replaced, answering a POST in
 * flight with 503 "Your worker restarted mid-request": each one gets a `dir` of its own.
 */
export function isolatedWranglerConfig(
  root: string,
  edit: (toml: string) => string,
  dir = join(root, "test-output", "wrangler-config"),
): string {
  mkdirSync(dir, { recursive: true });
  const config = readFileSync(join(root, "wrangler.toml"), "utf8").replace(
    /^main = "(.+)"$/m,
    (_line, main: string) => `main = ${JSON.stringify(resolve(root, main))}`,
  );
  const path = join(dir, "wrangler.toml");
  // Written aside then renamed: suites starting wrangler dev at once read it whole, never half written.
  const aside = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  writeFileSync(aside, edit(config));
  renameSync(aside, path);
  return path;
}
