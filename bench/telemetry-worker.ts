// The worker of bench:proxy's section 9 (bench/telemetry-cost.ts): what telemetry adds to one call, run `n`
// times inside workerd. workerd's clock advances only across I/O (a Spectre mitigation), so each timed loop
// is framed by a timer and an empty loop of the same length is subtracted, as bench/push-guard-worker.ts does.
//   trace:  the call's W3C trace (the client's traceparent read and validated) and the origin's headers;
//   point:  the CALL_METRICS data point (Miniflare's Analytics Engine binding);
//   record: the access record as one JSON log line, with console.log (the line goes to Miniflare's log pipe);
//   line:   the same record built and serialized, without the console (what the isolate does before the sink).
import { type AccessFields, emitAccess } from "../src/observe/access-record";
import { setTraceHeaders, traceOf } from "../src/observe/trace-context";

const fields: AccessFields = {
  binding: "jsonrpc",
  operation: "SendMessage",
  version: "1.0",
  originBinding: "jsonrpc",
  originVersion: "1.0",
  bridged: false,
  caller: "partnerKey:partner",
  agent: "agents.example.com",
  path: "/",
  origin: "agent-origin.example.net",
  attempts: 1,
  bytesIn: 1180,
  taskState: "TASK_STATE_COMPLETED",
  contextId: "5b1b4b8e-7c1f-4a8e-9d1e-3f0c2a7b9e11",
};
const end = { bytes: 412, events: 0, end: "done" as const };
const timing = { firstByteMs: 3, durationMs: 3 };
const clientHeaders = new Headers({ traceparent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", tracestate: "vendor=opaque" });

const clock = async () => {
  await new Promise((resolve) => setTimeout(resolve, 0));
  return Date.now();
};

async function timed(n: number, body: () => unknown): Promise<number> {
  const start = await clock();
  for (let i = 0; i < n; i++) body();
  return (await clock()) - start;
}

export default {
  async fetch(request: Request, env: { CALL_METRICS: AnalyticsEngineDataset }): Promise<Response> {
    const url = new URL(request.url);
    const n = Number(url.searchParams.get("n") ?? "10000");
    const kind = url.searchParams.get("kind") ?? "trace";
    const edge = { runtime: { callMetrics: env.CALL_METRICS } } as unknown as Parameters<typeof emitAccess>[0];
    const noMetrics = { runtime: { callMetrics: undefined } } as unknown as Parameters<typeof emitAccess>[0];
    const bodies: Record<string, () => unknown> = {
      trace: () => setTraceHeaders(new Headers(), traceOf(clientHeaders, true)),
      point: () => env.CALL_METRICS.writeDataPoint({ indexes: ["agents.example.com"], blobs: ["a", "SendMessage"], doubles: [200, 3] }),
      record: () => emitAccess(noMetrics, "0af7651916cd43dd8448eb211c80319c", fields, 200, timing, end, true),
      line: () =>
        JSON.stringify({ level: "info", event: "access", traceId: "0af7651916cd43dd8448eb211c80319c", ...fields, ...end, ...timing }),
      both: () => emitAccess(edge, "0af7651916cd43dd8448eb211c80319c", fields, 200, timing, end, true),
    };
    const body = bodies[kind];
    if (!body) return new Response("unknown kind", { status: 400 });
    const empty = await timed(n, () => undefined);
    const elapsed = await timed(n, body);
    return Response.json({ kind, n, perCallMs: (elapsed - empty) / n });
  },
};
