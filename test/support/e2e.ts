// Pieces every end-to-end suite uses: the worker as deployed (the built bundle in workerd) with
// variables, streams collected, origin events held until a test lets them go, and the data of each SSE
// event of a body.
import { randomUUID } from "node:crypto";
import { type EdgeOptions, type Runtime, startEdge } from "./edge-runtimes";
import { latch } from "./wait";

/** A worker an end-to-end suite started: its log so far, and how to stop it. */
export interface Served {
  output(): string;
  stop(): Promise<void>;
}

/**
 * The built bundle in workerd (Miniflare, a direct socket), each variable a binding beside wrangler.toml's
 * [vars], with wrangler.toml's KV and Durable Objects. The end-to-end suites meet their peers there: a
 * `wrangler dev` start costs ~4.5 s of CPU (wrangler, esbuild, two workerd), this one ~0.8 s. The suites over
 * raw sockets run both runtimes (test/support/edge-runtimes.ts), and test/node/local-setup.test.ts runs the
 * README's recipe under `npm run dev`.
 */
export async function startWorker(
  vars: Record<string, string>,
  options: EdgeOptions = {},
  runtime: Runtime = "workerd (built bundle)",
): Promise<{ dev: Served; base: string }> {
  const edge = await startEdge(runtime, vars, options);
  return { dev: { output: edge.output, stop: edge.stop }, base: `http://${edge.host}` };
}

export async function collect<T>(events: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const event of events) all.push(event);
  return all;
}

/** Texts an origin holds after the Task until the test opens that text's latch; texts starting "msg " get a Message. */
export function holds() {
  const open = new Map<string, ReturnType<typeof latch>>();
  return {
    hold: (text: string) => open.get(text)?.promise,
    messageReply: (text: string) => text.startsWith("msg "),
    /** A fresh held text and the latch that lets it go. */
    next(name: string) {
      const text = `hold ${name} ${randomUUID()}`;
      const gate = latch();
      open.set(text, gate);
      return { text, release: gate.open };
    },
    releaseAll: () => {
      for (const gate of open.values()) gate.open();
    },
  };
}

/** The data of each SSE event of a body (its `data:` lines joined, HTML SSE §9.2.6), parsed. */
export function sseData(text: string): unknown[] {
  return text
    .split(/\r?\n\r?\n/)
    .map((block) =>
      block
        .split(/\r?\n/)
        .filter((line) => line.startsWith("data:"))
        .map((line) => line.slice(5).trimStart())
        .join("\n"),
    )
    .filter((data) => data !== "")
    .map((data) => JSON.parse(data));
}
