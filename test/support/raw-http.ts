// Raw HTTP/1.1 over a socket: bytes exactly as given, which fetch clients
// refuse to send (Content-Length beside chunked, stalled bodies, bare Host case).
import { connect, type Socket } from "node:net";

export interface RawReply {
  status: number;
  head: string;
  body: string;
}

/** Parses one HTTP/1.1 response (chunked or not) from the raw text. */
function parseReply(text: string): RawReply {
  const end = text.indexOf("\r\n\r\n");
  const head = end === -1 ? text : text.slice(0, end);
  let body = end === -1 ? "" : text.slice(end + 4);
  if (/^transfer-encoding:\s*chunked/im.test(head)) {
    let out = "";
    for (let rest = body; ; ) {
      const lineEnd = rest.indexOf("\r\n");
      const size = Number.parseInt(rest.slice(0, lineEnd), 16);
      if (!(size > 0)) break;
      out += rest.slice(lineEnd + 2, lineEnd + 2 + size);
      rest = rest.slice(lineEnd + 2 + size + 2);
    }
    body = out;
  }
  return { status: Number(head.split(" ")[1]), head, body };
}

/** Whether `data` holds one whole response (workerd may keep the connection open after it, even with `Connection: close`). */
function complete(data: Buffer): boolean {
  const end = data.indexOf("\r\n\r\n");
  if (end === -1) return false;
  const head = data.subarray(0, end).toString("latin1");
  const status = Number(head.split(" ")[1]);
  if (status === 204 || status === 304 || (status >= 100 && status < 200)) return true;
  const length = /^content-length:\s*(\d+)/im.exec(head);
  if (length) return data.length - end - 4 >= Number(length[1]);
  if (/^transfer-encoding:\s*chunked/im.test(head)) return data.subarray(end).includes("\r\n0\r\n\r\n");
  return false; // delimited by close
}

export interface RawExchange {
  socket: Socket;
  /** Resolves with the parsed reply once the server closes (Connection: close), or rejects after `timeoutMs`. */
  reply: Promise<RawReply>;
}

/**
 * Opens a connection, lets `write` send whatever it wants, and collects the
 * answer. A reply that does not come within `timeoutMs` fails loudly (a hang is
 * a defect, never a pass).
 */
