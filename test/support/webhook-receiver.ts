// A webhook receiver on 127.0.0.1 for the push suites and `npm run receiver`: every POST recorded (headers,
// body, the path it came to), answered 200.
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { outlastClients } from "./keep-alive";

export interface Delivery {
  headers: IncomingHttpHeaders;
  /** The body as UTF-8. */
  body: string;
  /** The body's bytes, exactly as received (what a JWT's `request_body_sha256` is the digest of). */
  bytes: Buffer;
  /** The request target (`/hook`). */
  path: string;
}

export interface ReceiverOptions {
  /** Default 0 (ephemeral). */
  port?: number;
  /** The path of the URL it reports, default `/hook` (it answers every path). */
  path?: string;
  /** Told of each delivery once its body is in, after it is recorded and answered. */
  onDelivery?: (delivery: Delivery) => void;
}

/** A webhook receiver on 127.0.0.1 that records every POST. Rejects when it cannot listen (a port in use). */
export async function startReceiver(
  options: ReceiverOptions = {},
): Promise<{ url: string; deliveries: Delivery[]; stop: () => Promise<void> }> {
  const deliveries: Delivery[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const bytes = Buffer.concat(chunks);
      const delivery = { headers: req.headers, body: bytes.toString("utf8"), bytes, path: req.url ?? "/" };
      deliveries.push(delivery);
      res.writeHead(200).end();
      options.onDelivery?.(delivery);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    outlastClients(server).listen(options.port ?? 0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${options.path ?? "/hook"}`,
    deliveries,
    stop: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
