// The bridge in the worker: a caller of one A2A generation, an
// origin that speaks only the other. Every call of the scenario @a2a-js/sdk 1.3
// answered in both generations (test/fixtures/bridge-sdk.json) goes through
// the real pipeline: the origin must receive the other generation's call with
// its A2A-Version, and the caller must get the answer the SDK gives in the
// caller's generation (JSON, or SSE event by event).
import { describe, expect, it } from "vitest";
import type { RpcCall } from "../../src/bridge";
import fixture from "../fixtures/bridge-sdk.json";
import { asTheBridgeAnswers, withoutFalseFlags } from "../support/bridge-fixture";
import { schemaErrors } from "../support/schemas";
import { apiKeyCaller, callVia, fakeOrigin, makeEnv } from "../support/worker";

interface Step {
  name: string;
  request: { v03: RpcCall; v1: RpcCall };
  response: { v03: unknown; v1: unknown };
}
const steps: Step[] = fixture;
const PUBLIC = "https://agents.example.com";
const key = { "0.3": "v03", "1.0": "v1" } as const;
type Generation = keyof typeof key;

/** What an origin of that generation sends: one JSON envelope, or an SSE stream of them. */
function originAnswer(answer: unknown): Response {
  if (!Array.isArray(answer)) return Response.json(answer);
  const body = answer.map((envelope) => `data: ${JSON.stringify(envelope)}\n\n`).join("");
  return new Response(body, { headers: { "content-type": "text/event-stream" } });
}

/** The caller's answer: the JSON envelope, or the `data:` envelopes of the SSE stream. */
async function callerAnswer(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!response.headers.get("content-type")?.startsWith("text/event-stream")) return JSON.parse(text);
  // Every event's data (an `event: error` block too: a JSON error to a 0.3 stream goes out as one).
  return text
    .split("\n\n")
    .flatMap((block) => block.split("\n").filter((line) => line.startsWith("data: ")))
    .map((line) => JSON.parse(line.slice(6)));
}

const idOf = (answer: unknown) => (Array.isArray(answer) ? answer[0] : answer) as { id: number };

describe.each(steps)("through the worker: $name", (step) => {
  it.each([
    ["0.3", "1.0"],
    ["1.0", "0.3"],
  ] as const)("a %s caller, an origin that speaks only %s", async (callerVersion: Generation, originVersion: Generation) => {
    const [mine, theirs] = [key[callerVersion], key[originVersion]];
    const origin = fakeOrigin(() => originAnswer(step.response[theirs]));
    const caller = await apiKeyCaller(); // the extended card goes only to an authenticated caller
    const env = makeEnv({ ORIGIN_URL: "http://10.0.0.9/", ORIGIN_PROTOCOL_VERSIONS: originVersion, ...caller.env });
    const { id } = idOf(step.response[mine]);
    const response = await callVia(
      origin,
      `${PUBLIC}/`,
      {
        method: "POST",
        headers: { "content-type": "application/json", "A2A-Version": callerVersion, ...caller.headers },
        body: JSON.stringify({ jsonrpc: "2.0", id, ...step.request[mine] }),
      },
      env,
    );
    expect(origin.requests).toHaveLength(1);
    expect(origin.requests[0]!.headers.get("a2a-version")).toBe(originVersion);
    const sent = JSON.parse(new TextDecoder().decode(origin.bodies[0]));
    expect(sent).toEqual({ jsonrpc: "2.0", id, ...step.request[theirs] });
    expect(response.headers.get("a2a-version") ?? callerVersion).toBe(callerVersion);
    const expected = [step.response[mine]].flat().map((e) => asTheBridgeAnswers(e, callerVersion, step.request[mine].method));
    const actual = [await callerAnswer(response)].flat();
    expect(withoutFalseFlags(actual)).toEqual(withoutFalseFlags(expected));
  });
});

describe("what cannot be bridged", () => {
  it("answers 1.0 ListTasks for a 0.3-only origin with -32601 at the edge, and sends nothing", async () => {
    const origin = fakeOrigin(() => Response.json({}));
    const env = makeEnv({ ORIGIN_URL: "http://10.0.0.9/", ORIGIN_PROTOCOL_VERSIONS: "0.3", EDGE_AUTH: "off" });
    const response = await callVia(
      origin,
      `${PUBLIC}/`,
      {
        method: "POST",
        headers: { "content-type": "application/json", "A2A-Version": "1.0" },
        body: JSON.stringify({ jsonrpc: "2.0", id: "l1", method: "ListTasks", params: {} }),
      },
      env,
    );
    expect(await response.json()).toMatchObject({ jsonrpc: "2.0", id: "l1", error: { code: -32601 } });
    expect(origin.requests).toHaveLength(0);
  });
});

