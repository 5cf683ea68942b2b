// The relay's stage of the admission pipeline (call/admit.ts), after the guard, with PUSH_RELAY=on: a call
// that carries a push config has it replaced, on the origin's side, by an edge URL (`<base>/_push/<ref>`)
// and a token of the edge's (the client's URL, token and credentials are kept by the host's relay, never
// shown to the origin); the reply is read to put the client's own webhook back wherever the origin echoes a
// config (Create, Get, List), to bind the config to its task and id, or to end it (the origin refused it,
// or a Delete succeeded).
import type { Operation } from "../a2a/operations";
import type { Call, Outcome } from "../call/call";
import { type Failure, failure } from "../errors/failures";
import type { EdgeRequest } from "../http/edge-request";
import { isServedHost } from "../http/public-base";
import { base64url } from "../sign/sign";
import { type ClientWebhook, deletedConfig, echoedConfigs, RELAY_PATH, relayConfigIn, restoreClient, resultTask } from "./relay-configs";

/** What the reply path does for a relayed call. */
export interface RelayPlan {
  /** The reply must be read (not passed through unread) for `settle` to see it. */
  readsReply: boolean;
  /** Given the origin's decoded reply (of the origin's generation), before it is translated. */
  settle(outcome: Outcome): Promise<void>;
}

const READS: ReadonlySet<Operation | undefined> = new Set(["getPushNotificationConfig", "listPushNotificationConfigs"]);
const CARRIES: ReadonlySet<Operation | undefined> = new Set(["createPushNotificationConfig", "sendMessage", "sendStreamingMessage"]);

const random = (bytes: number) => base64url(crypto.getRandomValues(new Uint8Array(bytes)));

/** SHA-256 of a relay token, hex: what the relay keeps and compares. */
export async function tokenHash(token: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token)));
  return [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
}

const relayOf = (edge: EdgeRequest, host: string) => {
  const relays = edge.runtime.pushRelays;
  return relays?.get(relays.idFromName(host));
};

/** Every echoed relay config of the reply gets its client's webhook back, from the relay of its URL's host. */
async function restoreEchoed(edge: EdgeRequest, outcome: Outcome): Promise<void> {
  const echoed = echoedConfigs(outcome.result).filter(({ hostname }) => isServedHost(edge.runtime.config, hostname));
  for (const host of new Set(echoed.map((config) => config.host))) {
    const ofHost = echoed.filter((config) => config.host === host);
    const clients: Record<string, ClientWebhook> = (await relayOf(edge, host)?.clients(ofHost.map(({ ref }) => ref))) ?? {};
    for (const { config, ref } of ofHost) {
      const client = clients[ref];
      if (client) restoreClient(config, client);
    }
  }
}

/** A create or send with a config: the origin's side relayed, the client's webhook registered. */
async function relayConfig(edge: EdgeRequest, call: Call, origin: Call): Promise<{ origin: Call; plan: RelayPlan } | undefined> {
  const ref = random(16);
  const token = random(32);
  const relayed = relayConfigIn(origin.operation, origin.params, { url: `${edge.base}${RELAY_PATH}/${ref}`, token });
  const relay = relayOf(edge, edge.publicHost);
  if (!relayed || !relay) return undefined;
  const record = { client: relayed.client, issuer: edge.base, clientGeneration: call.generation, originGeneration: origin.generation };
  await relay.register(ref, await tokenHash(token), record, relayed.taskId ?? null, relayed.configId ?? null);
  const { bytes: _asReceived, ...rest } = origin;
  const plan: RelayPlan = {
    readsReply: origin.operation !== "sendStreamingMessage",
    async settle(outcome) {
      if ("error" in outcome) return relay.settle(ref, null);
      const echoed = echoedConfigs(outcome.result).find((config) => config.ref === ref);
      if (echoed) restoreClient(echoed.config, relayed.client);
      const configId = typeof echoed?.config.id === "string" ? echoed.config.id : undefined;
      await relay.settle(ref, { taskId: echoed?.taskId ?? resultTask(outcome.result), configId });
    },
  };
  return { origin: { ...rest, params: relayed.params }, plan };
}

/**
 * The relay's part in a call: the origin's side with the config relayed, and what the reply path does;
 * undefined when the relay is off or the call touches no push config; UNAVAILABLE when it is on but unbound.
 */
export async function relayStage(
  edge: EdgeRequest,
  call: Call,
  origin: Call,
): Promise<{ origin: Call; plan: RelayPlan } | Failure | undefined> {
  if (edge.runtime.config.pushRelay !== "on") return undefined;
  const operation = origin.operation;
  const touches = CARRIES.has(operation) || READS.has(operation) || operation === "deletePushNotificationConfig";
  if (!touches) return undefined;
  if (!edge.runtime.pushRelays) return failure("UNAVAILABLE", "PUSH_RELAY is on but the PUSH_RELAYS Durable Object is not bound");
  if (CARRIES.has(operation)) return relayConfig(edge, call, origin);
  const plan: RelayPlan = {
    readsReply: true,
    async settle(outcome) {
      if ("error" in outcome) return;
      if (READS.has(operation)) return restoreEchoed(edge, outcome);
      const deleted = deletedConfig(origin.params);
      if (deleted) await relayOf(edge, edge.publicHost)?.forget(deleted.taskId, deleted.configId);
    },
  };
  return { origin, plan };
}
