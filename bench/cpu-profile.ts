// CPU profiles of a worker in workerd, taken through workerd's V8 inspector (the Chrome DevTools
// Protocol's Profiler domain, what `wrangler dev`'s DevTools "Performance" tab uses): Miniflare's
// `inspectorPort` opens it, one WebSocket per worker (`ws://127.0.0.1:<port>/core:user:<name>`).
// A profile is summarized by self time: each sample's function, its place in the built (minified) bundle
// mapped back to the source by the bundle's source map, and the runtime's own entries: `runtime API` for
// its functions the bundle calls (fetch, Response, setTimeout ...: native, their self time is workerd's),
// `runtime` for (program) (workerd's C++ work outside JavaScript, HTTP parsing included) and (garbage
// collector); (idle), waiting for I/O, is left out.
import { readFileSync } from "node:fs";
import { SourceMap, type SourceMapPayload } from "node:module";

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
}
export interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** One DevTools Protocol session on a worker's inspector WebSocket. */
export async function inspect(url: string): Promise<{ send: (method: string, params?: object) => Promise<unknown>; close: () => void }> {
  const socket = new WebSocket(url);
  await new Promise<void>((resolve, reject) => {
    socket.addEventListener("open", () => resolve(), { once: true });
    socket.addEventListener("error", () => reject(new Error(`inspector: cannot connect to ${url}`)), { once: true });
  });
  let next = 1;
  const waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown; error?: { message: string } };
    const pending = message.id === undefined ? undefined : waiting.get(message.id);
    if (!pending) return;
    waiting.delete(message.id!);
    if (message.error) pending.reject(new Error(`inspector: ${message.error.message}`));
    else pending.resolve(message.result);
  });
  const send = (method: string, params: object = {}) =>
    new Promise<unknown>((resolve, reject) => {
      const id = next++;
      waiting.set(id, { resolve, reject });
      socket.send(JSON.stringify({ id, method, params }));
    });
  return { send, close: () => socket.close() };
}

/** The inspector WebSocket of the worker named `name`, from workerd's `/json` listing. */
export async function inspectorUrl(port: number, name: string): Promise<string> {
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json`)).json()) as Array<{ id: string; webSocketDebuggerUrl: string }>;
  const target = targets.find((t) => t.id === `core:user:${name}`);
  if (!target) throw new Error(`inspector: no worker ${name} among ${targets.map((t) => t.id).join(", ")}`);
  return target.webSocketDebuggerUrl;
}

/** Profiles the worker while `work` runs; `intervalUs` is V8's sampling interval. */
export async function profileWhile<T>(url: string, work: () => Promise<T>, intervalUs = 100): Promise<{ profile: CpuProfile; result: T }> {
  const session = await inspect(url);
  try {
    await session.send("Profiler.enable");
    await session.send("Profiler.setSamplingInterval", { interval: intervalUs });
    await session.send("Profiler.start");
    const result = await work();
    const { profile } = (await session.send("Profiler.stop")) as { profile: CpuProfile };
    await session.send("Profiler.disable");
    return { profile, result };
  } finally {
    session.close();
  }
}

/**
 * A place in the built bundle (0-based line and column, as the profile gives a function's start) -> its
 * source module, line and function, from the bundle's source map (wrangler.toml `upload_source_maps`:
 * the bundle is minified, its names are not the source's). node:module's SourceMap reads it.
 */
export function sourceOf(bundlePath: string): (line: number, column: number) => { where: string; name?: string } {
  const payload = JSON.parse(readFileSync(`${bundlePath}.map`, "utf8")) as SourceMapPayload & { sourcesContent?: string[] };
  const map = new SourceMap(payload);
  const lines = new Map<string, string[]>();
  payload.sources.forEach((source, index) => {
    lines.set(source, (payload.sourcesContent?.[index] ?? "").split("\n"));
  });
  return (line, column) => {
    const entry = map.findEntry(line, column) as { originalSource?: string; originalLine?: number; name?: string };
    if (entry.originalSource === undefined || entry.originalLine === undefined) return { where: "(bundle)" };
    const text = lines.get(entry.originalSource)?.[entry.originalLine]?.trim() ?? "";
    const declared = /(?:function\*?|class|const|let|get|set|async)\s+([#\w$]+)/.exec(text)?.[1] ?? /^([#\w$]+)\s*[(=:]/.exec(text)?.[1];
    const source = entry.originalSource.replace(/^.*?node_modules\//, "").replace(/^(?:.*\/)?(src\/)/, "$1");
    return { where: `${source}:${entry.originalLine + 1}`, name: entry.name ?? declared };
  };
}

export interface SelfTime {
  name: string;
  /** The module (src/..., hono/..., or the runtime's own entry). */
  where: string;
  us: number;
}

/** Self time per function (and per module), busy time and idle time, in µs. */
export function selfTimes(profile: CpuProfile, sourceAt: ReturnType<typeof sourceOf>) {
  const byNode = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const functions = new Map<string, SelfTime>();
  const modules = new Map<string, number>();
  let idle = 0;
  let busy = 0;
  for (const [index, id] of profile.samples.entries()) {
    // A sample's time is the interval until the next one (the last sample's, the mean).
    const us = profile.timeDeltas[index + 1] ?? (profile.endTime - profile.startTime) / profile.samples.length;
    const frame = byNode.get(id)!;
    if (frame.functionName === "(idle)") {
      idle += us;
      continue;
    }
    busy += us;
    const runtime = frame.url === "";
    const place = runtime
      ? { where: frame.functionName.startsWith("(") ? "runtime" : "runtime API" }
      : sourceAt(frame.lineNumber, frame.columnNumber);
    const name = (runtime ? frame.functionName : place.name) || frame.functionName || "(anonymous)";
    const module = place.where.replace(/:\d+$/, "");
    const key = `${name} ${place.where}`;
    const entry = functions.get(key) ?? { name, where: place.where, us: 0 };
    entry.us += us;
    functions.set(key, entry);
    modules.set(module, (modules.get(module) ?? 0) + us);
  }
  const sorted = [...functions.values()].sort((a, b) => b.us - a.us);
  const byModule = [...modules.entries()].map(([where, us]) => ({ where, us })).sort((a, b) => b.us - a.us);
  return { functions: sorted, modules: byModule, busy, idle };
}
