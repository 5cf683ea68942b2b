// Request bodies that go wrong, written raw on the socket to `wrangler dev` (what `npm run dev` runs):
// after each one the dev server must still be running and answer a new request on a new connection.
// Every wait is bounded: a wedged or dead dev server fails the test with a message saying so.
// What each case guards:
// - over the cap: each framing and kind of client has its row in oversized-bodies.test.ts (both runtimes);
//   here a 2 MiB body is refused and the dev server serves the next request.
// - client gone mid-body: stock wrangler 4.86 exited on it ("Network connection lost."); fixed in
//   wrangler 4.129.1; this project carried that fix as a patch of 4.86 until it could move to Node 22+.
// - stalled body: the 408 path cancels the body; that does not wedge wrangler dev (kept as a guard).
import { connect, type Socket } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Started, startWranglerDev } from "../support/processes";

const MAX_BODY_BYTES = 1024 * 1024; // the worker's default cap
const ANSWER_WITHIN_MS = 15_000; // generous bound for any one answer (2 shared cores)

let dev: Started;
let port: number;

beforeEach(async () => {
  let base: string;
  ({ dev, base } = await startWranglerDev(["--var", "BODY_TIMEOUT_MS:1000"]));
  port = Number(new URL(base).port);
});
afterEach(async () => {
  await dev?.stop();
});

interface Reply {
  status: number;
  headers: Map<string, string>;
  body: string;
}

/** Parses one HTTP/1.1 response from `data`, or null while it is incomplete. */
function parseReply(data: Buffer): Reply | null {
  const end = data.indexOf("\r\n\r\n");
  if (end < 0) return null;
  const [statusLine, ...lines] = data.subarray(0, end).toString("latin1").split("\r\n");
  const headers = new Map<string, string>();
  for (const line of lines) {
    const colon = line.indexOf(":");
    headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  const status = Number(statusLine!.split(" ")[1]);
  const rest = data.subarray(end + 4);
  if (headers.get("transfer-encoding")?.toLowerCase() === "chunked") {
    const parts: Buffer[] = [];
    let offset = 0;
    for (;;) {
      const lineEnd = rest.indexOf("\r\n", offset);
      if (lineEnd < 0) return null;
      const size = parseInt(rest.subarray(offset, lineEnd).toString("latin1"), 16);
      if (size === 0) return { status, headers, body: Buffer.concat(parts).toString("utf8") };
      if (rest.length < lineEnd + 2 + size + 2) return null;
      parts.push(rest.subarray(lineEnd + 2, lineEnd + 2 + size));
      offset = lineEnd + 2 + size + 2;
    }
  }
  const length = Number(headers.get("content-length") ?? "0");
  if (rest.length < length) return null;
  return { status, headers, body: rest.subarray(0, length).toString("utf8") };
}

const lastLines = (text: string) => text.split("\n").slice(-25).join("\n");

/**
 * Opens a new connection, lets `send` write to it, and resolves with the first complete response.
 * Rejects (with `what` and wrangler's last output) if none arrives within ANSWER_WITHIN_MS.
 * Write errors after the server has answered (it may close while a large body is still going out) are ignored.
 */
function exchange(what: string, send: (socket: Socket) => Promise<void> | void, onSocket?: (socket: Socket) => void): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    onSocket?.(socket);
    let data = Buffer.alloc(0);
    let settled = false;
    const finish = (error: Error | null, reply?: Reply) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (!onSocket) socket.destroy();
      if (error) reject(error);
      else resolve(reply!);
    };
    const fail = (why: string) =>
      finish(
        new Error(
          `${what}: ${why} (received ${data.length} bytes: ${JSON.stringify(data.toString("latin1").slice(0, 200))}; wrangler ${dev.child.exitCode === null ? "not exited (yet)" : `exited with ${dev.child.exitCode}`})\n--- wrangler output ---\n${lastLines(dev.output())}`,
        ),
      );
    const timer = setTimeout(() => fail(`no complete answer within ${ANSWER_WITHIN_MS} ms`), ANSWER_WITHIN_MS);
    socket.on("data", (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      const reply = parseReply(data);
      if (reply) finish(null, reply);
    });
    socket.on("error", (error) => {
      if (!settled && data.length === 0 && !socket.writable) fail(`socket error ${error.message}`);
    });
    socket.on("close", () => fail("connection closed before a complete answer"));
    socket.once("connect", () => {
      Promise.resolve(send(socket)).catch(() => undefined); // a write cut short by the server's answer is fine
    });
  });
}

/** Writes `chunk` and waits for the socket to take it; false once the socket can no longer be written. */
async function write(socket: Socket, chunk: string | Buffer): Promise<boolean> {
  if (socket.destroyed || !socket.writable) return false;
  if (socket.write(chunk)) return true;
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      socket.off("drain", onDrain);
      socket.off("close", onClose);
      resolve(ok);
    };
    const onDrain = () => done(true);
    const onClose = () => done(false);
    socket.on("drain", onDrain);
    socket.on("close", onClose);
  });
}

