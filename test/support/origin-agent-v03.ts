// A real A2A 0.3-only origin agent, built on @a2a-js/sdk 0.3.14 (the `a2a-sdk-03`
// alias), for end-to-end tests of the version bridge: what a 1.0
// caller reaches through the edge when the origin has never heard of 1.0.
//
// - Agent card (0.3) at /.well-known/agent-card.json; JSON-RPC at / with the 0.3
//   methods only (a 1.0 method such as SendMessage gets -32601 from the SDK).
// - The same echo executor as origin-agent.ts, in 0.3 shapes: "T" → "echo: T", a
//   Task first, then (spaced by `streamDelayMs`, after `hold` lets go) a working
//   status-update, an artifact-update and a completed status-update (`final`).
//   tasks/cancel ends a running task at once; `messageReply` texts get one Message.
// - The extended card (agent/getAuthenticatedExtendedCard) lists one more skill.
// - Every JSON-RPC POST is recorded (method, lower-cased headers, raw body) before
//   the SDK handles it.
//
// In-process only: `const agent = await startOriginAgentV03({ streamDelayMs: 20 })`.
import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { AgentCard, AgentSkill, Message, TaskState } from "a2a-sdk-03";
import {
  type AgentExecutor,
  DefaultRequestHandler,
  type ExecutionEventBus,
  InMemoryTaskStore,
  type RequestContext,
} from "a2a-sdk-03/server";
import { agentCardHandler, jsonRpcHandler, UserBuilder } from "a2a-sdk-03/server/express";
import express, { type NextFunction, type Request, type Response } from "express";
import { outlastClients } from "./keep-alive";
import { EXTENDED_SKILL_ID, flattenHeaders, type RecordedRequest } from "./origin-agent";

export const ORIGIN_V03_AGENT_NAME = "Origin Echo Agent 0.3";

export interface OriginAgentV03 {
  /** The JSON-RPC endpoint and agent base URL, e.g. http://127.0.0.1:PORT/ */
  url: string;
  port: number;
  /** Every JSON-RPC POST (to /) in arrival order, recorded before the SDK. */
  requests: RecordedRequest[];
  /** Closes the server and every open connection; resolves once closed. */
  stop(): Promise<void>;
}

export interface OriginAgentV03Options {
  /** Gap between the events after the initial Task. Default 200. */
  streamDelayMs?: number;
  /** Called with the user's text once the Task is published; a promise holds the rest until it resolves. */
  hold?: (text: string) => Promise<void> | undefined;
  /** When it returns true for the user's text, the agent answers with one Message ("echo: T") instead of a task. */
  messageReply?: (text: string) => boolean;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function textOf(message: Message | undefined): string {
  return (message?.parts ?? []).map((part) => (part.kind === "text" ? part.text : "")).join("");
}

function agentMessage(text: string, contextId: string, taskId?: string): Message {
  return {
    kind: "message",
    messageId: randomUUID(),
    role: "agent",
    parts: [{ kind: "text", text }],
    contextId,
    ...(taskId ? { taskId } : {}),
  };
}

class EchoExecutorV03 implements AgentExecutor {
  private readonly canceled = new Set<string>();
  /** The context of each running task (its canceled status names it). */
  private readonly contexts = new Map<string, string>();

  constructor(private readonly options: OriginAgentV03Options) {}

  /** The task ends canceled at once, even while held: its execution publishes nothing more. */
  cancelTask = async (taskId: string, bus: ExecutionEventBus): Promise<void> => {
    this.canceled.add(taskId);
    const contextId = this.contexts.get(taskId) ?? "";
    bus.publish({
      kind: "status-update",
      taskId,
      contextId,
      status: { state: "canceled", timestamp: new Date().toISOString() },
      final: true,
    });
    bus.finished();
  };

