// npm run origin [-- --port 9999] [--delay MS] [--edge URL | --no-edge]
// A local A2A origin agent for the guides: the @a2a-js/sdk echo agent of the end-to-end tests
// (test/support/origin-agent.ts), JSON-RPC for A2A 1.0 and 0.3, streaming. Locked to the edge as a
// private origin should be: it answers only calls that carry its own credential (ORIGIN_HEADERS of
// .dev.vars.example) and an A2A-Caller-Assertion that verifies against the edge's JWKS, and prints
// each call with the caller the assertion names.
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

/** One line per call: what it asked and who called, as the verified assertion says (never a credential). */
function describe(call: RecordedRequest, refused?: string): string {
  const method = call.method || "(not JSON-RPC)";
  if (refused) return `${method}: refused (401): ${refused}`;
  const claims = call.assertion;
  if (!claims) return `${method}: accepted (no assertion required: --no-edge)`;
  const scope = typeof claims.scope === "string" && claims.scope !== "" ? `, scope ${claims.scope}` : "";
  return `${method}: caller ${claims.sub}${scope}; A2A-Caller-Assertion verified (iss ${claims.iss}, aud ${claims.aud})`;
}

const agent = await startOriginAgent({
  port,
  streamDelayMs: delay,
  requiredAuthorization: ORIGIN_CREDENTIAL,
  onCall: (call, refused) => process.stdout.write(`origin: ${describe(call, refused)}\n`),
}).catch((error: unknown) => listenFailure("origin", `127.0.0.1:${port}`, error));
// The assertion's issuer is the public base the call came to: the edge's origin, no trailing slash.
if (edge) agent.trustEdge({ jwksUrl: new URL("/.well-known/jwks.json", edge).href, issuer: edge.origin });

process.stdout.write(`origin: A2A origin agent (JSON-RPC, A2A 1.0 and 0.3, streaming) listening on ${agent.url}
origin: it answers only calls with Authorization: ${ORIGIN_CREDENTIAL} (ORIGIN_HEADERS in .dev.vars.example)
`);
process.stdout.write(
  edge
    ? `origin: and an A2A-Caller-Assertion from the edge at ${edge.origin} (keys: ${edge.origin}/.well-known/jwks.json)\n`
    : "origin: --no-edge: no A2A-Caller-Assertion required\n",
);
process.stdout.write("origin: next, in another terminal: npm run issuer\n");
stopOnSignal("origin", () => agent.stop());
