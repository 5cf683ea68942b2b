// A misbehaving origin agent, as a real process, for the fault tests:
//   node_modules/.bin/tsx test/support/fault-origin.ts --port N
// It prints `fault-origin listening <url>` and answers each JSON-RPC call by
// its method:
//   ok          a normal JSON-RPC result
//   stream      SSE: a first event, then more every 100 ms, forever
//   stream-die  SSE: a first event, then the process kills itself (SIGKILL)
//   slow        never answers
//   garbage     200 text/html
//   crash       500 with an HTML page naming the origin's address
//   hangup      closes the connection without answering
// GET /stats answers what it observed, so that tests can check what the edge
// did to the origin (see `FaultOriginStats`): calls per method, streams opened
// and closed, and calls whose connection closed before they were answered.
import { createServer } from "node:http";
import { parseArgs } from "node:util";
import { outlastClients } from "./keep-alive";

const { values } = parseArgs({ options: { port: { type: "string", default: "0" } } });

export interface FaultOriginStats {
  /** JSON-RPC calls received, by method. */
  calls: Record<string, number>;
  /** SSE responses started (`stream`). */
  streamsOpened: number;
  /** Of those, closed (by the client: `stream` never ends by itself). */
  streamsClosed: number;
  /** Calls whose connection closed before any answer (`slow` after the edge gave up), by method. */
  abandoned: Record<string, number>;
}

const stats: FaultOriginStats = { calls: {}, streamsOpened: 0, streamsClosed: 0, abandoned: {} };
const bump = (counts: Record<string, number>, key: string) => (counts[key] = (counts[key] ?? 0) + 1);

const server = createServer((req, res) => {
  if (req.method === "GET" && req.url === "/stats") {
    res.writeHead(200, { "content-type": "application/json", "cache-control": "no-store" });
    return res.end(JSON.stringify(stats));
  }
  let raw = "";
  req.on("data", (c) => (raw += c));
  req.on("end", () => {
    let id: unknown = null;
    let method = "";
    try {
      ({ id, method } = JSON.parse(raw));
    } catch {
      /* not JSON */
    }
    bump(stats.calls, method);
    res.on("close", () => {
      if (!res.headersSent) bump(stats.abandoned, method);
    });
    const event = (n: number) => `data: ${JSON.stringify({ jsonrpc: "2.0", id, result: { statusUpdate: { n } } })}\n\n`;
    switch (method) {
      case "stream":
      case "stream-die": {
        res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
        res.write(event(1));
        if (method === "stream-die") {
          setTimeout(() => process.kill(process.pid, "SIGKILL"), 150);
          return;
        }
        stats.streamsOpened++;
        let n = 1;
        const timer = setInterval(() => res.write(event(++n)), 100);
        res.on("close", () => {
          clearInterval(timer);
          stats.streamsClosed++;
        });
        return;
      }
      case "slow":
        return; // never answers
      case "garbage":
        res.writeHead(200, { "content-type": "text/html" });
        return res.end("<html><body>Welcome to nginx!</body></html>");
      case "crash":
        res.writeHead(500, { "content-type": "text/html" });
        return res.end(`<h1>500</h1><p>upstream ${req.headers.host} failed</p>`);
      case "hangup":
        return req.socket.destroy();
      default:
        res.writeHead(200, { "content-type": "application/json" });
        return res.end(JSON.stringify({ jsonrpc: "2.0", id, result: { ok: true, method } }));
    }
  });
});

outlastClients(server).listen(Number(values.port), "127.0.0.1", () => {
  const { port } = server.address() as { port: number };
  process.stdout.write(`fault-origin listening http://127.0.0.1:${port}/\n`);
});
process.on("SIGTERM", () => process.exit(0));