/** Sends `total` bytes of body as 64 KiB chunks (chunked encoding), then the last chunk. */
async function sendChunked(socket: Socket, total: number): Promise<void> {
  const piece = Buffer.alloc(64 * 1024, "a");
  for (let sent = 0; sent < total; sent += piece.length) {
    if (!(await write(socket, Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from("\r\n")])))) return;
  }
  await write(socket, "0\r\n\r\n");
}

// Keep-alive, as curl and fetch send it (with `Connection: close` a wedge after a cancelled body shows less often).
const postHead = (headers: string) => `POST / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n${headers}\r\n`;

/** The proof after each case: wrangler dev runs, and a new connection gets the card. */
async function expectStillServing(after: string): Promise<void> {
  expect(dev.child.exitCode, `wrangler dev exited after ${after}:\n${lastLines(dev.output())}`).toBeNull();
  const reply = await exchange(`GET /.well-known/agent-card.json on a new connection after ${after}`, (socket) => {
    socket.write(`GET /.well-known/agent-card.json HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`);
  });
  expect(reply.status).toBe(200);
  expect(reply.headers.get("content-type")).toContain("application/json");
  const card = JSON.parse(reply.body) as { name: string; skills: unknown[]; supportedInterfaces: { url: string }[] };
  expect(card.name).toBe("Acme Travel Concierge");
  expect(card.supportedInterfaces[0]!.url).toBe(`http://127.0.0.1:${port}/`);
  expect(dev.child.exitCode, `wrangler dev exited after ${after}:\n${lastLines(dev.output())}`).toBeNull();
}

/** Waits (bounded) until wrangler's output matches `pattern` or the process exits. */
async function waitForOutput(pattern: RegExp, what: string): Promise<void> {
  const deadline = Date.now() + ANSWER_WITHIN_MS;
  while (!pattern.test(dev.output()) && dev.child.exitCode === null) {
    if (Date.now() > deadline) throw new Error(`${what}: not seen within ${ANSWER_WITHIN_MS} ms\n${lastLines(dev.output())}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function expectEnvelope(reply: Reply): void {
  expect(reply.headers.get("content-type")).toContain("application/json");
  const body = JSON.parse(reply.body) as { jsonrpc: string; id: unknown; error: { code: number; message: string } };
  expect(body).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32600 } });
  expect(body.error.message).toBeTypeOf("string");
}

describe("wrangler dev and request bodies that go wrong", () => {
  it("answers a chunked body over the cap with 413 (JSON-RPC envelope), then serves the next request", async () => {
    const reply = await exchange("chunked POST of 2 MiB", async (socket) => {
      await write(socket, postHead("Transfer-Encoding: chunked\r\n"));
      await sendChunked(socket, 2 * MAX_BODY_BYTES);
    });
    expect(reply.status).toBe(413);
    expectEnvelope(reply);
    await expectStillServing("a 413 on a chunked body over the cap");
    await expectStillServing("a 413 on a chunked body over the cap (second request)");
  });

  it("survives a client that declares Content-Length: 100, sends 10 bytes and disconnects", async () => {
    const socket = connect(port, "127.0.0.1");
    await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject));
    socket.write(`${postHead("Content-Length: 100\r\n")}{"jsonrpc"`); // 10 of the 100 bytes
    await new Promise((r) => setTimeout(r, 300)); // pacing only: let the request reach the worker
    socket.destroy();
    // The worker sees the cut body (it answers 408 to nobody and logs it); then the dev server must carry on.
    await waitForOutput(/request_body_failed/, "the worker's request_body_failed log line");
    await expectStillServing("a client that disconnected mid-body");
    await expectStillServing("a client that disconnected mid-body (second request)");
  });

  it("answers a chunked body that stalls mid-way with 408 (JSON-RPC envelope), then serves the next request", async () => {
    let stalled: Socket | undefined;
    const reply = await exchange(
      "chunked POST that stalls after its first chunk (BODY_TIMEOUT_MS=1000)",
      async (socket) => {
        await write(socket, postHead("Transfer-Encoding: chunked\r\n"));
        await write(socket, '11\r\n{"jsonrpc":"2.0",\r\n'); // then nothing more
      },
      (socket) => (stalled = socket),
    );
    try {
      expect(reply.status).toBe(408);
      expectEnvelope(reply);
      // The stalled client is still connected ...
      await expectStillServing("a 408 on a stalled body (stalled client still connected)");
    } finally {
      stalled?.destroy();
    }
    // ... and has gone away.
    await expectStillServing("a 408 on a stalled body (stalled client gone)");
    await expectStillServing("a 408 on a stalled body (stalled client gone, second request)");
  });
});
