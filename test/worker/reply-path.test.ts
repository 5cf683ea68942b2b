// The one reply path (src/call/reply.ts) and its SSE splitter
// (src/http/sse-events.ts): every origin reply the edge reads is bounded by
// ORIGIN_REPLY_MAX_BYTES and scanned once; what it cannot read is a 502 or a
// stream's last event, for every origin kind; an untranslated reply passes
// unread. The same rules over every binding are rows of the parity suite.
import { describe, expect, it } from "vitest";
import { rewriteEvents } from "../../src/http/sse-events";
import { captureConsole } from "../support/console";
import { callVia, fakeOrigin, makeEnv } from "../support/worker";

const encoder = new TextEncoder();

/** A stream of `chunks`, one enqueue each. */
function streamOf(chunks: string[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

const upper = (block: string) => ({ text: block.toUpperCase() });
const limits = { maxEventChars: 64, overflow: () => "event: error\ndata: too large" };

describe("the SSE splitter", () => {
  it.each([
    ["LF", ["data: a\n\ndata: b\n\n"]],
    ["CRLF", ["data: a\r\n\r\ndata: b\r\n\r\n"]],
    ["an end split over chunks", ["data: a\r", "\n", "\r", "\ndata: b\n", "\n"]],
    ["one character per chunk", [..."data: a\n\ndata: b\n\n"]],
  ])("finds each event's end (%s)", async (_name, chunks) => {
    expect(await new Response(rewriteEvents(streamOf(chunks), upper, limits)).text()).toBe("DATA: A\n\nDATA: B\n\n");
  });

  it("rewrites a trailing event that has no blank line", async () => {
    expect(await new Response(rewriteEvents(streamOf(["data: a\n\ndata: b"]), upper, limits)).text()).toBe("DATA: A\n\nDATA: B\n\n");
  });

  it("ends the stream with the overflow event when one event outgrows the bound, and cancels the origin", async () => {
    let cancelled = false;
    let sent = 0;
    const origin = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent++;
        controller.enqueue(encoder.encode(sent === 1 ? "data: ok\n\ndata: " : "x".repeat(16)));
      },
      cancel() {
        cancelled = true;
      },
    });
    const text = await new Response(rewriteEvents(origin, upper, limits)).text();
    expect(text).toBe("DATA: OK\n\nevent: error\ndata: too large\n\n");
    expect(cancelled).toBe(true);
    expect(sent).toBeLessThan(10);
  });

  it("ends the stream after an event its rewrite marks the last", async () => {
    const last = (block: string) => ({ text: block, end: block.includes("b") });
    expect(await new Response(rewriteEvents(streamOf(["data: a\n\ndata: b\n\ndata: c\n\n"]), last, limits)).text()).toBe(
      "data: a\n\ndata: b\n\n",
    );
  });
});

const REST_ORIGIN = { ORIGIN_BINDING: "http+json", ORIGIN_REST_URL: "http://10.9.8.7:8080/a2a", REST_PATH: "/rest", EDGE_AUTH: "off" };
const send = {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ message: { messageId: "m", role: "ROLE_USER", parts: [{ text: "hi" }] } }),
};

const rpcSend = {
  method: "POST",
  headers: { "content-type": "application/json", "a2a-version": "1.0" },
  body: JSON.stringify({ jsonrpc: "2.0", id: 5, method: "SendMessage", params: JSON.parse(send.body) }),
};
const REST_CLIENT = ["https://agent.example.com/rest/message:send", send] as const;
const RPC_CLIENT = ["https://agent.example.com/", rpcSend] as const;

