// bench:cpu's streamed rows (STREAM_RESUME, src/streams/): a ~1 KiB SendStreamingMessage of a caller the edge
// authenticated (an API key) to a fixed SSE origin that answers at once with K events (proxy-targets.ts
// fixedSseOrigin, its own process), through the edge with STREAM_RESUME=on (a TaskStream Durable Object per
// call, SQLite, one row per event) and off. The Durable Object runs in the Worker's own workerd here, so that
// process's CPU counts both; on Cloudflare the object may run elsewhere and its storage is replicated, so the
// latency figures are local ones. Each streamed response timed here is also checked: K events, each with its
// `id:` when kept, the last the completed status.
import { readdirSync } from "node:fs";
import { Agent, request as httpRequest } from "node:http";
import { cpuMicros, pidOf } from "./cpu";
import type { Load } from "./measure";
import { rssMiB } from "./process-tree";

/** K: the events of each streamed call; a second K splits CPU per call from CPU per event. */
export const STREAM_EVENTS = 20;
export const STREAM_EVENTS_LONG = 50;

/** The TaskStream binding as wrangler.toml declares it (every streamed target has it; STREAM_RESUME says if it is used). */
export const TASK_STREAMS = { durableObjects: { TASK_STREAMS: { className: "TaskStream", useSQLite: true } } };

/** How long a round of kept streams may take to settle: workerd evicts an idle object ~10 s after its last use. */
const SETTLE_MS = 15_000;
/** The CPU each kept-streams round spent after its load ended (the objects' eviction), µs per call, by URL. */
const tails = new Map<string, number[]>();

/**
 * A load round against a STREAM_RESUME=on target that ends when its Durable Objects are gone: each object holds
 * its SQLite files open (3 descriptors) until workerd evicts it, so the round waits (at most SETTLE_MS) until the
 * workerd holds no more descriptors than before it. That CPU is the round's (withCpu reads it after this), and
 * it no longer lands in the next target's round.
 */
export async function settled(url: string, run: () => Promise<Load>): Promise<Load> {
  const pid = pidOf(url);
  const descriptors = () => readdirSync(`/proc/${pid}/fd`).length;
  const before = descriptors();
  const load = await run();
  const ended = cpuMicros(pid);
  const deadline = Date.now() + SETTLE_MS;
  while (descriptors() > before + 5 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 250));
  tails.set(url, [...(tails.get(url) ?? []), (cpuMicros(pid) - ended) / Math.max(1, load.total)]);
  return load;
}

/** A target's worker log: its error and warn lines counted, the first few kept (the rows' logs are otherwise dropped). */
export class WorkerLog {
  count = 0;
  readonly first: string[] = [];
  readonly handle = ({ level, message }: { level: string; message: string }): void => {
    if (level !== "error" && level !== "warn") return;
    if (message.includes('"event":"bundled_document_sample"')) return;
    this.count++;
    if (this.first.length < 3) this.first.push(`${level}: ${message.slice(0, 300)}`);
  };
}

/** What one streamed response carried, against what the origin sent. */
export function streamProblem(text: string, events: number, kept: boolean): string | undefined {
  const data = text.match(/^data: /gm)?.length ?? 0;
  const ids = text.match(/^id: /gm)?.length ?? 0;
  if (data !== events) return `${data} events of ${events}`;
  if (kept && ids !== events) return `${ids} id: lines for ${events} events`;
  if (!kept && ids !== 0) return `${ids} id: lines, not kept`;
  if (text.includes('"error"')) return "an error event";
  const last = text.trimEnd().split("\n").at(-1) ?? "";
  if (!last.includes("TASK_STATE_COMPLETED")) return "the last event is not the completed status";
  return undefined;
}

export interface StreamTimes {
  /** The median time from sending the request to the first whole event, ms. */
  firstEventMs: number;
  /** The median time to the stream's end, ms. */
  wholeMs: number;
  samples: number;
  /** Responses that were not what the origin sent (streamProblem), and the first such. */
  wrong: number;
  firstWrong?: string;
}

const BATCHES = 5;
const BATCH = 40;

/**
 * First-event latency at one connection: `body` POSTed to each target call by call on one keep-alive
 * connection per target, batches alternated, medians of all; every response read to its end and checked.
 */
export async function firstEvents(
  targets: Record<string, { url: string; kept: boolean }>,
  headers: Record<string, string>,
  body: string,
  events: number,
): Promise<Record<string, StreamTimes>> {
  const names = Object.keys(targets);
  const agents = new Map(names.map((name) => [name, new Agent({ keepAlive: true, maxSockets: 1 })]));
  const first = new Map(names.map((name) => [name, [] as number[]]));
  const whole = new Map(names.map((name) => [name, [] as number[]]));
  const wrong = new Map(names.map((name) => [name, [] as string[]]));
  const one = (name: string) =>
    new Promise<{ first: number; whole: number; text: string }>((resolve, reject) => {
      const started = performance.now();
      let firstAt = Number.NaN;
      let text = "";
      const req = httpRequest(targets[name]?.url ?? "", { method: "POST", headers, agent: agents.get(name) }, (res) => {
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          text += chunk;
          if (Number.isNaN(firstAt) && text.includes("data:") && text.includes("\n\n")) firstAt = performance.now();
        });
        res.on("end", () => {
          if (res.statusCode !== 200) reject(new Error(`${name}: HTTP ${res.statusCode} ${text.slice(0, 200)}`));
          else resolve({ first: firstAt - started, whole: performance.now() - started, text });
        });
      });
      req.on("error", reject);
      req.end(body);
    });
  for (const name of names) for (let i = 0; i < 10; i++) await one(name); // warm
  for (let batch = 0; batch < BATCHES; batch++) {
    for (const name of names) {
      for (let i = 0; i < BATCH; i++) {
        const sample = await one(name);
        first.get(name)?.push(sample.first);
        whole.get(name)?.push(sample.whole);
        const problem = streamProblem(sample.text, events, targets[name]?.kept ?? false);
        if (problem) wrong.get(name)?.push(problem);
      }
    }
  }
  for (const agent of agents.values()) agent.destroy();
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
  return Object.fromEntries(
    names.map((name) => {
      const problems = wrong.get(name) ?? [];
      const times: StreamTimes = {
        firstEventMs: median(first.get(name) ?? []),
        wholeMs: median(whole.get(name) ?? []),
        samples: BATCHES * BATCH,
        wrong: problems.length,
        ...(problems[0] ? { firstWrong: problems[0] } : {}),
      };
      return [name, times];
    }),
  );
}

