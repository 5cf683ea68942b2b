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

/**
 * Writes a chunked body of `prefix`, `total` bytes of `fill`, then `suffix`, in
 * 64 KiB chunks, respecting backpressure; stops when the socket closes.
 */
export async function writeChunked(socket: Socket, total: number, fill = "x", prefix = "", suffix = ""): Promise<number> {
  const writeOne = (data: Buffer) =>
    socket.write(Buffer.concat([Buffer.from(`${data.length.toString(16)}\r\n`), data, Buffer.from("\r\n")]));
  if (prefix) writeOne(Buffer.from(prefix));
  const chunk = Buffer.from(fill.repeat(64 * 1024));
  let sent = 0;
  while (sent < total && !socket.destroyed && socket.writable) {
    const size = Math.min(chunk.length, total - sent);
    // One write per chunk: a chunk must never be split by a skipped write.
    const ok = socket.write(Buffer.concat([Buffer.from(`${size.toString(16)}\r\n`), chunk.subarray(0, size), Buffer.from("\r\n")]));
    sent += size;
    if (!ok) await drainedOrClosed(socket);
  }
  if (suffix && !socket.destroyed && socket.writable) writeOne(Buffer.from(suffix));
  if (!socket.destroyed && socket.writable) socket.write("0\r\n\r\n");
  return sent;
}
