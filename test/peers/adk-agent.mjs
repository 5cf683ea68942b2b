// A Google ADK agent served by ADK's own A2A server (toA2a: @a2a-js/sdk 0.3
// inside), as an origin behind the edge. No LLM and no network: a custom
// BaseAgent answers "T" with "echo: T", streamed in two partial events then a
// final one. Card at /.well-known/agent-card.json, JSON-RPC at /jsonrpc, REST at
// /rest. Prints `READY <port>` once listening on 127.0.0.1.
//   node test/peers/adk-agent.mjs <port>
import { BaseAgent, createEvent } from "@google/adk";
import { toA2a } from "@google/adk/a2a";

class EchoAgent extends BaseAgent {
  async *runAsyncImpl(context) {
    const text = (context.userContent?.parts ?? []).map((part) => part.text ?? "").join("");
    const reply = `echo: ${text}`;
    const half = Math.ceil(reply.length / 2);
    for (const [chunk, partial] of [
      [reply.slice(0, half), true],
      [reply.slice(half), true],
      [reply, false],
    ]) {
      yield createEvent({
        invocationId: context.invocationId,
        author: this.name,
        branch: context.branch,
        partial,
        content: { role: "model", parts: [{ text: chunk }] },
      });
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  async *runLiveImpl(context) {
    yield* this.runAsyncImpl(context);
  }
}

const agent = new EchoAgent({ name: "adk_echo_agent", description: "Echoes what it is told (Google ADK, no model)." });
const port = Number(process.argv[2]);
const app = await toA2a(agent, { host: "127.0.0.1", port, allowUnauthenticated: true });
app.listen(port, "127.0.0.1", () => process.stdout.write(`READY ${port}\n`));
for (const signal of ["SIGTERM", "SIGINT"]) process.on(signal, () => process.exit(0));
