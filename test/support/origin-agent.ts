// A real A2A origin agent (built on @a2a-js/sdk) for end-to-end tests of the edge.
//
// - Agent card at /.well-known/agent-card.json (v1.0 card, or the v0.3 hybrid card
//   when the request carries no A2A-Version header / A2A-Version: 0.3).
// - JSON-RPC at / for both protocol versions (A2A-Version: 1.0 → v1.0 methods such as
//   SendMessage; no header / 0.3 → v0.3 methods such as message/send); with `onlyV1`,
//   1.0 alone (the SDK's legacyCompat off: a call without A2A-Version, read as 0.3,
//   gets -32009; a 0.3 method sent as 1.0 gets -32601).
// - An echo executor ("count N": N events, numbered: the Task, artifact chunks "event 2" ..., a completed
//   status "event N"): "T" → "echo: T", publishing a Task first and then, spaced by
//   `streamDelayMs`, a working status-update, an artifact-update and a completed
//   status-update, so that streaming through a proxy can be observed. With `hold`,
//   the events after the Task wait until the test lets them go: a client that sees
//   the Task before that has proof that nothing in between buffers the stream.
//   CancelTask ends a running task at once (held or not): a canceled status-update,
//   nothing after it. With `messageReply`, chosen texts get one Message, no task.
// - Every JSON-RPC POST is recorded (method, lower-cased headers, raw body) before the
//   SDK handles it; streams the client hung up on are counted.
// - After `trustEdge({ jwksUrl, issuer })`, every JSON-RPC POST must carry an
//   A2A-Caller-Assertion that jose verifies against the edge's JWKS (else 403, with
//   a message saying why: caller-assertion.ts); the verified claims are recorded
//   with the request.
//
// In-process: `const agent = await startOriginAgent({ streamDelayMs: 100 })`.
// As a process: `node_modules/.bin/tsx test/support/origin-agent.ts --port N [--delay MS] [--auth "Bearer x"]`
// prints `origin-agent listening <url>` and runs until SIGTERM.
import { randomUUID } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type AgentCard, type AgentSkill, type Message, type Part, Role, TaskState } from "@a2a-js/sdk";
import {
  AgentEvent,
  type AgentExecutor,
  DefaultPushNotificationSender,
  DefaultRequestHandler,
  type ExecutionEventBus,
  InMemoryPushNotificationStore,
  InMemoryTaskStore,
  type RequestContext,
} from "@a2a-js/sdk/server";
import { agentCardHandler, jsonRpcHandler, restHandler, UserBuilder } from "@a2a-js/sdk/server/express";
import express, { type NextFunction, type Request, type Response } from "express";
import { createRemoteJWKSet, type JWTPayload } from "jose";
import { checkAssertion, describeRefusal, type Refusal, type TrustedEdge } from "./caller-assertion";
import { outlastClients } from "./keep-alive";
import { isMain } from "./processes";

export interface RecordedRequest {
  /** JSON-RPC method from the parsed body ("" when the body is not a JSON-RPC request object). */
  method: string;
  /** All request headers, names lower-cased (repeated headers joined with ", "). */
  headers: Record<string, string>;
  /** The request body exactly as received (after any Content-Encoding is undone), as UTF-8. */
  rawBody: string;
  /** Once the agent trusts an edge: the verified claims of the request's A2A-Caller-Assertion. */
  assertion?: JWTPayload;
  /** Why the request was refused (403), if it was. */
  refusal?: Refusal;
}

export interface OriginAgent {
  /** The JSON-RPC endpoint and agent base URL, e.g. http://127.0.0.1:PORT/ */
  url: string;
  port: number;
  /** Every JSON-RPC POST (to /) in arrival order, recorded before auth checks and the SDK. */
  requests: RecordedRequest[];
  /** How many SSE responses were closed by the client before the server ended them. */
  streamsClosedEarly: () => number;
  /**
   * From now on every JSON-RPC POST must carry an A2A-Caller-Assertion that verifies
   * (jose) against the edge's JWKS, with the edge as issuer (or, with `paths`, one of
   * its agents by path) and this agent's URL as audience; otherwise 403. The way a
   * real origin trusts who called.
   */
  trustEdge(edge: TrustedEdge): void;
  /** Closes the server and every open connection; resolves once closed. */
  stop(): Promise<void>;
}

