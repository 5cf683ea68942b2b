// The agent frameworks of the end-to-end suite (test/peers/), each run as its
// own process with no LLM and no network: Google ADK's A2A server and
// VoltAgent's, and Mastra's client (mastra-client.mjs). They are heavy (~570 MB
// of node_modules), so they live in a
// test-only package that the root `npm ci` never installs: ensurePeers()
// installs it from its own lockfile the first time, and again when the
// lockfile changes.
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { freePort, ROOT, run, type Started, start, waitForHttp } from "./processes";

const PEERS = join(ROOT, "test/peers");
const STAMP = join(PEERS, "node_modules/.installed-from");

const lockDigest = () =>
  createHash("sha256")
    .update(readFileSync(join(PEERS, "package-lock.json")))
    .digest("hex");

/** `npm ci` in test/peers unless its node_modules was installed from the current lockfile. */
export async function ensurePeers(): Promise<void> {
  const digest = lockDigest();
  if (existsSync(STAMP) && readFileSync(STAMP, "utf8") === digest) return;
  const installed = await run("npm", ["ci", "--no-audit", "--no-fund"], {}, PEERS);
  if (installed.code !== 0) throw new Error(`npm ci in test/peers failed:\n${installed.stderr.slice(-4000)}`);
  writeFileSync(STAMP, digest);
}

export interface Peer {
  /** What the framework calls itself, and the name its card gives the agent. */
  framework: string;
  agentName: string;
  /** The origin's JSON-RPC endpoint and its card (what ORIGIN_URL and ORIGIN_CARD_URL name). */
  rpcUrl: string;
  cardUrl: string;
  process: Started;
}

async function startPeer(script: string, env: Record<string, string>, paths: { rpc: string; card: string }) {
  const port = await freePort();
  const process = start("node", [`test/peers/${script}`, String(port)], env);
  const base = `http://127.0.0.1:${port}`;
  await waitForHttp(`${base}${paths.card}`, process, 90_000);
  return { process, rpcUrl: `${base}${paths.rpc}`, cardUrl: `${base}${paths.card}` };
}

export async function startAdkPeer(): Promise<Peer> {
  const started = await startPeer("adk-agent.mjs", {}, { rpc: "/jsonrpc", card: "/.well-known/agent-card.json" });
  return { framework: "Google ADK 2.0.0", agentName: "adk_echo_agent", ...started };
}

export async function startVoltAgentPeer(): Promise<Peer> {
  // Without NODE_ENV=production VoltAgent fetches a model list at start (network).
  const started = await startPeer(
    "voltagent-agent.mjs",
    { NODE_ENV: "production" },
    { rpc: "/a2a/echo", card: "/.well-known/echo/agent-card.json" },
  );
  return { framework: "VoltAgent 2.10.0 (@voltagent/a2a-server 2.0.3)", agentName: "echo", ...started };
}