describe("a REST origin's replies through the one reply path", () => {
  it.each([
    [
      "a 500 naming its internals, to a REST client",
      REST_CLIENT,
      () => Response.json({ error: { message: "pg: connect ECONNREFUSED 10.9.8.7:5432" } }, { status: 500 }),
      "origin_status",
    ],
    [
      "a 500 naming its internals, to a JSON-RPC client",
      RPC_CLIENT,
      () => Response.json({ error: { message: "pg: connect ECONNREFUSED 10.9.8.7:5432" } }, { status: 500 }),
      "origin_status",
    ],
    [
      "a 302 with a JSON body, to a REST client",
      REST_CLIENT,
      () =>
        Response.json(
          { message: "moved to http://10.0.0.5:8080/internal" },
          { status: 302, headers: { location: "http://10.0.0.5:8080/internal" } },
        ),
      "redirect",
    ],
    [
      "HTML under application/json, to a JSON-RPC client",
      RPC_CLIENT,
      () => new Response("<html>oops</html>", { headers: { "content-type": "application/json" } }),
      "invalid_response",
    ],
    [
      "JSON over ORIGIN_REPLY_MAX_BYTES, to a JSON-RPC client",
      RPC_CLIENT,
      () => Response.json({ message: { messageId: "m", role: "ROLE_AGENT", parts: [{ text: "x".repeat(4096) }] } }),
      "invalid_response",
    ],
  ] as const)("%s is a 502 with the edge's own body", async (_name, [url, init], answer, kind) => {
    const logs = captureConsole();
    const origin = fakeOrigin(answer);
    const env = makeEnv({ ...REST_ORIGIN, ORIGIN_REPLY_MAX_BYTES: "2048" });
    const response = await callVia(origin, url, init, env);
    const text = await response.text();
    expect(response.status).toBe(502);
    expect(response.headers.get("location")).toBeNull();
    expect(text).not.toMatch(/10\.9\.8\.7|10\.0\.0\.5|ECONNREFUSED|oops|xxxx/);
    expect(JSON.parse(text)).toMatchObject(url === RPC_CLIENT[0] ? { id: 5, error: { code: -32603 } } : { error: { code: 502 } });
    expect(logs.events("origin_failed")).toMatchObject([{ kind }]);
  });

  it("keeps an origin's own 4xx of another media type, with the edge's body, for a REST client", async () => {
    const logs = captureConsole();
    const origin = fakeOrigin(
      () => new Response("<html>no such task at 10.9.8.7</html>", { status: 404, headers: { "content-type": "text/html" } }),
    );
    const response = await callVia(origin, ...REST_CLIENT, makeEnv(REST_ORIGIN));
    const text = await response.text();
    expect(response.status).toBe(404);
    expect(text).not.toContain("10.9.8.7");
    expect(JSON.parse(text)).toMatchObject({ error: { code: 404, status: "NOT_FOUND" } });
    expect(logs.events("origin_failed")).toMatchObject([{ kind: "invalid_response", status: 404 }]);
  });

  it("passes a REST client's reply from a REST origin of its version through unread", async () => {
    const body = JSON.stringify({ message: { messageId: "m", role: "ROLE_AGENT", parts: [{ text: "x".repeat(4096) }] } });
    const origin = fakeOrigin(() => new Response(body, { headers: { "content-type": "application/json" } }));
    const env = makeEnv({ ...REST_ORIGIN, ORIGIN_REPLY_MAX_BYTES: "2048" });
    const response = await callVia(origin, "https://agent.example.com/rest/message:send", send, env);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(body);
    expect(new URL(origin.requests[0]?.url ?? "").pathname).toBe("/a2a/message:send");
  });

  it("ends a JSON-RPC client's stream from a REST origin with an error event when one event outgrows the bound", async () => {
    const logs = captureConsole();
    const origin = fakeOrigin(
      () => new Response(`data: {"task":{"id":"${"x".repeat(8192)}`, { headers: { "content-type": "text/event-stream" } }),
    );
    const env = makeEnv({ ...REST_ORIGIN, ORIGIN_REPLY_MAX_BYTES: "2048" });
    const rpc = {
      jsonrpc: "2.0",
      id: 9,
      method: "SendStreamingMessage",
      params: { message: { messageId: "m", role: "ROLE_USER", parts: [{ text: "hi" }] } },
    };
    const headers = { "content-type": "application/json", "a2a-version": "1.0" };
    const response = await callVia(origin, "https://agent.example.com/", { method: "POST", headers, body: JSON.stringify(rpc) }, env);
    const text = await response.text();
    expect(text).toMatch(/^event: error\ndata: \{"jsonrpc":"2\.0","id":9,"error":\{"code":-32603/);
    expect(text.length).toBeLessThan(1024);
    expect(logs.events("origin_failed")).toMatchObject([{ kind: "invalid_response", read: "event_too_large" }]);
  });
});