export interface OriginAgentOptions {
  /** Default 0 (ephemeral). Always bound to 127.0.0.1. */
  port?: number;
  /** Gap between the events after the initial Task. Default 200. */
  streamDelayMs?: number;
  /** If set, JSON-RPC POSTs whose Authorization header is not exactly this get HTTP 403. */
  requiredAuthorization?: string;
  /**
   * Called with the user's text once the Task event is published; when it returns
   * a promise, the remaining events wait for it.
   */
  hold?: (text: string) => Promise<void> | undefined;
  /** When it returns true for the user's text, the agent answers with one Message ("echo: T") instead of a task. */
  messageReply?: (text: string) => boolean;
  /**
   * A 1.0-only agent: `legacyCompat` off for the card and the JSON-RPC handler, so a
   * 0.3 call gets -32009 (no A2A-Version) or -32601 (a 0.3 method sent as 1.0), and
   * the card lists only the 1.0 interface. Default false.
   */
  onlyV1?: boolean;
  /** Also serve the HTTP+JSON (REST) binding under this path (e.g. "/rest"), with @a2a-js/sdk's restHandler (1.0 routes). */
  restPath?: string;
  /**
   * Support push notifications: configs kept in the SDK's InMemoryPushNotificationStore, task updates POSTed
   * to each config's URL by its DefaultPushNotificationSender (as an origin does, from its own network).
   */
  push?: boolean;
  /** With `push`: told of every push notification config the agent stores (npm run origin prints them). */
  onPushConfig?: (taskId: string, url: string) => void;
  /** Told of every JSON-RPC POST once its checks are done, with why it got 403 if it did (npm run origin prints each call). */
  onCall?: (request: RecordedRequest, refusal?: Refusal) => void;
  /** The JSON-RPC error message of a refusal. Default: `origin agent refused <describeRefusal>`. */
  refusalMessage?: (refusal: Refusal) => string;
}

export const ORIGIN_AGENT_NAME = "Origin Echo Agent";
const CARD_PATH = "/.well-known/agent-card.json";
/** The skill only present on the extended card. */
export const EXTENDED_SKILL_ID = "echo-extended";

const BODY_LIMIT = "10mb";

function textPart(text: string): Part {
  return { content: { $case: "text", value: text }, metadata: undefined, filename: "", mediaType: "text/plain" };
}

