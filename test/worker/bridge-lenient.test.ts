// Lenient reading, strict writing on the wire: 0.3 results and events without
// `kind` are read by their shape, 1.0 results in either oneof style; what no
// reader can make out is reported (Unreadable), answered with the caller's
// InvalidAgentResponseError, and ends a stream; never `data: undefined` or a
// half-translated object. Every translated payload validates against the
// caller's official schema.
import { describe, expect, it } from "vitest";
import { isUnreadable, translateResponseReporting, translateResult, translateStreamEvent } from "../../src/bridge";
import { jsonRpcEventToRestEvent } from "../../src/rest";
import { streamToProto } from "../../src/rest/proto-v03";
import { v1ResponseErrors, v03ResponseErrors } from "../support/bridge-schemas";
import { captureConsole } from "../support/console";
import { schemaErrors } from "../support/schemas";
import { callVia, fakeOrigin, makeEnv } from "../support/worker";

const task03 = { id: "t1", contextId: "c1", status: { state: "completed", timestamp: "2026-01-02T03:04:05Z" } };
const message03 = { messageId: "m1", role: "agent", parts: [{ kind: "text", text: "hi" }] };
const status03 = { taskId: "t1", contextId: "c1", status: { state: "working" }, final: false };
const artifact03 = { taskId: "t1", contextId: "c1", artifact: { artifactId: "a1", parts: [{ kind: "text", text: "x" }] } };

const task1 = { id: "t1", contextId: "c1", status: { state: "TASK_STATE_COMPLETED", timestamp: "2026-01-02T03:04:05Z" } };
const envelope = (result: unknown) => ({ jsonrpc: "2.0", id: 7, result });

describe("0.3 results and events without `kind`, read by their shape", () => {
  it.each([
    ["task", task03, "task"],
    ["message", message03, "message"],
    ["status-update", status03, "statusUpdate"],
    ["artifact-update", artifact03, "artifactUpdate"],
  ])("a %s without kind becomes its 1.0 StreamResponse member", (_kind, event, member) => {
    const v1 = translateStreamEvent(event, "0.3", "1.0") as Record<string, unknown>;
    expect(Object.keys(v1)).toEqual([member]);
    expect(schemaErrors.v1("StreamResponse")(v1)).toEqual([]);
  });

  it("a 1.0 SendMessage answered by a 0.3 origin whose task lacks kind returns the 1.0 SendMessageResponse, not the 0.3 task", () => {
    const result = translateResult("message/send", task03, "0.3", "1.0");
    expect(result).toEqual({ task: { ...task1 } });
    expect(v1ResponseErrors("SendMessage", envelope(result))).toEqual([]);
  });

  it("a 0.3 REST stream event without kind becomes its proto StreamResponse", () => {
    expect(streamToProto(status03)).toMatchObject({ statusUpdate: { taskId: "t1", status: { state: "TASK_STATE_WORKING" } } });
  });
});

describe("1.0 results in either oneof style", () => {
  it("reads the member-named wrapper and the bare object alike", () => {
    const wrapped = translateResult("SendMessage", { task: task1 }, "1.0", "0.3");
    const bare = translateResult("SendMessage", task1, "1.0", "0.3");
    expect(bare).toEqual(wrapped);
    expect(wrapped).toMatchObject({ kind: "task", id: "t1", status: { state: "completed" } });
    expect(v03ResponseErrors("message/send", envelope(bare))).toEqual([]);
    const bareMessage = translateStreamEvent({ messageId: "m1", role: "ROLE_AGENT", parts: [{ text: "hi" }] }, "1.0", "0.3");
    expect(bareMessage).toMatchObject({ kind: "message", role: "agent" });
  });
});

describe("what no reader can make out", () => {
  it("is reported, never handed on", () => {
    for (const odd of [{ hello: "world" }, "text", 42, null, { kind: "mystery" }]) {
      expect(isUnreadable(translateStreamEvent(odd, "0.3", "1.0")), JSON.stringify(odd)).toBe(true);
      expect(isUnreadable(translateStreamEvent(odd, "1.0", "0.3")), JSON.stringify(odd)).toBe(true);
      expect(isUnreadable(streamToProto(odd)), JSON.stringify(odd)).toBe(true);
    }
  });

  it("becomes the caller's InvalidAgentResponseError (-32006) envelope, with the request id", () => {
    const toV1 = translateResponseReporting("message/send", envelope({ odd: true }), "0.3", "1.0");
    expect(toV1.unreadable).toBeDefined();
    expect(toV1.response).toMatchObject({ jsonrpc: "2.0", id: 7, error: { code: -32006, data: [{ reason: "INVALID_AGENT_RESPONSE" }] } });
    expect(toV1.response).not.toHaveProperty("result");
    expect(v1ResponseErrors("SendMessage", toV1.response)).toEqual([]);
    const toV03 = translateResponseReporting("SendMessage", envelope({ odd: true }), "1.0", "0.3");
    expect(toV03.response).toMatchObject({ id: 7, error: { code: -32006 } });
    expect(v03ResponseErrors("message/send", toV03.response)).toEqual([]);
  });

  it("ends a REST stream with the REST error event, never `data: undefined`", () => {
    for (const [version, odd] of [
      ["1.0", undefined],
      ["1.0", "not json"],
      ["0.3", envelope({ odd: true })],
      ["0.3", undefined],
    ] as const) {
      const event = jsonRpcEventToRestEvent(version, odd);
      expect(typeof event, `${version} ${JSON.stringify(odd)}`).toBe("object");
      if (typeof event === "string") continue;
      expect(event.end).toBe(true);
      expect(event.text).toMatch(/^event: error\ndata: \{/);
      expect(event.text).not.toContain("undefined");
    }
    expect(jsonRpcEventToRestEvent("1.0", envelope({ task: task1 }))).toBe(`data: ${JSON.stringify({ task: task1 })}`);
  });

  it("ends a bridged JSON-RPC stream with an error event in the caller's form: nothing after it is passed on", async () => {
    const events = [envelope(status03), envelope({ odd: true }), envelope(task03)].map((e) => `data: ${JSON.stringify(e)}\n\n`);
    const origin = fakeOrigin(() => new Response(events.join(""), { headers: { "content-type": "text/event-stream" } }));
    const env = makeEnv({ ORIGIN_URL: "http://10.0.0.9/", ORIGIN_PROTOCOL_VERSIONS: "0.3", EDGE_AUTH: "off" });
    const logs = captureConsole();
    const body = {
      jsonrpc: "2.0",
      id: 7,
      method: "SendStreamingMessage",
      params: { message: { messageId: "m", role: "ROLE_USER", parts: [{ text: "hi" }] } },
    };
    const headers = { "content-type": "application/json", "a2a-version": "1.0" };
    const answer = await callVia(origin, "https://agent.example.com/", { method: "POST", headers, body: JSON.stringify(body) }, env);
    const text = await answer.text();
    expect(logs.events("origin_failed")).toMatchObject([{ kind: "invalid_response" }]);
    const blocks = text.split("\n\n").filter(Boolean);
    expect(blocks).toHaveLength(2);
    expect(JSON.parse(blocks[0]!.slice("data: ".length))).toMatchObject({ result: { statusUpdate: { taskId: "t1" } } });
    expect(blocks[1]).toMatch(/^event: error\ndata: /);
    const error = JSON.parse(blocks[1]!.split("\n")[1]!.slice("data: ".length));
    expect(error).toMatchObject({ id: 7, error: { code: -32006 } });
    expect(v1ResponseErrors("SendStreamingMessage", error)).toEqual([]);
  });
});
