// Real payloads for the bridge tests (test/worker/bridge-sdk.test.ts): one
// scenario of calls, each made once in 0.3 and once in 1.0 to the same kind of
// @a2a-js/sdk 1.3 agent in process (its JsonRpcTransportHandler for 1.0, its
// LegacyJsonRpcTransportHandler for 0.3), with everything the SDK answered:
// results, errors, every stream event. The ids the SDK makes up (task and
// context ids, random UUIDs) become id-1, id-2, ... in order of appearance;
// everything else the agent writes is fixed.
//   npm run bridge:fixtures   (rewrites test/fixtures/bridge-sdk.json)
import { writeFileSync } from "node:fs";
import { LegacyJsonRpcTransportHandler } from "@a2a-js/sdk/compat/v0_3/server";
import { DefaultRequestHandler, InMemoryTaskStore, JsonRpcTransportHandler, ServerCallContext } from "@a2a-js/sdk/server";
import { agentCard, ScenarioExecutor } from "./bridge-agent";
import { BRIDGE_SCENARIO, type BridgeStep } from "./bridge-scenario";

type Handler = { handle(body: unknown, context: ServerCallContext): Promise<unknown> };
type ErrorMapper = (error: unknown) => unknown;

/** A stream's events; an error before the first event is a plain error response, after it an error event (as the SDK's express handler does). */
async function collect(answer: unknown, id: number, mapError: ErrorMapper): Promise<unknown> {
  if (answer === null || typeof answer !== "object" || !(Symbol.asyncIterator in answer)) return answer;
  const events: unknown[] = [];
  try {
    for await (const event of answer as AsyncIterable<unknown>) events.push(event);
  } catch (error) {
    const response = { jsonrpc: "2.0", id, error: mapError(error) };
    if (events.length === 0) return response;
    events.push(response);
  }
  return events;
}

/** Runs the scenario in one generation; `{{id-N}}` in a request is the N-th id seen so far. */
async function run(generation: "v03" | "v1"): Promise<unknown[]> {
  const handler = new DefaultRequestHandler(agentCard(), new InMemoryTaskStore(), new ScenarioExecutor());
  const transport: Handler = generation === "v1" ? new JsonRpcTransportHandler(handler) : new LegacyJsonRpcTransportHandler(handler);
  const mapError: ErrorMapper =
    generation === "v1" ? JsonRpcTransportHandler.mapToJSONRPCError : LegacyJsonRpcTransportHandler.mapToLegacyJSONRPCError;
  const ids: string[] = [];
  const answers: unknown[] = [];
  for (const [index, step] of BRIDGE_SCENARIO.entries()) {
    const body = JSON.parse(JSON.stringify(request(step, generation)).replace(/\{\{id-(\d)\}\}/g, (_, n) => ids[Number(n) - 1] ?? ""));
    const context = new ServerCallContext({ requestedVersion: generation === "v1" ? "1.0" : "0.3" });
    const answer = JSON.stringify(
      await collect(await transport.handle({ jsonrpc: "2.0", id: index + 1, ...body }, context), index + 1, mapError),
    );
    for (const [id] of answer.matchAll(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g))
      if (!ids.includes(id)) ids.push(id);
    answers.push(JSON.parse(ids.reduce((text, id, i) => text.replaceAll(id, `id-${i + 1}`), answer)));
  }
  return answers;
}

const request = (step: BridgeStep, generation: "v03" | "v1") => step[generation];

const [v03, v1] = [await run("v03"), await run("v1")];
const steps = BRIDGE_SCENARIO.map((step, i) => ({
  name: step.name,
  request: { v03: step.v03, v1: step.v1 },
  response: { v03: v03[i], v1: v1[i] },
}));
writeFileSync(new URL("../fixtures/bridge-sdk.json", import.meta.url), `${JSON.stringify(steps, null, 1)}\n`);
process.stdout.write(`${steps.length} steps\n`);
