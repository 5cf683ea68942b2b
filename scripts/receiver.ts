// npm run receiver [-- --port 9997] [--token TOKEN] [--edge URL]
// A push notification webhook on this machine, for the relay on one machine (docs/push-notifications.md):
// one line per notification it receives (answered 200): the task and its event, whether
// X-A2A-Notification-Token is the config's `--token`, and whether the A2A-Notification-JWT the edge's relay
// signs verifies against the edge's JWKS (jose): issued by the edge or one of its agents by path, for this
// receiver's URL as the notification was sent to it, with `request_body_sha256` the digest of the body.
import { createHash } from "node:crypto";
import { createRemoteJWKSet, jwtVerify } from "jose";
import { issuedBy } from "../test/support/caller-assertion";
import { type Delivery, startReceiver } from "../test/support/webhook-receiver";
import { LOCAL_EDGE, listenFailure, RECEIVER_PORT, stopOnSignal } from "./local";
import { type Cli, cli } from "./usage";

const cmd: Cli = cli("receiver", "usage: npm run receiver [-- --port 9997] [--token TOKEN] [--edge URL]");
const { values } = cmd.parseArgs({
  options: {
    port: { type: "string", default: String(RECEIVER_PORT) },
    token: { type: "string" },
    edge: { type: "string", default: LOCAL_EDGE },
  },
  strict: true,
});
const port =
  /^\d+$/.test(values.port) && Number(values.port) <= 65535
    ? Number(values.port)
    : cmd.usageError(`--port must be a whole number up to 65535, not ${JSON.stringify(values.port)}`);
const edge = URL.canParse(values.edge)
  ? new URL(values.edge)
  : cmd.usageError(`--edge must be the edge's base URL, not ${JSON.stringify(values.edge)}`);
if (edge.protocol !== "http:" && edge.protocol !== "https:")
  cmd.usageError(`--edge must be an http(s) URL, not ${JSON.stringify(values.edge)}`);
const jwksUrl = new URL("/.well-known/jwks.json", edge);
const keys = createRemoteJWKSet(jwksUrl);

type Json = Record<string, unknown>;
const object = (value: unknown): Json | undefined =>
  value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Json) : undefined;
const text = (value: unknown) => (typeof value === "string" ? value : "?");

/** The task and the event: a 1.0 StreamResponse names its member (`statusUpdate`), a 0.3 event its `kind`. */
function eventOf(body: string): string {
  let value: Json | undefined;
  try {
    value = object(JSON.parse(body));
  } catch {
    return `a body that is not JSON (${Buffer.byteLength(body)} bytes)`;
  }
  if (!value) return "a JSON body that is not an object";
  const member = ["task", "statusUpdate", "artifactUpdate", "message"].find((name) => object(value[name]));
  const event = member ? (object(value[member]) ?? {}) : value;
  const kind = member ?? text(value.kind);
  const task = text(kind === "task" ? event.id : event.taskId);
  const state = object(event.status)?.state;
  const artifact = object(event.artifact);
  const detail = state !== undefined ? ` ${text(state)}` : artifact ? ` (artifact ${text(artifact.name ?? artifact.artifactId)})` : "";
  return `task ${task}: ${kind}${detail}`;
}

/** Whether the edge's JWT verifies: issuer, audience (this receiver's URL as called), lifetime, signature, body digest. */
async function jwtCheck(delivery: Delivery): Promise<string> {
  const jwt = delivery.headers["a2a-notification-jwt"];
  if (typeof jwt !== "string") return "no A2A-Notification-JWT (not delivered by the edge's relay)";
  const audience = `http://${delivery.headers.host ?? `127.0.0.1:${port}`}${delivery.path}`;
  try {
    const { payload } = await jwtVerify(jwt, keys, { audience });
    if (!issuedBy(payload.iss, edge.origin, true))
      return `A2A-Notification-JWT refused: issued by ${payload.iss}, not the edge at ${edge.origin}`;
    const digest = createHash("sha256").update(delivery.bytes).digest("hex");
    if (payload.request_body_sha256 !== digest) return "A2A-Notification-JWT refused: its request_body_sha256 is not the body's";
    return `A2A-Notification-JWT verified (iss ${payload.iss}, aud ${audience}, request_body_sha256 matches)`;
  } catch (error) {
    return `A2A-Notification-JWT refused: ${error instanceof Error ? error.message : String(error)} (keys: ${jwksUrl.href})`;
  }
}

function tokenCheck(delivery: Delivery): string {
  if (values.token === undefined) return "";
  const sent = delivery.headers["x-a2a-notification-token"];
  if (sent === undefined) return "; no X-A2A-Notification-Token";
  return sent === values.token ? "; X-A2A-Notification-Token matches" : "; X-A2A-Notification-Token does not match --token";
}

// Lines in the order the notifications came, whatever the JWKS fetch of the first one takes.
let printed = Promise.resolve();
const receiver = await startReceiver({
  port,
  path: "/",
  onDelivery: (delivery) => {
    const line = Promise.all([eventOf(delivery.body), tokenCheck(delivery), jwtCheck(delivery)]);
    printed = printed.then(() => line).then(([event, token, jwt]) => void process.stdout.write(`receiver: ${event}${token}; ${jwt}\n`));
  },
}).catch((error: unknown) => listenFailure("receiver", `127.0.0.1:${port}`, error));

process.stdout.write(`receiver: push notification webhook listening on ${receiver.url}
receiver: it checks each A2A-Notification-JWT against the edge at ${edge.origin} (keys: ${jwksUrl.href})${values.token === undefined ? "" : ", and X-A2A-Notification-Token against --token"}
`);
stopOnSignal("receiver", () => receiver.stop());
