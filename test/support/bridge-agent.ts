// The agent of the bridge scenario (test/support/bridge-scenario.ts): an
// @a2a-js/sdk 1.3 executor whose every answer is fixed but the ids the SDK
// makes up, and its card. Played over JSON-RPC by capture-bridge.ts and over
// HTTP+JSON (REST) by capture-rest.ts.
import { type AgentCard, type Message, type Part, Role, TaskState } from "@a2a-js/sdk";
import { AgentEvent, type AgentExecutor, type ExecutionEventBus, type RequestContext } from "@a2a-js/sdk/server";

const AT = "2026-01-02T03:04:05.000Z";
const none = { metadata: undefined, filename: "", mediaType: "" };
const text = (value: string): Part => ({ ...none, content: { $case: "text", value } });
const data = (value: unknown): Part => ({ ...none, content: { $case: "data", value } });

function agentMessage(ctx: RequestContext, messageId: string, parts: Part[]): Message {
  const { taskId, contextId } = ctx;
  return { messageId, contextId, taskId, role: Role.ROLE_AGENT, parts, metadata: undefined, extensions: [], referenceTaskIds: [] };
}

/** "stream": a task through every kind of event; "input": a task that needs input; "message": a bare reply. */
export class ScenarioExecutor implements AgentExecutor {
  cancelTask = async (): Promise<void> => {};

  execute = async (ctx: RequestContext, bus: ExecutionEventBus): Promise<void> => {
    const { taskId, contextId, userMessage } = ctx;
    const word = userMessage.parts[0]?.content?.$case === "text" ? userMessage.parts[0].content.value : "";
    if (word === "message") {
      bus.publish(AgentEvent.message({ ...agentMessage(ctx, "msg-agent-reply", [text("a reply, no task")]), taskId: "" }));
      return;
    }
    const status = (state: TaskState, message?: Message) =>
      AgentEvent.statusUpdate({ taskId, contextId, status: { state, message, timestamp: AT }, metadata: undefined });
    const task = { id: taskId, contextId, artifacts: [], history: [userMessage], metadata: { origin: "sdk" } };
    bus.publish(AgentEvent.task({ ...task, status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: AT } }));
    if (word === "input") {
      bus.publish(status(TaskState.TASK_STATE_INPUT_REQUIRED, agentMessage(ctx, "msg-agent-ask", [text("which one?")])));
      return;
    }
    bus.publish(status(TaskState.TASK_STATE_WORKING, agentMessage(ctx, "msg-agent-working", [text("working"), data([1, 2, 3])])));
    const artifact = { artifactId: "artifact-1", name: "result", description: "The result.", metadata: undefined, extensions: [] };
    const chunk = { taskId, contextId, metadata: { chunk: 1 } };
    const file = { metadata: undefined, filename: "report.pdf", mediaType: "application/pdf" };
    bus.publish(
      AgentEvent.artifactUpdate({
        ...chunk,
        artifact: {
          ...artifact,
          parts: [text("part one"), { ...file, content: { $case: "url", value: "https://files.example.com/r.pdf" } }],
        },
        append: false,
        lastChunk: false,
      }),
    );
    bus.publish(
      AgentEvent.artifactUpdate({
        ...chunk,
        artifact: { ...artifact, parts: [{ ...file, content: { $case: "raw", value: Buffer.from("%PDF-1.7") } }, data({ total: 2 })] },
        append: true,
        lastChunk: true,
      }),
    );
    bus.publish(status(TaskState.TASK_STATE_COMPLETED, agentMessage(ctx, "msg-agent-done", [text("done")])));
  };
}

export function agentCard(): AgentCard {
  return {
    name: "Bridge Scenario Agent",
    description: "Answers the bridge scenario.",
    supportedInterfaces: [{ url: "http://127.0.0.1/", protocolBinding: "JSONRPC", tenant: "", protocolVersion: "1.0" }],
    provider: undefined,
    version: "1.0.0",
    capabilities: { streaming: true, pushNotifications: true, extensions: [], extendedAgentCard: false },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ["text/plain"],
    defaultOutputModes: ["text/plain"],
    skills: [],
    signatures: [],
  };
}