function agentMessage(text: string, taskId: string, contextId: string): Message {
  return {
    messageId: randomUUID(),
    contextId,
    taskId,
    role: Role.ROLE_AGENT,
    parts: [textPart(text)],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

/** All text parts of a message (or artifact), concatenated. */
export function messageText(message: { parts: Part[] } | undefined): string {
  return (message?.parts ?? []).map((p) => (p.content?.$case === "text" ? p.content.value : "")).join("");
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

class EchoExecutor implements AgentExecutor {
  private readonly canceled = new Set<string>();
  /** The context of each running task (its canceled status names it). */
  private readonly contexts = new Map<string, string>();

  constructor(
    private readonly delayMs: number,
    private readonly hold?: (text: string) => Promise<void> | undefined,
    private readonly messageReply?: (text: string) => boolean,
  ) {}

  /** The task ends canceled at once, even while held: its execution publishes nothing more. */
  cancelTask = async (taskId: string, bus: ExecutionEventBus): Promise<void> => {
    this.canceled.add(taskId);
    bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId: this.contexts.get(taskId) ?? "",
        status: { state: TaskState.TASK_STATE_CANCELED, message: undefined, timestamp: new Date().toISOString() },
        metadata: undefined,
      }),
    );
  };

  execute = async (ctx: RequestContext, bus: ExecutionEventBus): Promise<void> => {
    const { taskId, contextId } = ctx;
    const text = messageText(ctx.userMessage);
    const reply = `echo: ${text}`;
    if (this.messageReply?.(text)) {
      bus.publish(AgentEvent.message(agentMessage(reply, "", contextId)));
      return;
    }
    const now = () => new Date().toISOString();
    const status = (state: TaskState, message?: Message) =>
      AgentEvent.statusUpdate({ taskId, contextId, status: { state, message, timestamp: now() }, metadata: undefined });
    const canceled = () => this.canceled.has(taskId);
    this.contexts.set(taskId, contextId);
    try {
      // Every execution must start with a Task (or Message) event.
      bus.publish(
        AgentEvent.task({
          id: taskId,
          contextId,
          status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: now() },
          artifacts: ctx.task?.artifacts ?? [],
          history: [...(ctx.task?.history ?? []), ctx.userMessage],
          metadata: undefined,
        }),
      );
      await this.hold?.(text);
      const counted = /^count (\d{1,5})$/.exec(text);
      if (counted) {
        // "count N": N events in all, numbered in their text: the Task, N - 2 artifact chunks, the completed status.
        const total = Number(counted[1]);
        for (let n = 2; n < total; n++) {
          await sleep(this.delayMs);
          if (canceled()) return;
          const artifact = {
            artifactId: `${taskId}-count`,
            name: "count",
            description: "",
            parts: [textPart(`event ${n}`)],
            metadata: undefined,
            extensions: [],
          };
          bus.publish(AgentEvent.artifactUpdate({ taskId, contextId, artifact, append: n > 2, lastChunk: false, metadata: undefined }));
        }
        await sleep(this.delayMs);
        if (!canceled()) bus.publish(status(TaskState.TASK_STATE_COMPLETED, agentMessage(`event ${total}`, taskId, contextId)));
        return;
      }
      await sleep(this.delayMs);
      if (canceled()) return;
      bus.publish(status(TaskState.TASK_STATE_WORKING, agentMessage("working", taskId, contextId)));
      await sleep(this.delayMs);
      if (canceled()) return;
      bus.publish(
        AgentEvent.artifactUpdate({
          taskId,
          contextId,
          artifact: {
            artifactId: `${taskId}-echo`,
            name: "echo",
            description: "The echoed text.",
            parts: [textPart(reply)],
            metadata: undefined,
            extensions: [],
          },
          append: false,
          lastChunk: true,
          metadata: undefined,
        }),
      );
      await sleep(this.delayMs);
      if (canceled()) return;
      bus.publish(status(TaskState.TASK_STATE_COMPLETED, agentMessage(reply, taskId, contextId)));
    } finally {
      this.canceled.delete(taskId);
      this.contexts.delete(taskId);
    }
  };
}

/** The SDK's in-memory store, telling `onSave` of every config it stores: the SDK has no hook for it. */
class ReportingPushStore extends InMemoryPushNotificationStore {
  constructor(private readonly onSave?: (taskId: string, url: string) => void) {
    super();
  }

  override async save(...args: Parameters<InMemoryPushNotificationStore["save"]>): Promise<void> {
    await super.save(...args);
    this.onSave?.(args[0], args[2].url);
  }
}

const echoSkill: AgentSkill = {
  id: "echo",
  name: "Echo",
  description: "Replies with the text it was sent, prefixed with 'echo: '.",
  tags: ["echo", "test"],
  examples: ["hello"],
  inputModes: ["text/plain"],
  outputModes: ["text/plain"],
  securityRequirements: [],
};

const extendedSkill: AgentSkill = {
  id: EXTENDED_SKILL_ID,
  name: "Extended Echo",
  description: "Only listed on the authenticated extended card.",
  tags: ["echo", "extended"],
  examples: [],
  inputModes: ["text/plain"],
  outputModes: ["text/plain"],
  securityRequirements: [],
};

