// Mastra's own A2A client (@mastra/client-js), as a Mastra user points it at an agent: `getA2A(agentId)` (A2A
// 0.3 methods) and `getA2AV1(agentId)` (1.0), each reading the card and calling through Mastra's paths
// (`<apiPrefix>/.well-known/<agentId>/agent-card.json`, `POST <apiPrefix>/a2a/<agentId>`). Prints one JSON
// line: per step what it got, or the error it threw (a framework may lack a generation).
// Usage: node test/peers/mastra-client.mjs <baseUrl> <agentId> [apiPrefix, default Mastra's /api]
import { randomUUID } from "node:crypto";
import { MastraClient } from "@mastra/client-js";
import { SendMessageRequest } from "@mastra/core/a2a/v1";

const [baseUrl, agentId, apiPrefix] = process.argv.slice(2);
const client = new MastraClient({ baseUrl, retries: 0, ...(apiPrefix === undefined ? {} : { apiPrefix }) });
const collect = async (events) => {
  const all = [];
  for await (const event of events) all.push(event);
  return all;
};
const steps = {};
const step = async (name, run) => {
  try {
    steps[name] = { ok: await run() };
  } catch (error) {
    steps[name] = { error: String(error?.message ?? error).slice(0, 500) };
  }
};

const v03 = client.getA2A(agentId);
const message03 = (text) => ({ message: { kind: "message", messageId: randomUUID(), role: "user", parts: [{ kind: "text", text }] } });
await step("card03", async () => {
  const card = await v03.getAgentCard();
  return { name: card.name, url: card.url };
});
await step("sent03", () => v03.sendMessage(message03("hello mastra 0.3")));
await step("streamed03", () => collect(v03.sendMessageStream(message03("stream mastra 0.3"))));

const v1 = client.getA2AV1(agentId);
const message1 = (text) => SendMessageRequest.fromJSON({ message: { messageId: randomUUID(), role: "ROLE_USER", parts: [{ text }] } });
await step("card1", async () => {
  const card = await v1.getAgentCard();
  return { name: card.name, interfaces: card.supportedInterfaces.map((i) => i.url) };
});
await step("sent1", () => v1.sendMessage(message1("hello mastra 1.0")));
await step("streamed1", () => collect(v1.sendMessageStream(message1("stream mastra 1.0"))));

process.stdout.write(`${JSON.stringify(steps)}\n`);
