// npm run origin [-- --port 9999] [--delay MS] [--edge URL | --no-edge]
// A local A2A origin agent for the guides: the @a2a-js/sdk echo agent of the end-to-end tests
// (test/support/origin-agent.ts), JSON-RPC for A2A 1.0 and 0.3, streaming, push notifications (the SDK's
// in-memory store and sender). Locked to the edge as a private origin should be: it answers only calls
// that carry its own credential (ORIGIN_HEADERS of .dev.vars.example) and an A2A-Caller-Assertion that
// verifies against the edge's JWKS, issued by the edge or one of its agents by path, and prints each call
// with the caller the assertion names, or why it refused it (in the caller's error message too).
import { describeRefusal, type Refusal } from "../test/support/caller-assertion";
import { type RecordedRequest, startOriginAgent } from "../test/support/origin-agent";
import { LOCAL_EDGE, listenFailure, ORIGIN_CREDENTIAL, ORIGIN_PORT, stopOnSignal } from "./local";
import { type Cli, cli } from "./usage";

const cmd: Cli = cli("origin", "usage: npm run origin [-- --port 9999] [--delay MS] [--edge URL | --no-edge]");
const { values } = cmd.parseArgs({
  options: {
    port: { type: "string", default: String(ORIGIN_PORT) },
    delay: { type: "string", default: "200" },
    edge: { type: "string", default: LOCAL_EDGE },
    "no-edge": { type: "boolean", default: false },
  },
  strict: true,
});
const whole = (flag: string, value: string, max: number) =>
  /^\d+$/.test(value) && Number(value) <= max
    ? Number(value)
    : cmd.usageError(`--${flag} must be a whole number up to ${max}, not ${JSON.stringify(value)}`);
const port = whole("port", values.port, 65535);
const delay = whole("delay", values.delay, 60_000);
let edge: URL | undefined;
if (!values["no-edge"]) {
  edge = URL.canParse(values.edge)
    ? new URL(values.edge)
    : cmd.usageError(`--edge must be the edge's base URL, not ${JSON.stringify(values.edge)}`);
  if (edge.protocol !== "http:" && edge.protocol !== "https:")
    cmd.usageError(`--edge must be an http(s) URL, not ${JSON.stringify(values.edge)}`);
}

const restartDev = "then restart npm run dev";
/** What to do about a refusal, with this set-up's commands: the edge's settings are in .dev.vars. */
function advice(refusal: Refusal): string {
  switch (refusal.kind) {
    case "credential":
      return `ORIGIN_HEADERS in .dev.vars: copy its line from .dev.vars.example, ${restartDev}`;
    case "no-assertion":
      return refusal.viaEdge ? `the edge signs one with AUTH_ASSERTION_KEY: npm run keys -- --for assertion --dev-vars, ${restartDev}` : "";
    case "issuer":
      return URL.canParse(refusal.issuer) ? `restart it with npm run origin -- --edge ${new URL(refusal.issuer).origin}` : "";
    case "audience":
      return `ORIGIN_URL in .dev.vars must be ${refusal.url}, ${restartDev}`;
    case "expired":
      return "the edge signs each for 60 s: an old one sent again, or this machine's clock and the edge's apart";
    case "keys-unreachable":
      return `is npm run dev running at ${new URL(refusal.jwksUrl).origin}?`;
    case "unverified":
    case "not-a-jwt":
      return "";
  }
}
/** A refusal in full: what was refused, why, and what to do (the caller reads it in the error's message too). */
function refusalText(refusal: Refusal): string {
  const todo = advice(refusal);
  return `${describeRefusal(refusal)}${todo ? ` (${todo})` : ""}`;
}

/** One line per call: what it asked and who called, as the verified assertion says (never a credential). */
function describe(call: RecordedRequest, refusal?: Refusal): string {
  const method = call.method || "(not JSON-RPC)";
  if (refusal) return `${method}: refused (403) ${refusalText(refusal)}`;
  const claims = call.assertion;
  if (!claims) return `${method}: accepted (no assertion required: --no-edge)`;
  const scope = typeof claims.scope === "string" && claims.scope !== "" ? `, scope ${claims.scope}` : "";
  return `${method}: caller ${claims.sub}${scope}; A2A-Caller-Assertion verified (iss ${claims.iss}, aud ${claims.aud})`;
}

const agent = await startOriginAgent({
  port,
  streamDelayMs: delay,
  requiredAuthorization: ORIGIN_CREDENTIAL,
  push: true,
  // The SDK's sender prints its own line per notification it delivered (or the error); storing a config, none.
  onPushConfig: (taskId, url) => process.stdout.write(`origin: push notification config stored for task ${taskId}: ${url}\n`),
  onCall: (call, refusal) => process.stdout.write(`origin: ${describe(call, refusal)}\n`),
  refusalMessage: (refusal) => `origin (npm run origin) refused ${refusalText(refusal)}`,
}).catch((error: unknown) => listenFailure("origin", `127.0.0.1:${port}`, error));
// The assertion's issuer is the public base the call came to: the edge's origin, no trailing slash, or for an
// agent by path its base (`http://127.0.0.1:8787/travel`), signed with the same keys.
if (edge) agent.trustEdge({ jwksUrl: new URL("/.well-known/jwks.json", edge).href, issuer: edge.origin, paths: true });

process.stdout.write(`origin: A2A origin agent (JSON-RPC, A2A 1.0 and 0.3, streaming, push notifications) listening on ${agent.url}
origin: it answers only calls with Authorization: ${ORIGIN_CREDENTIAL} (ORIGIN_HEADERS in .dev.vars.example)
`);
process.stdout.write(
  edge
    ? `origin: and an A2A-Caller-Assertion from the edge at ${edge.origin} or one of its agents by path (keys: ${edge.origin}/.well-known/jwks.json)\n`
    : "origin: --no-edge: no A2A-Caller-Assertion required\n",
);
process.stdout.write("origin: next, in another terminal: npm run issuer\n");
stopOnSignal("origin", () => agent.stop());