  execute = async (ctx: RequestContext, bus: ExecutionEventBus): Promise<void> => {
    const { taskId, contextId } = ctx;
    const text = textOf(ctx.userMessage);
    const reply = `echo: ${text}`;
    const delay = this.options.streamDelayMs ?? 200;
    if (this.options.messageReply?.(text)) {
      bus.publish(agentMessage(reply, contextId));
      bus.finished();
      return;
    }
    const now = () => new Date().toISOString();
    const status = (state: TaskState, final: boolean, message?: Message) =>
      bus.publish({
        kind: "status-update",
        taskId,
        contextId,
        status: { state, timestamp: now(), ...(message ? { message } : {}) },
        final,
      });
    this.contexts.set(taskId, contextId);
    try {
      bus.publish({
        kind: "task",
        id: taskId,
        contextId,
        status: { state: "submitted", timestamp: now() },
        history: [...(ctx.task?.history ?? []), ctx.userMessage],
        artifacts: ctx.task?.artifacts ?? [],
      });
      await this.options.hold?.(text);
      await sleep(delay);
      if (this.canceled.has(taskId)) return;
      status("working", false, agentMessage("working", contextId, taskId));
      await sleep(delay);
      if (this.canceled.has(taskId)) return;
      bus.publish({
        kind: "artifact-update",
        taskId,
        contextId,
        artifact: { artifactId: `${taskId}-echo`, name: "echo", description: "The echoed text.", parts: [{ kind: "text", text: reply }] },
        append: false,
        lastChunk: true,
      });
      await sleep(delay);
      if (this.canceled.has(taskId)) return;
      status("completed", true, agentMessage(reply, contextId, taskId));
      bus.finished();
    } finally {
      this.canceled.delete(taskId);
      this.contexts.delete(taskId);
    }
  };
}

const echoSkill: AgentSkill = {
  id: "echo",
  name: "Echo",
  description: "Replies with the text it was sent, prefixed with 'echo: '.",
  tags: ["echo", "test"],
  examples: ["hello"],
  inputModes: ["text/plain"],
  outputModes: ["text/plain"],
};

const extendedSkill: AgentSkill = {
  id: EXTENDED_SKILL_ID,
  name: "Extended Echo",
  description: "Only listed on the authenticated extended card.",
  tags: ["echo", "extended"],
  inputModes: ["text/plain"],
  outputModes: ["text/plain"],
};

function originAgentCardV03(url: string): AgentCard {
  return {
    name: ORIGIN_V03_AGENT_NAME,
    description: "A private A2A 0.3 origin agent that echoes text, for end-to-end tests.",
    url,
    preferredTransport: "JSONRPC",
    protocolVersion: "0.3.0",
    provider: { organization: "agent-card-edge tests", url: "https://example.com/" },
    version: "1.0.0",
    capabilities: { streaming: true, pushNotifications: false },
    supportsAuthenticatedExtendedCard: true,
    defaultInputModes: ["text/plain"],
    defaultOutputModes: ["text/plain"],
    skills: [echoSkill],
  };
}

export async function startOriginAgentV03(options: OriginAgentV03Options = {}): Promise<OriginAgentV03> {
  const requests: RecordedRequest[] = [];
  const server: Server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    outlastClients(server).listen(0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}/`;

  const card = originAgentCardV03(url);
  const extendedCard: AgentCard = { ...card, skills: [echoSkill, extendedSkill] };
  // A provider function is used whatever the user (a plain card would go to authenticated users only).
  const handler = new DefaultRequestHandler(
    card,
    new InMemoryTaskStore(),
    new EchoExecutorV03(options),
    undefined,
    undefined,
    undefined,
    async () => structuredClone(extendedCard),
  );

  const app = express();
  app.use("/.well-known/agent-card.json", agentCardHandler({ agentCardProvider: handler }));
  // Record the raw body, then hand the SDK the parsed JSON (its express.json() leaves a read body alone).
  app.post("/", express.raw({ type: () => true, limit: "10mb" }), (req: Request, _res: Response, next: NextFunction) => {
    const rawBody = Buffer.isBuffer(req.body) ? req.body.toString("utf8") : "";
    let parsed: unknown;
    try {
      parsed = JSON.parse(rawBody);
    } catch {
      parsed = undefined;
    }
    const method = (parsed as { method?: unknown } | undefined)?.method;
    requests.push({ method: typeof method === "string" ? method : "", headers: flattenHeaders(req.headers), rawBody });
    req.body = parsed;
    next();
  });
  app.use(jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
  server.on("request", app);

  let stopping: Promise<void> | undefined;
  return {
    url,
    port,
    requests,
    stop() {
      stopping ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return stopping;
    },
  };
}
