// A body over the cap, in each framing, from each kind of client (test/fixtures/oversized-bodies.json), to the
// built bundle in workerd and to `wrangler dev`: every client reads its 413, nothing reaches the origin, and
// the next request is served. The 413 is sent once the cap is crossed (a client reading as it sends sees it
// while most of its body is unsent); the worker reads and drops the rest behind it, so that the runtime never
// closes the connection on unread bytes, whose reset would erase the 413 from the client's buffers
// (src/http/body.ts, lingerBehind).
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveBundle } from "../../bench/lib";
import { workerdRssMiB } from "../../bench/process-tree";
import oversized from "../fixtures/oversized-bodies.json";
import { builtBundle } from "../support/built-bundle";
import { outlastClients } from "../support/keep-alive";
import { startWranglerDev } from "../support/processes";
import { type BodyClient, type Framing, oversizedExchange, raw, STOPS_WAIT_AFTER } from "../support/raw-http";

const MiB = 1024 * 1024;
const cases = oversized.cases as [Framing, BodyClient, number][];

let origin: Server;
let originUrl: string;
let calls = 0;
const stops: Array<() => Promise<unknown>> = [];

beforeAll(async () => {
  origin = createServer((req, res) => {
    calls++;
    req.resume();
    req.on("end", () => res.writeHead(200, { "content-type": "application/json" }).end('{"jsonrpc":"2.0","id":"after","result":{}}'));
  });
  await new Promise<void>((resolve) => outlastClients(origin).listen(0, "127.0.0.1", resolve));
  originUrl = `http://127.0.0.1:${(origin.address() as { port: number }).port}/`;
  stops.push(() => new Promise((resolve) => origin.close(resolve)));
});
afterAll(async () => {
  for (const stop of stops.reverse()) await stop();
});

const TARGETS = [
  [
    "workerd (built bundle)",
    async (vars: Record<string, string>) => {
      const served = await serveBundle(builtBundle(), vars);
      stops.push(served.stop);
      return Number(served.url.port);
    },
  ],
  [
    "wrangler dev",
    async (vars: Record<string, string>) => {
      const { dev, base } = await startWranglerDev(Object.entries(vars).flatMap(([name, value]) => ["--var", `${name}:${value}`]));
      stops.push(dev.stop);
      return Number(new URL(base).port);
    },
  ],
] as const;

/** How each client sends, in the test's name. */
const CLIENT_IS = { keeps: "keeps sending", stops: "stops sending at the 413", first: "sends it all before reading" } as const;

const after = `{"jsonrpc":"2.0","id":"after","method":"GetTask","params":{"id":"t"}}`;
const post = (body: string) =>
  `POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`;

describe.each(TARGETS)("a body over the cap, %s", (name, start) => {
  let port: number;
  beforeAll(async () => {
    port = await start({ ORIGIN_URL: originUrl, EDGE_AUTH: "off" });
  });

  it.for(cases.map(([framing, client, mib]) => [framing, CLIENT_IS[client], mib, client] as const))(
    "%s, a client that %s, %i MiB: reads its 413; nothing reaches the origin",
    async ([framing, , mib, client], { annotate }) => {
      const before = calls;
      const rssBefore = name.startsWith("workerd") ? workerdRssMiB() : undefined;
      const reply = await oversizedExchange(port, framing, client, mib * MiB);
      await annotate(
        `413 after ${(reply.sentAtStatus / MiB).toFixed(1)} MiB sent, ${(reply.sent / MiB).toFixed(1)} MiB in all` +
          (rssBefore === undefined ? "" : `; workerd RSS ${rssBefore.toFixed(0)} -> ${workerdRssMiB().toFixed(0)} MiB`),
      );
      expect(reply.status).toBe(413);
      expect(JSON.parse(reply.body)).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32600 } });
      if (client === "first") expect(reply.sent).toBeGreaterThanOrEqual(mib * MiB); // it read nothing before its last byte
      // Answered once the cap is crossed, not after the whole body: this client sends no more than
      // STOPS_WAIT_AFTER until the status line comes, so an answer held for the rest would never come.
      if (client === "stops") {
        expect(reply.sentAtStatus).toBeLessThan(STOPS_WAIT_AFTER + 64 * 1024); // its last 64 KiB write, framed
        expect(reply.sent).toBe(reply.sentAtStatus);
      }
      expect(calls - before).toBe(0);
      // The next request, on a new connection, is served.
      expect((await raw(port, post(after))).status).toBe(200);
      expect(calls - before).toBe(1);
    },
  );
});