describe("the extended card across generations", () => {
  it("gives a 0.3 caller of a 1.0-only origin a 0.3 card with public URLs, schema-valid", async () => {
    const originCard = {
      name: "Private Agent",
      description: "Behind the edge.",
      version: "2.0.0",
      supportedInterfaces: [{ url: "http://10.0.0.9/", protocolBinding: "JSONRPC", protocolVersion: "1.0" }],
      capabilities: { streaming: true, extendedAgentCard: true },
      defaultInputModes: ["text/plain"],
      defaultOutputModes: ["text/plain"],
      skills: [{ id: "secret", name: "Secret skill", description: "Only for callers.", tags: ["x"] }],
    };
    const origin = fakeOrigin(() => Response.json({ jsonrpc: "2.0", id: 7, result: originCard }));
    const caller = await apiKeyCaller();
    const env = makeEnv({ ORIGIN_URL: "http://10.0.0.9/", ORIGIN_PROTOCOL_VERSIONS: "1.0", ...caller.env });
    const init = {
      method: "POST",
      headers: { "content-type": "application/json", ...caller.headers },
      body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "agent/getAuthenticatedExtendedCard" }),
    };
    const response = await callVia(origin, `${PUBLIC}/`, init, env);
    expect(JSON.parse(new TextDecoder().decode(origin.bodies[0]))).toMatchObject({ method: "GetExtendedAgentCard" });
    const { result } = (await response.json()) as { result: Record<string, unknown> };
    expect(schemaErrors.v03Card(result)).toEqual([]);
    expect(result).toMatchObject({ name: "Private Agent", url: `${PUBLIC}/`, protocolVersion: "0.3.0" });
    expect(JSON.stringify(result)).not.toContain("10.0.0.9");
  });
});

describe("SSE translated event by event", () => {
  it("translates events split anywhere across chunks, CRLF or LF, and keeps other fields and order", async () => {
    const events = [
      { jsonrpc: "2.0", id: 1, result: { task: { id: "t1", contextId: "c1", status: { state: "TASK_STATE_WORKING" } } } },
      { jsonrpc: "2.0", id: 1, result: { statusUpdate: { taskId: "t1", contextId: "c1", status: { state: "TASK_STATE_COMPLETED" } } } },
    ];
    const text = `event: message\r\ndata: ${JSON.stringify(events[0])}\r\n\r\n: keep-alive\n\ndata: ${JSON.stringify(events[1])}\n\n`;
    const bytes = new TextEncoder().encode(text);
    const origin = fakeOrigin(
      () =>
        new Response(
          new ReadableStream({
            start(controller) {
              for (let i = 0; i < bytes.length; i += 7) controller.enqueue(bytes.slice(i, i + 7)); // 7-byte chunks
              controller.close();
            },
          }),
          { headers: { "content-type": "text/event-stream" } },
        ),
    );
    const env = makeEnv({ ORIGIN_URL: "http://10.0.0.9/", ORIGIN_PROTOCOL_VERSIONS: "1.0", EDGE_AUTH: "off" });
    const init = {
      method: "POST",
      headers: { "content-type": "application/json", "A2A-Version": "0.3" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "message/stream",
        params: { message: { kind: "message", messageId: "m", role: "user", parts: [{ kind: "text", text: "hi" }] } },
      }),
    };
    const body = await (await callVia(origin, `${PUBLIC}/`, init, env)).text();
    const blocks = body.split("\n\n").filter((block) => block !== "");
    expect(blocks[0]!.split("\n")[0]).toBe("event: message");
    expect(blocks[1]).toBe(": keep-alive");
    const data = blocks.flatMap((block) =>
      block
        .split("\n")
        .filter((line) => line.startsWith("data: "))
        .map((line) => JSON.parse(line.slice(6))),
    );
    expect(data.map((envelope) => envelope.result.kind)).toEqual(["task", "status-update"]);
    expect(data[1].result).toMatchObject({ status: { state: "completed" }, final: true });
  });
});

describe("a JSON error to a 0.3 streaming call", () => {
  it("goes to the 0.3 caller as one SSE error event (0.3 stream clients read nothing else)", async () => {
    const refusal = { jsonrpc: "2.0", id: 4, error: { code: -32004, message: "Task is in a terminal state" } };
    const origin = fakeOrigin(() => Response.json(refusal));
    const env = makeEnv({ ORIGIN_URL: "http://10.0.0.9/", ORIGIN_PROTOCOL_VERSIONS: "1.0", EDGE_AUTH: "off" });
    const init = {
      method: "POST",
      headers: { "content-type": "application/json", "A2A-Version": "0.3" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 4, method: "tasks/resubscribe", params: { id: "t-done" } }),
    };
    const response = await callVia(origin, `${PUBLIC}/`, init, env);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const text = await response.text();
    expect(text.startsWith("event: error\ndata: ")).toBe(true);
    expect(JSON.parse(text.slice("event: error\ndata: ".length))).toMatchObject({ id: 4, error: { code: -32004 } });
    // A 1.0 caller of a 0.3 origin keeps the JSON answer (the 1.0 SDK client reads it).
    const v03Origin = fakeOrigin(() => Response.json(refusal));
    const v1Env = makeEnv({ ORIGIN_URL: "http://10.0.0.9/", ORIGIN_PROTOCOL_VERSIONS: "0.3", EDGE_AUTH: "off" });
    const v1Init = {
      ...init,
      headers: { "content-type": "application/json", "A2A-Version": "1.0" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 4, method: "SubscribeToTask", params: { id: "t-done" } }),
    };
    expect((await callVia(v03Origin, `${PUBLIC}/`, v1Init, v1Env)).headers.get("content-type")).toContain("application/json");
  });
});