export function rawExchange(port: number, write: (socket: Socket) => void | Promise<void>, timeoutMs = 20_000): RawExchange {
  const socket = connect(port, "127.0.0.1");
  const reply = new Promise<RawReply>((resolve, reject) => {
    let data = Buffer.alloc(0);
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete reply within ${timeoutMs} ms; got ${JSON.stringify(data.subarray(0, 200).toString())}`));
    }, timeoutMs);
    const finish = () => {
      clearTimeout(timer);
      if (data.length === 0) reject(new Error("the server closed the connection without a reply"));
      else resolve(parseReply(data.toString("utf8")));
    };
    socket.on("data", (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      if (complete(data)) {
        socket.destroy();
        finish();
      }
    });
    socket.on("close", finish);
    socket.on("error", () => undefined); // a reset after the reply is fine; no reply is caught above
    socket.once("connect", () => {
      Promise.resolve(write(socket)).catch(() => undefined);
    });
  });
  return { socket, reply };
}

/** One request as raw text, `Connection: close`. */
export function raw(port: number, request: string, timeoutMs?: number): Promise<RawReply> {
  return rawExchange(port, (socket) => void socket.write(request), timeoutMs).reply;
}

/** Waits for the socket to take more (or to close), removing both listeners whichever comes first. */
function drainedOrClosed(socket: Socket): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      socket.off("drain", done).off("close", done);
      resolve();
    };
    socket.once("drain", done).once("close", done);
  });
}

/** How an oversized body is framed: its length declared, chunked, or chunked with a small length declared too. */
export type Framing = "content-length" | "chunked" | "both";
/**
 * How a client behaves once the answer starts: `keeps` sends its whole body, reading as it goes (undici,
 * browsers); `stops` stops sending at the status line and reads the rest of the answer (curl, Go), and
 * waits for that status line once it has sent STOPS_WAIT_AFTER bytes (so an answer that waits for the whole
 * body never comes, and the exchange fails, whatever the machine's load);
 * `first` reads nothing until it has sent its whole body (Python's http.client).
 */
export type BodyClient = "keeps" | "stops" | "first";

/** Body bytes a `stops` client sends before it waits for the status line: 4 times the worker's default cap. */
export const STOPS_WAIT_AFTER = 4 * 1024 * 1024;

export interface OversizedReply extends RawReply {
  /** Body bytes the client had handed to its socket when the status line came. */
  sentAtStatus: number;
  /** Body bytes it had handed to its socket in all. */
  sent: number;
}

/**
 * POSTs a JSON-RPC call padded to `bytes` with the given framing, as the given kind of client, and resolves
 * with the whole answer. Rejects if the connection ends before a whole answer was read (a reset that erased
 * it included), or if none comes within `timeoutMs`.
 */
export function oversizedExchange(
  port: number,
  framing: Framing,
  client: BodyClient,
  bytes: number,
  timeoutMs = 60_000,
): Promise<OversizedReply> {
  const prefix = Buffer.from('{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"pad":"');
  const suffix = Buffer.from('"}}');
  const head = {
    "content-length": `Content-Length: ${bytes}\r\n`,
    chunked: "Transfer-Encoding: chunked\r\n",
    both: "Content-Length: 10\r\nTransfer-Encoding: chunked\r\n",
  }[framing];
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let data = Buffer.alloc(0);
    let sentAtStatus = -1;
    let settled = false;
    let writeError = "";
    const bodySent = () => Math.max(0, socket.bytesWritten - Buffer.byteLength(requestHead));
    const settle = (error?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      const sent = bodySent();
      socket.destroy();
      if (error) reject(error);
      else resolve({ ...parseReply(data.toString("utf8")), sentAtStatus, sent });
    };
    const timer = setTimeout(
      () => settle(new Error(`no whole answer within ${timeoutMs} ms; got ${JSON.stringify(data.subarray(0, 200).toString())}`)),
      timeoutMs,
    );
    const requestHead = `POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n${head}Connection: close\r\n\r\n`;
    if (client === "first") socket.pause();
    let statusCame: () => void = () => undefined;
    const status = new Promise<void>((resolve) => (statusCame = resolve));
    const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
    socket.on("data", (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      if (sentAtStatus < 0 && data.includes("\r\n")) {
        sentAtStatus = bodySent();
        statusCame();
      }
      if (complete(data)) settle();
    });
    socket.on("error", (error: NodeJS.ErrnoException) => (writeError = error.code ?? error.message));
    socket.on("close", () =>
      settle(
        new Error(
          `the connection ended before a whole answer (${writeError || "closed"}); got ${JSON.stringify(data.subarray(0, 200).toString())}`,
        ),
      ),
    );
    socket.once("connect", async () => {
      const frame = (part: Buffer) =>
        framing === "content-length" ? part : Buffer.concat([Buffer.from(`${part.length.toString(16)}\r\n`), part, Buffer.from("\r\n")]);
      const sending = () => !socket.destroyed && socket.writable && !(client === "stops" && sentAtStatus >= 0);
      socket.write(requestHead);
      socket.write(frame(prefix));
      const fill = Buffer.alloc(64 * 1024, "x");
      for (let left = bytes - prefix.length - suffix.length; left > 0 && sending(); ) {
        const part = fill.subarray(0, Math.min(fill.length, left));
        left -= part.length;
        if (!socket.write(frame(part))) await drainedOrClosed(socket);
        if (client === "stops" && bytes - left >= STOPS_WAIT_AFTER) await Promise.race([status, closed]);
      }
      if (sending()) socket.write(framing === "content-length" ? suffix : Buffer.concat([frame(suffix), Buffer.from("0\r\n\r\n")]));
      if (client === "first") socket.resume();
    });
  });
}
