// Faults end to end, real processes: a misbehaving origin process and the
// worker under `wrangler dev` in front of it. The origin reports what it saw
// (GET /stats), so that what the edge did to it is checked, not assumed.
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FaultOriginStats } from "../support/fault-origin";
import { type Started, startTs, startWranglerDev, waitForHttp, waitForOutput } from "../support/processes";
import { until } from "../support/wait";

let origin: Started;
let originUrl: string;
let dev: Started;
let base: string;
const TIMEOUT_MS = 1500;

async function startOrigin(): Promise<void> {
  origin = startTs("test/support/fault-origin.ts", ["--port", "0"]);
  originUrl = await waitForOutput(origin, /^fault-origin listening (\S+)$/m, "the fault-origin listening line");
  await waitForHttp(originUrl, origin);
}

const originStats = async (): Promise<FaultOriginStats> => (await fetch(`${originUrl}stats`)).json() as Promise<FaultOriginStats>;

const call = (method: string, id: unknown = `id-${method}`) =>
  fetch(`${base}/`, {
    method: "POST",
    headers: { "content-type": "application/json", "A2A-Version": "1.0" },
    body: JSON.stringify({ jsonrpc: "2.0", id, method, params: {} }),
  });

beforeAll(async () => {
  await startOrigin();
  ({ dev, base } = await startWranglerDev([
    "--var",
    `ORIGIN_URL:${originUrl}`,
    "--var",
    `ORIGIN_TIMEOUT_MS:${TIMEOUT_MS}`,
    "--var",
    "EDGE_AUTH:off",
  ]));
});
afterAll(async () => {
  await dev?.stop();
  await origin?.stop();
});

describe("origin faults", () => {
  it("answers a slow origin with 504 and gives up its call", async () => {
    const response = await call("slow", 11);
    expect(response.status).toBe(504);
    expect(await response.json()).toMatchObject({ jsonrpc: "2.0", id: 11, error: { code: -32603 } });
    // The origin got the call and saw it abandoned by the edge (never answered): the 504 came from the deadline.
    expect((await originStats()).calls.slow).toBe(1);
    await until(async () => (await originStats()).abandoned.slow === 1, "the origin to see the slow call abandoned");
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
    origin = startTs("test/support/fault-origin.ts", ["--port", port]);
    await waitForHttp(originUrl, origin);
    expect(await (await call("ok", "back")).json()).toMatchObject({ id: "back", result: { ok: true } });
  });

  it("cancels the origin's stream when the client goes away", async () => {
    const before = await originStats();
    const controller = new AbortController();
    const response = await fetch(`${base}/`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: "c", method: "stream", params: {} }),
      signal: controller.signal,
    });
    const reader = response.body!.getReader();
    let received = "";
    while (!received.includes('"n":1')) received += new TextDecoder().decode((await reader.read()).value);
    const open = await originStats();
    expect(open.streamsOpened).toBe(before.streamsOpened + 1);
    expect(open.streamsClosed).toBe(before.streamsClosed); // the origin streams forever: only a cancel closes it
    controller.abort();
    // The edge passes the client's cancel on: the origin sees its response closed.
    await until(async () => (await originStats()).streamsClosed === before.streamsClosed + 1, "the origin to see its stream closed");
    expect(await (await call("ok", "next")).json()).toMatchObject({ id: "next" });
  });
});

/** One raw HTTP/1.1 exchange with `port`, bytes as given (what a fetch client would refuse to send). */
function raw(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.end(request));
    let data = "";
    socket.on("data", (c) => (data += c));
    socket.on("end", () => resolve(data));
    socket.on("close", () => resolve(data));
    socket.on("error", reject);
  });
}

// With TRUST_FORWARDED_HEADERS=true the worker builds the card from X-Forwarded-Host,
// so what reaches it from the wire matters: a well-formed forwarded host is used
// (the controls prove the setup trusts it), anything malformed never is.
describe("malformed headers on the wire, with TRUST_FORWARDED_HEADERS=true", () => {
  let trusted: Started;
  let port: number;
  beforeAll(async () => {
    const started = await startWranglerDev(["--var", "TRUST_FORWARDED_HEADERS:true"]);
    trusted = started.dev;
    port = Number(new URL(started.base).port);
  });
  afterAll(() => trusted?.stop());

  // Two wrangler devs at once, as the parallel suites run them: starting this one must not restart the first
  // (wrangler dev restarts its worker when its config file is replaced; a POST in flight then gets a 503).
  it("leaves the wrangler dev already running as it was", () => {
    expect(dev.output()).not.toContain("Reloading local server");
  });

  async function cardWith(headerLines: string): Promise<{ status: number; url?: string; reply: string }> {
    const reply = await raw(
      port,
      `GET /.well-known/agent-card.json HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${headerLines}Connection: close\r\n\r\n`,
    );
    const status = Number(reply.split(" ")[1]);
    if (status !== 200) return { status, reply };
    const body = reply.slice(reply.indexOf("\r\n\r\n") + 4);
    return { status, reply, url: (JSON.parse(body.slice(body.indexOf("{"), body.lastIndexOf("}") + 1)) as { url: string }).url };
  }

  it.each([
    ["a well-formed forwarded host", "X-Forwarded-Host: good.example\r\n", "http://good.example/"],
    ["a forwarded host and proto", "X-Forwarded-Host: good.example\r\nX-Forwarded-Proto: https\r\n", "https://good.example/"],
    ["the first of two forwarded hosts", "X-Forwarded-Host: good.example\r\nX-Forwarded-Host: other.example\r\n", "http://good.example/"],
  ])("control: uses %s", async (_name, header, url) => {
    expect(await cardWith(header)).toMatchObject({ status: 200, url });
  });

  // Each malformed value is either refused by the runtime's HTTP parser (4xx) or
  // reaches the worker, which must ignore it: the card keeps the request's own host.
  it.each([
    // workerd ends a header line at a bare CR (what follows arrives as a header of its own),
    // so the forwarded host that reaches the worker is `evil.example/`: it has a path.
    ["a bare CR inside a forwarded host", "X-Forwarded-Host: evil.example/\rX-Injected: 1\r\n"],
    ["an obsolete line fold", "X-Forwarded-Host: good.example\r\n evil.example\r\n"],
    ["a 64 KiB forwarded host", `X-Forwarded-Host: evil.example${"e".repeat(65_536)}\r\n`],
    ["a NUL in a forwarded host", "X-Forwarded-Host: evil.example\u0000\r\n"],
    ["a tab inside a forwarded host (URL parsers drop it)", "X-Forwarded-Host: evil.exa\tmple\r\n"],
    ["a backslash in a forwarded host", "X-Forwarded-Host: evil.example\\steal\r\n"],
    ["userinfo in a forwarded host", "X-Forwarded-Host: good.example@evil.example\r\n"],
    ["a NUL in another header", "A2A-Version: 1.0\u0000evil.example\r\n"],
  ])("never lets %s into the card", async (_name, header) => {
    const { status, url, reply } = await cardWith(header);
    if (status === 200) expect(url).toBe(`http://127.0.0.1:${port}/`);
    else expect([400, 431]).toContain(status);
    expect(reply).not.toContain("evil.exa");
    expect(reply.toLowerCase()).not.toContain("x-injected");
  });
});
