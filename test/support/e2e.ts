// Pieces every end-to-end suite uses: the worker under `wrangler dev` with
// variables, streams collected, origin events held until a test lets them go,
// and the data of each SSE event of a body.
import { randomUUID } from "node:crypto";
import { type Started, startWranglerDev } from "./processes";
import { latch } from "./wait";

/** The worker under `wrangler dev`, each variable as `--var NAME:value`. */
export function startWorker(vars: Record<string, string>): Promise<{ dev: Started; base: string }> {
  return startWranglerDev(Object.entries(vars).flatMap(([name, value]) => ["--var", `${name}:${value}`]));
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
