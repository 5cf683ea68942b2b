// Real HTTP+JSON (REST) payloads for the REST mappers' tests
// (test/worker/rest-sdk.test.ts): the bridge scenario (bridge-scenario.ts)
// played by @a2a-js/sdk 1.3's own REST clients (RestTransport for 1.0,
// LegacyRestTransport for 0.3) to its own REST server (restHandler with
// legacyCompat, over a local port), with every request as it went out and
// every answer as it came back: status, body, each SSE event. The same agent
// answered the same scenario over JSON-RPC in test/fixtures/bridge-sdk.json.
// Calls that scenario lacks (ListTasks, an extended card with security) are
// played over both bindings here, against one agent. Ids the SDK makes up
// become id-1, id-2, ... in order of appearance, as in bridge-sdk.json.
//   npm run rest:fixtures   (rewrites test/fixtures/rest-sdk.json)
import { writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import {
  type AgentCard,
  CancelTaskRequest,
  DeleteTaskPushNotificationConfigRequest,
  GetExtendedAgentCardRequest,
  GetTaskPushNotificationConfigRequest,
  GetTaskRequest,
  ListTaskPushNotificationConfigsRequest,
  ListTasksRequest,
  SendMessageRequest,
  SubscribeToTaskRequest,
  TaskPushNotificationConfig,
} from "@a2a-js/sdk";
import { type RequestOptions, RestTransportFactory, type Transport } from "@a2a-js/sdk/client";
import { LegacyRestTransport } from "@a2a-js/sdk/compat/v0_3/client";
import { LegacyJsonRpcTransportHandler } from "@a2a-js/sdk/compat/v0_3/server";
import { DefaultRequestHandler, InMemoryTaskStore, JsonRpcTransportHandler, ServerCallContext } from "@a2a-js/sdk/server";
import { restHandler, UserBuilder } from "@a2a-js/sdk/server/express";
import express from "express";
import { agentCard, ScenarioExecutor } from "./bridge-agent";
import { BRIDGE_SCENARIO } from "./bridge-scenario";

type Generation = "v03" | "v1";
interface RestRequest {
  method: string;
  path: string;
  query: string;
  body?: unknown;
}
interface RestAnswer {
  status: number;
  body?: unknown;
  /** A stream: each SSE event's `event` (when set) and parsed `data`. */
  events?: { event?: string; data: unknown }[];
}
interface Exchange {
  request: RestRequest;
  response: RestAnswer;
}

/** The scenario's card on REST, both versions (the SDK server checks A2A-Version against them); `extended`: it has an extended card. */
function restCard(extended = false): AgentCard {
  const url = "http://127.0.0.1/";
  return {
    ...agentCard(),
    supportedInterfaces: ["1.0", "0.3"].map((protocolVersion) => ({ url, protocolBinding: "HTTP+JSON", tenant: "", protocolVersion })),
    capabilities: { streaming: true, pushNotifications: true, extensions: [], extendedAgentCard: extended },
  };
}

function extendedCard(): AgentCard {
  const scheme = (value: object) => value as AgentCard["securitySchemes"][string];
  return {
    ...restCard(true),
    name: "Bridge Scenario Agent (extended)",
    securitySchemes: {
      key: scheme({ scheme: { $case: "apiKeySecurityScheme", value: { description: "", location: "header", name: "X-Key" } } }),
      bearer: scheme({ scheme: { $case: "httpAuthSecurityScheme", value: { description: "", scheme: "Bearer", bearerFormat: "JWT" } } }),
    },
    securityRequirements: [{ schemes: { key: { list: [] }, bearer: { list: ["read"] } } }],
  };
}

function sseEvents(text: string): RestAnswer["events"] {
  return text
    .split(/\n\n/)
    .filter((block) => block.trim() !== "")
    .map((block) => {
      const lines = block.split("\n");
      const event = lines.find((line) => line.startsWith("event: "))?.slice(7);
      const data = JSON.parse(lines.find((line) => line.startsWith("data: "))?.slice(6) ?? "null");
      return event ? { event, data } : { data };
    });
}

/** fetch that writes down each exchange (the SDK client reads a copy). */
function recordingFetch(log: Exchange[]): typeof fetch {
  return async (input, init) => {
    const url = new URL(String(input));
    const text = typeof init?.body === "string" ? init.body : undefined;
    const request: RestRequest = {
      method: init?.method ?? "GET",
      path: url.pathname,
      query: url.search,
      ...(text ? { body: JSON.parse(text) } : {}),
    };
    const response = await fetch(input, init);
    const body = await response.text();
    const stream = response.headers.get("content-type")?.startsWith("text/event-stream");
    const answer: RestAnswer = { status: response.status };
    if (stream) answer.events = sseEvents(body);
    else if (body !== "") answer.body = JSON.parse(body);
    log.push({ request, response: answer });
    return new Response(body === "" ? null : body, { status: response.status, headers: response.headers });
  };
}

type Call = (transport: Transport, params: unknown, options: RequestOptions) => Promise<unknown>;
const drain = async (events: AsyncIterable<unknown>) => {
  for await (const _ of events);
};
/** Each call as the SDK client makes it; `options` carries the A2A-Version header (1.0 only: 0.3 clients send none). */
const CALLS: Record<string, Call> = {
  SendStreamingMessage: (t, p, o) => drain(t.sendMessageStream(SendMessageRequest.fromJSON(p), o)),
  SendMessage: (t, p, o) => t.sendMessage(SendMessageRequest.fromJSON(p), o),
  GetTask: (t, p, o) => t.getTask(GetTaskRequest.fromJSON(p), o),
  ListTasks: (t, p, o) => t.listTasks(ListTasksRequest.fromJSON(p), o),
  CancelTask: (t, p, o) => t.cancelTask(CancelTaskRequest.fromJSON(p), o),
  SubscribeToTask: (t, p, o) => drain(t.resubscribeTask(SubscribeToTaskRequest.fromJSON(p), o)),
  CreateTaskPushNotificationConfig: (t, p, o) => t.createTaskPushNotificationConfig(TaskPushNotificationConfig.fromJSON(p), o),
  GetTaskPushNotificationConfig: (t, p, o) => t.getTaskPushNotificationConfig(GetTaskPushNotificationConfigRequest.fromJSON(p), o),
  ListTaskPushNotificationConfigs: (t, p, o) => t.listTaskPushNotificationConfig(ListTaskPushNotificationConfigsRequest.fromJSON(p), o),
  DeleteTaskPushNotificationConfig: (t, p, o) => t.deleteTaskPushNotificationConfig(DeleteTaskPushNotificationConfigRequest.fromJSON(p), o),
  GetExtendedAgentCard: (t, p, o) => t.getExtendedAgentCard(GetExtendedAgentCardRequest.fromJSON(p), o),
};

/**
 * Calls beyond the bridge scenario, each with the JSON-RPC call that means the
 * same (0.3 has no ListTasks): the first to the scenario's agent, after the
 * scenario; the second to an agent with an extended card.
 */
const EXTRA = [
  {
    name: "list the tasks of a context, with artifacts",
    v1: { method: "ListTasks", params: { contextId: "ctx-1", pageSize: 5, historyLength: 1, includeArtifacts: true } },
    v03: undefined,
  },
  {
    name: "get an extended card with security",
    v1: { method: "GetExtendedAgentCard", params: {} },
    v03: { method: "agent/getAuthenticatedExtendedCard" },
  },
];

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/** The SDK's REST server (both versions) for `handler` on a local port. */
async function serve(handler: DefaultRequestHandler) {
  const app = express();
  app.use(restHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication, legacyCompat: { enabled: true } }));
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  return { endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

async function client(generation: Generation, endpoint: string, fetchImpl: typeof fetch): Promise<Transport> {
  return generation === "v1"
    ? new RestTransportFactory({ fetchImpl }).create(endpoint, restCard())
    : new LegacyRestTransport({ endpoint, fetchImpl });
}

async function run(generation: Generation) {
  // The scenario's agent (no extended card, as in bridge-sdk.json), and one with an extended card (a provider: given to anyone).
  const handlers = [
    new DefaultRequestHandler(restCard(), new InMemoryTaskStore(), new ScenarioExecutor()),
    new DefaultRequestHandler(restCard(true), new InMemoryTaskStore(), new ScenarioExecutor(), undefined, undefined, undefined, async () =>
      extendedCard(),
    ),
  ];
  const servers = await Promise.all(handlers.map(serve));
  const log: Exchange[] = [];
  const fetchImpl = recordingFetch(log);
  const transports = await Promise.all(servers.map(({ endpoint }) => client(generation, endpoint, fetchImpl)));
  const options: RequestOptions = generation === "v1" ? { serviceParameters: { "A2A-Version": "1.0" } } : {};
  const ids: string[] = [];
  const withIds = (value: unknown) => JSON.parse(JSON.stringify(value).replace(/\{\{id-(\d)\}\}/g, (_, n) => ids[Number(n) - 1] ?? ""));
  const normalized = (value: unknown) => {
    const text = JSON.stringify(value);
    for (const [id] of text.matchAll(UUID)) if (!ids.includes(id)) ids.push(id);
    return JSON.parse(ids.reduce((out, id, i) => out.replaceAll(id, `id-${i + 1}`), text));
  };
  const rest = async (call: { method: string; params: unknown }, agent = 0): Promise<Exchange | undefined> => {
    log.length = 0;
    const transport = transports[agent];
    if (transport) await CALLS[call.method]?.(transport, withIds(call.params), options).catch(() => undefined);
    return log[0] && normalized(log[0]);
  };
  const steps: (Exchange | undefined)[] = [];
  for (const step of BRIDGE_SCENARIO) steps.push(await rest(step.v1));
  const extra = [];
  for (const [agent, step] of EXTRA.entries()) {
    const call = step[generation];
    const handler = handlers[agent];
    if (!call || !handler) {
      extra.push(undefined);
      continue;
    }
    const exchange = await rest(step.v1, agent);
    const jsonRpc = generation === "v1" ? new JsonRpcTransportHandler(handler) : new LegacyJsonRpcTransportHandler(handler);
    const context = new ServerCallContext({ requestedVersion: generation === "v1" ? "1.0" : "0.3" });
    const answer = await jsonRpc.handle({ jsonrpc: "2.0", id: 1, ...withIds(call) }, context);
    extra.push({ ...exchange, jsonrpc: { request: normalized(withIds(call)), response: normalized(answer) } });
  }
  for (const server of servers) server.close();
  return { steps, extra };
}

const [v03, v1] = [await run("v03"), await run("v1")];
const fixture = {
  steps: BRIDGE_SCENARIO.map((step, i) => ({ name: step.name, v03: v03.steps[i], v1: v1.steps[i] })),
  extra: EXTRA.map((step, i) => ({ name: step.name, v03: v03.extra[i], v1: v1.extra[i] })),
};
writeFileSync(new URL("../fixtures/rest-sdk.json", import.meta.url), `${JSON.stringify(fixture, null, 1)}\n`);
process.stdout.write(`${fixture.steps.length} + ${fixture.extra.length} steps\n`);
