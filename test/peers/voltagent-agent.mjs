// A VoltAgent agent served by VoltAgent's own A2A server (@voltagent/a2a-server
// on @voltagent/server-hono: @a2a-js/sdk 0.2 era), as an origin behind the
// edge. No LLM and no network: the AI SDK's MockLanguageModelV3 answers "T"
// with "echo: T" (streamed in three deltas). NODE_ENV=production, or VoltAgent
// fetches a model list at start. Card at /.well-known/echo/agent-card.json,
// JSON-RPC at /a2a/echo. Prints `READY <port>` once listening on 127.0.0.1.
//   NODE_ENV=production node test/peers/voltagent-agent.mjs <port>
import { A2AServer } from "@voltagent/a2a-server";
import { Agent, VoltAgent } from "@voltagent/core";
import { honoServer } from "@voltagent/server-hono";
import { MockLanguageModelV3, simulateReadableStream } from "ai/test";

const port = Number(process.argv[2]);
const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 2, text: 2, reasoning: 0 },
};
const finishReason = { unified: "stop", raw: "stop" };

/** The text of the last user message of a prompt (LanguageModelV3Prompt). */
function lastUserText(prompt) {
  const user = prompt.filter((message) => message.role === "user").at(-1);
  return (user?.content ?? []).map((part) => (part.type === "text" ? part.text : "")).join("");
}

const model = new MockLanguageModelV3({
  doGenerate: async ({ prompt }) => ({
    content: [{ type: "text", text: `echo: ${lastUserText(prompt)}` }],
    finishReason,
    usage,
    warnings: [],
  }),
  doStream: async ({ prompt }) => ({
    stream: simulateReadableStream({
      chunkDelayInMs: 20,
      chunks: [
        { type: "stream-start", warnings: [] },
        { type: "text-start", id: "t" },
        { type: "text-delta", id: "t", delta: "echo" },
        { type: "text-delta", id: "t", delta: ": " },
        { type: "text-delta", id: "t", delta: lastUserText(prompt) },
        { type: "text-end", id: "t" },
        { type: "finish", finishReason, usage },
      ],
    }),
  }),
});

const echo = new Agent({
  id: "echo",
  name: "echo",
  purpose: "Echoes what it is told (VoltAgent, mock model).",
  instructions: "Echo.",
  model,
});
new VoltAgent({
  agents: { echo },
  a2aServers: { echo: new A2AServer({ name: "echo", version: "1.0.0" }) },
  server: honoServer({ port, hostname: "127.0.0.1", enableSwaggerUI: false }),
});
// VoltAgent prints its own banner; wait until the port answers, then say so.
for (let i = 0; i < 200; i++) {
  try {
    await fetch(`http://127.0.0.1:${port}/.well-known/echo/agent-card.json`);
    process.stdout.write(`READY ${port}\n`);
    break;
  } catch {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
for (const signal of ["SIGTERM", "SIGINT"]) process.on(signal, () => process.exit(0));
