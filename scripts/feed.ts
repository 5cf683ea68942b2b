// npm run feed [-- --edge http://127.0.0.1:8787] [--feed <hostname|default>] [--since N]
// A subscriber to the live feed (docs/feed.md) that runs wherever npm run does: the project's Node (npm
// puts node_modules/.bin first on PATH), whose WebSocket takes `{ headers }`, where `node -e` on the
// shell's Node 20 has no WebSocket at all. It sends the read token as a bearer token (RFC 6750 §2.1), prints
// each message as one line, keeps the connection alive with `ping`, and says why when the feed refuses it.
import { readFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { LOCAL_EDGE, stopOnSignal } from "./local";
import { type Cli, cli } from "./usage";

const cmd: Cli = cli(
  "feed",
  `usage: npm run feed [-- --edge ${LOCAL_EDGE}] [--feed <hostname|default>] [--since N]
  --edge   the edge's base URL (default ${LOCAL_EDGE}, npm run dev); the feed is <edge>/_feed/<feed>
  --feed   the hostname whose card changes to hear (default: the edge's), or default
  --since  replay the kept events after this version first
  the read token: FEED_TOKEN in the environment, else the FEED_TOKEN line of .dev.vars`,
);
const { values } = cmd.parseArgs({
  options: { edge: { type: "string", default: LOCAL_EDGE }, feed: { type: "string" }, since: { type: "string" } },
  strict: true,
});
const edge = URL.canParse(values.edge)
  ? new URL(values.edge)
  : cmd.usageError(`--edge must be the edge's base URL, not ${JSON.stringify(values.edge)}`);
if (edge.protocol !== "http:" && edge.protocol !== "https:")
  cmd.usageError(`--edge must be an http(s) URL, not ${JSON.stringify(values.edge)}`);
const feed = (values.feed ?? edge.hostname).toLowerCase();
if (!/^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/.test(feed))
  cmd.usageError(`--feed must be a hostname or default, not ${JSON.stringify(values.feed ?? feed)}`);
if (values.since !== undefined && !/^\d{1,15}$/.test(values.since))
  cmd.usageError(`--since must be a whole number, not ${JSON.stringify(values.since)}`);

/** FEED_TOKEN from the environment, else from .dev.vars (npm runs scripts in the package root, where wrangler dev reads it). */
function readToken(): string {
  const fromEnv = process.env.FEED_TOKEN;
  if (fromEnv) return fromEnv;
  let devVars = "";
  try {
    devVars = readFileSync(".dev.vars", "utf8");
  } catch {
    // No .dev.vars: the environment was the only place left.
  }
  // The last FEED_TOKEN line, as wrangler dev reads the file (a later line wins).
  const line = [...devVars.matchAll(/^(?:export\s+)?FEED_TOKEN\s*=(.*)$/gm)].at(-1)?.[1]?.trim() ?? "";
  const token = /^(["'])(.*)\1$/.exec(line)?.[2] ?? line;
  return token || cmd.usageError("no read token: set FEED_TOKEN, or add FEED_TOKEN=... to .dev.vars (see .dev.vars.example, docs/feed.md)");
}
const token = readToken();

const base = `${edge.protocol === "https:" ? "wss:" : "ws:"}//${edge.host}${edge.pathname.replace(/\/$/, "")}`;
const url = `${base}/_feed/${feed}${values.since === undefined ? "" : `?since=${values.since}`}`;
const what = feed === "default" ? "the key default" : `${feed} and its path agents`;

/**
 * The handshake's HTTP status and message, made once more with node:http: the WebSocket API hides why a
 * handshake failed (a browser's does too), while a refusal is an answer in the A2A error shape.
 */
function refusal(): Promise<string> {
  const request = edge.protocol === "https:" ? httpsRequest : httpRequest;
  const headers = {
    authorization: `Bearer ${token}`,
    connection: "Upgrade",
    upgrade: "websocket",
    "sec-websocket-version": "13",
    "sec-websocket-key": btoa(crypto.randomUUID().slice(0, 16)),
  };
  return new Promise((resolve) => {
    const req = request(url.replace(/^ws/, "http"), { headers });
    req.on("upgrade", (_response, socket) => {
      socket.destroy();
      resolve("the connection failed, though the feed takes it now: try again");
    });
    req.on("response", (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (body += chunk));
      response.on("end", () => {
        const message = (() => {
          try {
            return String((JSON.parse(body) as { error: { message: unknown } }).error.message);
          } catch {
            return response.statusMessage ?? "";
          }
        })();
        resolve(`refused: ${response.statusCode} ${message}`);
      });
    });
    req.on("error", (error: NodeJS.ErrnoException) =>
      resolve(
        `cannot connect: ${error.code === "ECONNREFUSED" ? `nothing listens at ${edge.host} (is npm run dev running?)` : error.message}`,
      ),
    );
    req.end();
  });
}

/** Node's WebSocket (undici's) takes `{ headers }`, a server-side client's way to send the token; the DOM type knows only protocols. */
type HeaderWebSocket = new (url: string, init: { headers: Record<string, string> }) => WebSocket;
const NodeWebSocket = globalThis.WebSocket as unknown as HeaderWebSocket | undefined;
if (NodeWebSocket === undefined) cmd.fail(`Node ${process.version} has no WebSocket: run it with npm run feed (the project's Node)`);
const socket = new NodeWebSocket(url, { headers: { authorization: `Bearer ${token}` } });
let opened = false;
let stopping = false;
// The feed takes `ping` and answers `pong` without waking its Durable Object (docs/feed.md, Keep-alive).
const keepAlive = setInterval(() => socket.readyState === WebSocket.OPEN && socket.send("ping"), 30_000);

socket.addEventListener("open", () => {
  opened = true;
  const since = values.since === undefined ? "" : `, the kept events after version ${values.since} first`;
  process.stdout.write(`feed: connected to ${url}: the card changes of ${what}${since} (Ctrl-C to stop)\n`);
});
socket.addEventListener("message", ({ data }) => {
  if (data === "pong") return;
  const text = String(data);
  try {
    process.stdout.write(`feed: ${JSON.stringify(JSON.parse(text))}\n`);
  } catch {
    process.stdout.write(`feed: ${JSON.stringify(text)}\n`);
  }
});
socket.addEventListener("close", async ({ code, reason }) => {
  clearInterval(keepAlive);
  if (stopping) return;
  const why = opened ? `the feed closed the connection (${code}${reason ? ` ${reason}` : ""})` : await refusal();
  process.stderr.write(`feed: ${url}: ${why}\n`);
  process.exit(1);
});

stopOnSignal("feed", async () => {
  stopping = true;
  clearInterval(keepAlive);
  if (socket.readyState !== WebSocket.OPEN) return;
  // The feed echoes the Close frame (RFC 6455 §5.5.1): a clean close, bounded should the edge be gone.
  const closed = new Promise((resolve) => socket.addEventListener("close", resolve));
  socket.close(1000);
  await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 2000))]);
});