/** Resident memory of the workerd serving `url`, MiB. */
export const rssOf = (url: string): number => rssMiB([pidOf(url)]);

const pct = (x: number) => `${x >= 0 ? "+" : ""}${(x * 100).toFixed(1)}%`;

/** The streamed rows' own A/A spread: off in two processes of this build, at K events. */
export function streamSpread(rows: Record<string, Load>): number {
  const a = rows[`stream off, ${STREAM_EVENTS} events`]?.cpuMicrosPerRequest ?? Number.NaN;
  const b = rows[`stream off (A/A), ${STREAM_EVENTS} events`]?.cpuMicrosPerRequest ?? Number.NaN;
  return Math.abs(a - b) / ((a + b) / 2);
}

/**
 * What STREAM_RESUME=on costs over off: CPU per event at each K (the workerd's CPU per call / K), CPU per call and
 * per event fitted through both Ks, the workerds' memory after the rounds; then the first event's latency at one
 * connection (each response checked) and the worker logs' error and warn lines.
 */
export async function reportStreams(
  rows: Record<string, Load>,
  edges: ReadonlyMap<string, string>,
  logs: ReadonlyMap<string, WorkerLog>,
  origin: string,
  headers: Record<string, string>,
  body: (events: number) => string,
): Promise<void> {
  const cpu = (label: string, events: number) => rows[`${label}, ${events} events`]?.cpuMicrosPerRequest ?? Number.NaN;
  console.log(
    `\nstreamed call, authenticated caller: workerd CPU per event (CPU per call / K; the TaskStream runs in the Worker's workerd, counted); A/A spread ${pct(streamSpread(rows))}`,
  );
  for (const events of [STREAM_EVENTS, STREAM_EVENTS_LONG]) {
    const on = cpu("stream on", events) / events;
    const off = cpu("stream off", events) / events;
    console.log(`  K=${events}: on ${on.toFixed(1)} µs, off ${off.toFixed(1)} µs per event; on / off ${(on / off).toFixed(2)}x`);
  }
  const span = STREAM_EVENTS_LONG - STREAM_EVENTS;
  for (const label of ["stream on", "stream off"]) {
    const perEvent = (cpu(label, STREAM_EVENTS_LONG) - cpu(label, STREAM_EVENTS)) / span;
    const perCall = cpu(label, STREAM_EVENTS) - STREAM_EVENTS * perEvent;
    console.log(`  ${label.padEnd(10)} fitted: ${perCall.toFixed(0)} µs per call + ${perEvent.toFixed(1)} µs per event`);
  }
  const tail = [...(tails.get(edges.get("stream on") ?? "") ?? [])].sort((a, b) => a - b);
  const median = tail[Math.floor(tail.length / 2)] ?? Number.NaN;
  console.log(`  of on's CPU per call, after each round's load (the objects' eviction, counted): ${median.toFixed(0)} µs (median round)`);
  const rss = (label: string) => rssOf(edges.get(label) ?? "");
  console.log(`  workerd RSS after the rounds: on ${rss("stream on").toFixed(0)} MiB, off ${rss("stream off").toFixed(0)} MiB`);

  const targets = {
    "origin directly": { url: origin, kept: false },
    "stream on": { url: edges.get("stream on") ?? "", kept: true },
    "stream off": { url: edges.get("stream off") ?? "", kept: false },
  };
  const times = await firstEvents(targets, headers, body(STREAM_EVENTS), STREAM_EVENTS);
  console.log(
    `\nfirst event of a ${STREAM_EVENTS}-event stream, 1 connection, medians of ${times["stream on"]?.samples} calls each, alternated`,
  );
  for (const [name, t] of Object.entries(times)) {
    const wrong = t.wrong === 0 ? "every response whole" : `${t.wrong} responses wrong (first: ${t.firstWrong})`;
    console.log(`  ${name.padEnd(16)} first event ${t.firstEventMs.toFixed(3)} ms, whole stream ${t.wholeMs.toFixed(3)} ms; ${wrong}`);
  }
  const on = times["stream on"]?.firstEventMs ?? Number.NaN;
  const off = times["stream off"]?.firstEventMs ?? Number.NaN;
  console.log(`  first event on / off ${(on / off).toFixed(2)}x (+${(on - off).toFixed(3)} ms)`);
  for (const [label, log] of logs) {
    if (log.count === 0) continue;
    console.log(`  worker log of ${label}: ${log.count} error/warn lines, first: ${log.first.join(" | ")}`);
  }
  if ([...logs.values()].every((log) => log.count === 0)) console.log("  worker logs of the streamed targets: no error or warn line");
}