/** The agent's card; `onlyV1`: its 1.0 interface alone. */
export function originAgentCard(url: string, onlyV1 = false, restUrl?: string): AgentCard {
  return {
    name: ORIGIN_AGENT_NAME,
    description: "A private A2A origin agent that echoes text, for end-to-end tests.",
    supportedInterfaces: [
      { url, protocolBinding: "JSONRPC", tenant: "", protocolVersion: "1.0" },
      ...(onlyV1 ? [] : [{ url, protocolBinding: "JSONRPC", tenant: "", protocolVersion: "0.3" }]),
      // restHandler serves the versions the card lists for HTTP+JSON.
      ...(restUrl ? [{ url: restUrl, protocolBinding: "HTTP+JSON", tenant: "", protocolVersion: "1.0" }] : []),
    ],
    provider: { organization: "agent-card-edge tests", url: "https://example.com/" },
    version: "1.0.0",
    capabilities: { streaming: true, pushNotifications: false, extensions: [], extendedAgentCard: true },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ["text/plain"],
    defaultOutputModes: ["text/plain"],
    skills: [echoSkill],
    signatures: [],
  };
}

export function flattenHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}

export async function startOriginAgent(options: OriginAgentOptions = {}): Promise<OriginAgent> {
  const delayMs = options.streamDelayMs ?? 200;
  const requests: RecordedRequest[] = [];
  let closedEarly = 0;

  // Listen first: the card has to name the real port.
  const server: Server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    outlastClients(server).listen(options.port ?? 0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}/`;

  const legacyCompat = { enabled: !options.onlyV1 };
  const baseCard = originAgentCard(url, options.onlyV1, options.restPath ? `${url}${options.restPath.replace(/^\//, "")}` : undefined);
  const card: AgentCard = options.push
    ? { ...baseCard, capabilities: { streaming: true, pushNotifications: true, extensions: [], extendedAgentCard: true } }
    : baseCard;
  const pushStore = options.push ? new ReportingPushStore(options.onPushConfig) : undefined;
  const extendedCard: AgentCard = { ...card, skills: [echoSkill, extendedSkill] };
  const requestHandler = new DefaultRequestHandler(
    card,
    new InMemoryTaskStore(),
    new EchoExecutor(delayMs, options.hold, options.messageReply),
    undefined, // event bus manager
    pushStore,
    pushStore ? new DefaultPushNotificationSender(pushStore, { timeout: 2000 }) : undefined,
    // A provider function is used whatever the user; a plain card would only be
    // returned to authenticated users (and UserBuilder.noAuthentication never is).
    async () => extendedCard,
  );

  const app = express();
  app.use(CARD_PATH, agentCardHandler({ agentCardProvider: requestHandler, legacyCompat }));

  // Read the raw body of every JSON-RPC POST, record it, check auth, then hand the SDK
  // the parsed JSON. The SDK's own express.json() sees a consumed stream and leaves
  // req.body alone.
  let trusted: { edge: TrustedEdge; keys: ReturnType<typeof createRemoteJWKSet> } | undefined;
  // 403, not 401: the edge passes a JSON-RPC origin's status (and WWW-Authenticate) on to the caller
  // (src/call/reply.ts), whose client reads a 401 as its own token refused (RFC 9110 §15.5.2) and fetches another,
  // in vain: what this origin checks is the edge's credential (ORIGIN_HEADERS) and assertion, and even a caller's
  // token forwarded in their place (an edge without ORIGIN_HEADERS) is refused whichever token it is. A 403 is a
  // refusal that the caller's credentials do not change (§15.5.4).
  const refuse = (res: Response, recorded: RecordedRequest, id: string | number | null, refusal: Refusal) => {
    recorded.refusal = refusal;
    options.onCall?.(recorded, refusal);
    const message = options.refusalMessage?.(refusal) ?? `origin agent refused ${describeRefusal(refusal)}`;
    res.status(403).json({ jsonrpc: "2.0", id, error: { code: -32600, message } });
  };
  app.post("/", express.raw({ type: () => true, limit: BODY_LIMIT }), async (req: Request, res: Response, next: NextFunction) => {
    const rawBody = Buffer.isBuffer(req.body) ? req.body.toString("utf8") : "";
    let parsed: unknown;
    let parseError = false;
    const trimmed = rawBody.trimStart();
    if (trimmed !== "") {
      try {
        parsed = JSON.parse(rawBody);
        // body-parser's json() is strict: only objects and arrays.
        if (!trimmed.startsWith("{") && !trimmed.startsWith("[")) parseError = true;
      } catch {
        parseError = true;
      }
    }
    const body = parsed !== null && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
    const recorded: RecordedRequest = {
      method: typeof body?.method === "string" ? body.method : "",
      headers: flattenHeaders(req.headers),
      rawBody,
    };
    requests.push(recorded);
    const id = body && (typeof body.id === "string" || typeof body.id === "number") ? body.id : null;

    if (trusted) {
      const viaEdge = recorded.headers["x-forwarded-host"] !== undefined;
      const checked = await checkAssertion(recorded.headers["a2a-caller-assertion"], trusted.edge, trusted.keys, url, viaEdge);
      if ("refusal" in checked) return refuse(res, recorded, id, checked.refusal);
      recorded.assertion = checked.claims;
    }

    if (options.requiredAuthorization !== undefined && req.headers.authorization !== options.requiredAuthorization)
      return refuse(res, recorded, id, { kind: "credential", sent: req.headers.authorization !== undefined });

    // What the SDK's express.json() would have produced: a parsed body for JSON content
    // types only, and its -32700 answer for unparseable JSON.
    const isJson = req.is("application/json") === "application/json";
    if (isJson && parseError) {
      res.status(200).json({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Invalid JSON payload." } });
      return;
    }
    req.body = isJson && trimmed !== "" ? parsed : undefined;
    options.onCall?.(recorded);

    res.on("close", () => {
      const sse = String(res.getHeader("content-type") ?? "").startsWith("text/event-stream");
      if (sse && !res.writableEnded) closedEarly++;
    });
    next();
  });
  if (options.restPath) app.use(options.restPath, restHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication }));
  app.use(jsonRpcHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication, legacyCompat }));

  server.on("request", app);

  let stopping: Promise<void> | undefined;
  return {
    url,
    port,
    requests,
    streamsClosedEarly: () => closedEarly,
    trustEdge(edge) {
      trusted = { edge, keys: createRemoteJWKSet(new URL(edge.jwksUrl)) };
    },
    stop() {
      stopping ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return stopping;
    },
  };
}

// --- CLI ---------------------------------------------------------------------------

function parseArgs(argv: string[]): OriginAgentOptions {
  const options: OriginAgentOptions = {};
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = argv[i + 1];
    if (value === undefined) throw new Error(`missing value for ${flag}`);
    i++;
    if (flag === "--port") options.port = Number(value);
    else if (flag === "--delay") options.streamDelayMs = Number(value);
    else if (flag === "--auth") options.requiredAuthorization = value;
    else throw new Error(`unknown option ${flag}`);
  }
  for (const [name, n] of [
    ["--port", options.port],
    ["--delay", options.streamDelayMs],
  ] as const) {
    if (n !== undefined && (!Number.isInteger(n) || n < 0)) throw new Error(`${name} must be a non-negative integer`);
  }
  return options;
}

if (isMain(import.meta.url)) {
  const agent = await startOriginAgent(parseArgs(process.argv.slice(2)));
  process.stdout.write(`origin-agent listening ${agent.url}\n`);
  const shutdown = () => {
    void agent.stop().then(() => process.exit(0));
  };
  process.once("SIGTERM", shutdown);
  process.once("SIGINT", shutdown);
}
