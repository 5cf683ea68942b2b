// Faults end to end, real processes: a misbehaving origin process and the
// worker under `wrangler dev` in front of it.
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, start, startWranglerDev, waitForHttp, type Started } from "../support/processes";

let origin: Started;
let originUrl: string;
let dev: Started;
let base: string;
const TIMEOUT_MS = 1500;

async function startOrigin(): Promise<void> {
  const port = await freePort();
  origin = start("node_modules/.bin/tsx", ["test/support/fault-origin.ts", "--port", String(port)]);
  originUrl = `http://127.0.0.1:${port}/`;
  await waitForHttp(originUrl, origin);
}

const call = (method: string, id: unknown = `id-${method}`) =>
  fetch(`${base}/`, { method: "POST", headers: { "content-type": "application/json", "A2A-Version": "1.0" }, body: JSON.stringify({ jsonrpc: "2.0", id, method, params: {} }) });

beforeAll(async () => {
  await startOrigin();
  ({ dev, base } = await startWranglerDev(["--var", `ORIGIN_URL:${originUrl}`, "--var", `ORIGIN_TIMEOUT_MS:${TIMEOUT_MS}`]));
});
afterAll(async () => {
  await dev?.stop();
  await origin?.stop();
});

describe("origin faults", () => {
  it("answers a slow origin with 504 on time", async () => {
    const started = Date.now();
    const response = await call("slow", 11);
    const elapsed = Date.now() - started;
    expect(response.status).toBe(504);
    expect(await response.json()).toMatchObject({ jsonrpc: "2.0", id: 11, error: { code: -32603 } });
    expect(elapsed).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    expect(elapsed).toBeLessThan(TIMEOUT_MS + 10_000); // generous: it must not wait for the origin, which never answers
  });

  it.each([
    ["garbage", 502],
    ["crash", 502],
    ["hangup", 502],
  ])("turns %s into a JSON-RPC error with the request id, without the origin's address", async (method, status) => {
    const response = await call(method);
    expect(response.status).toBe(status);
    const text = await response.text();
    expect(JSON.parse(text)).toMatchObject({ jsonrpc: "2.0", id: `id-${method}`, error: { code: -32603 } });
    expect(text).not.toContain(new URL(originUrl).host);
    expect(text).not.toContain("nginx");
  });

  it("ends the client's stream cleanly when the origin is killed mid-stream, and keeps serving", async () => {
    const response = await call("stream-die", "s-1");
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const text = await response.text(); // resolves: the stream ends, it is not torn
    const events = text.split("\n\n").filter((e) => e.trim() !== "");
    expect(events[0]).toContain('"n":1');
    const error = events.find((e) => e.startsWith("event: error"));
    expect(error).toBeDefined();
    expect(JSON.parse(error!.split("data: ")[1]!)).toMatchObject({ id: "s-1", error: { code: -32603 } });
    // The worker still serves its card, and answers 502 now that the origin is gone.
    expect((await fetch(`${base}/.well-known/agent-card.json`)).status).toBe(200);
    const after = await call("ok", "after");
    expect(after.status).toBe(502);
    expect(await after.json()).toMatchObject({ id: "after" });
    // ... and proxies again once an origin is back on the same address.
    const port = new URL(originUrl).port;
    origin = start("node_modules/.bin/tsx", ["test/support/fault-origin.ts", "--port", port]);
    await waitForHttp(originUrl, origin);
    expect(await (await call("ok", "back")).json()).toMatchObject({ id: "back", result: { ok: true } });
  });

  it("cancels the origin's stream when the client goes away", async () => {
    const controller = new AbortController();
    const response = await fetch(`${base}/`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: "c", method: "stream", params: {} }),
      signal: controller.signal,
    });
    const reader = response.body!.getReader();
    await reader.read();
    controller.abort();
    // The worker keeps answering; the origin's interval stops when its response closes (no leak to observe
    // from outside but the next call succeeding).
    expect(await (await call("ok", "next")).json()).toMatchObject({ id: "next" });
  });
});

/** One raw HTTP/1.1 exchange, bytes as given (what a fetch client would refuse to send). */
function raw(request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(new URL(base).port), "127.0.0.1", () => socket.end(request));
    let data = "";
    socket.on("data", (c) => (data += c));
    socket.on("end", () => resolve(data));
    socket.on("close", () => resolve(data));
    socket.on("error", reject);
  });
}

describe("malformed headers on the wire", () => {
  it.each([
    ["a bare CR inside a forwarded host", "X-Forwarded-Host: evil.example\rX-Injected: 1\r\n"],
    ["an obsolete line fold", "X-Forwarded-Host: good.example\r\n evil.example\r\n"],
    ["a 64 KiB header", `X-Forwarded-Host: ${"e".repeat(65_536)}\r\n`],
    ["a NUL in a header", "A2A-Version: 1.0\u0000evil\r\n"],
  ])("never lets %s into the card", async (_name, header) => {
    const reply = await raw(`GET /.well-known/agent-card.json HTTP/1.1\r\nHost: 127.0.0.1:${new URL(base).port}\r\n${header}Connection: close\r\n\r\n`);
    const status = Number(reply.split(" ")[1]);
    expect(status === 200 || (status >= 400 && status < 500)).toBe(true);
    expect(reply).not.toContain("evil.example/");
    expect(reply).not.toContain("X-Injected");
  });
});
