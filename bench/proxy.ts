// npm run bench:proxy — the proxy's own cost, measured on the built bundle in
// workerd (Miniflare, direct socket), same load tool, alternating rounds:
//  1. a ~1 KiB SendMessage against a fixed-JSON origin: this worker against a
//     bare passthrough worker (`fetch(ORIGIN_URL, {method, headers, body})`, the
//     physical limit of a proxy on this runtime), 16 connections;
//  2. SendMessage against the @a2a-js/sdk origin agent, direct and through the
//     worker, 4 connections (below the Node origin's saturation point);
//  3. time to the first SSE event of SendStreamingMessage, direct and proxied;
//  4. what edge authentication costs: the same SendMessage, 1 connection (pure
//     latency), without a check (EDGE_AUTH=off) and with a JWT check against an
//     oidc-provider issuer (keys already fetched: the steady state).
// Each goal is printed with the figure and whether this run met it.
import { type Cli, cli } from "../scripts/usage";
import { startOriginAgent } from "../test/support/origin-agent";
import { buildBundle, runBench, serve, serveBundle, stopOnExit } from "./lib";
import { BENCH_KNOBS_USAGE, type BenchKnobs, benchKnobs, load, printTable, sideBySide, verdict } from "./measure";
import { BARE_PASSTHROUGH, BUFFERING_PASSTHROUGH, fixedJsonOrigin, sendBody } from "./proxy-targets";

const cmd: Cli = cli("bench:proxy", `usage: ${BENCH_KNOBS_USAGE} [BENCH_PROXY_CONNECTIONS=4] [BENCH_SSE_SAMPLES=200] npm run bench:proxy`);
cmd.parseArgs({ options: {} });
const knobs = benchKnobs(cmd);
const FIRST_EVENT_SAMPLES = cmd.intEnv("BENCH_SSE_SAMPLES", 200, 1);
const PROXY_CONNECTIONS = cmd.intEnv("BENCH_PROXY_CONNECTIONS", 4, 1);

const headers = { "content-type": "application/json", "a2a-version": "1.0" };

/** ms until the first SSE `data:` line arrives, for one SendStreamingMessage. */
async function firstEventMs(url: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(url, {
    method: "POST",
    headers: { ...headers, accept: "text/event-stream" },
    body: sendBody("SendStreamingMessage"),
  });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) throw new Error(`stream ended before an event (HTTP ${response.status}): ${text.slice(0, 200)}`);
    text += decoder.decode(value, { stream: true });
    if (text.includes("data:")) break;
  }
  const elapsed = performance.now() - started;
  await reader.cancel();
  return elapsed;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** Every target, answering (checked), each stopped when the bench ends. */
async function setUp() {
  const bundle = buildBundle();
  const fixed = await fixedJsonOrigin();
  stopOnExit(fixed.close);
  const agent = await startOriginAgent({ streamDelayMs: 0 });
  stopOnExit(() => agent.stop());
  const audience = "https://agent.example/";
  // Imported here: oidc-provider warns about Node 20 as it loads, which would bury a usage error.
  const { startOidcIssuer } = await import("../test/support/oidc-issuer");
  const idp = await startOidcIssuer({ resources: [audience], ttl: 3600 });
  stopOnExit(() => idp.stop());
  const bare = await serve({ modules: true, script: BARE_PASSTHROUGH, bindings: { ORIGIN_URL: fixed.url } });
  const buffering = await serve({ modules: true, script: BUFFERING_PASSTHROUGH, bindings: { ORIGIN_URL: fixed.url } });
  // The bundled card requires a bearer token: the proxy figures are taken without the check, section 4 adds it.
  const edge = await serveBundle(bundle, { ORIGIN_URL: fixed.url, EDGE_AUTH: "off" });
  const edgeJwt = await serveBundle(bundle, { ORIGIN_URL: fixed.url, AUTH_JWT_ISSUER: idp.issuer, AUTH_JWT_AUDIENCE: audience });
  const edgeToAgent = await serveBundle(bundle, { ORIGIN_URL: agent.url, EDGE_AUTH: "off" });
  const withToken = { ...headers, authorization: `Bearer ${await idp.token(idp.clients.agent)}` };

  // Sanity: every target answers the request with a result (the JWT target with the token; this also warms its JWKS).
  for (const [url, sent] of [
    [bare.url.href, headers],
    [edge.url.href, headers],
    [edgeJwt.url.href, withToken],
    [agent.url, headers],
    [edgeToAgent.url.href, headers],
  ] as const) {
    const reply = (await (await fetch(url, { method: "POST", headers: sent, body: sendBody("SendMessage") })).json()) as {
      result?: unknown;
    };
    if (!reply.result) throw new Error(`no result from ${url}: ${JSON.stringify(reply).slice(0, 300)}`);
  }
  return {
    bare: bare.url.href,
    buffering: buffering.url.href,
    edge: edge.url.href,
    edgeJwt: edgeJwt.url.href,
    agent: agent.url,
    edgeToAgent: edgeToAgent.url.href,
    withToken,
  };
}
type Targets = Awaited<ReturnType<typeof setUp>>;

const kib = { method: "POST" as const, body: sendBody("SendMessage", 1024) };

/** 1. The proxy at the runtime's limit. */
async function atTheLimit(t: Targets, { connections }: BenchKnobs): Promise<void> {
  const limit = await sideBySide({
    "bare passthrough (1 KiB)": () => load(t.bare, headers, { request: kib, connections }),
    "buffering passthrough": () => load(t.buffering, headers, { request: kib, connections }),
    "this worker (1 KiB)": () => load(t.edge, headers, { request: kib, connections }),
  });
  printTable(limit);
  const b = limit["bare passthrough (1 KiB)"]!;
  const w = limit["this worker (1 KiB)"]!;
  const ratio = w.requestsPerSecond / b.requestsPerSecond;
  verdict(
    `req/s, this worker / bare passthrough (~1 KiB SendMessage, fixed-JSON origin, ${connections} connections)`,
    ratio.toFixed(3),
    ">= 0.9",
    ratio >= 0.9,
  );
  verdict("p50 over bare passthrough", `${(w.p50 - b.p50).toFixed(2)} ms`, "<= 0.2 ms", w.p50 - b.p50 <= 0.2);
  const floor = limit["buffering passthrough"]!;
  console.log(
    `(for scale: a passthrough that only buffers the body, as edge validation must, does ${(floor.requestsPerSecond / b.requestsPerSecond).toFixed(3)}x the bare passthrough; this worker ${(w.requestsPerSecond / floor.requestsPerSecond).toFixed(3)}x that)`,
  );
}

/** 2. Against a real agent. */
async function againstAgent(t: Targets): Promise<void> {
  const opts = { request: { method: "POST" as const, body: sendBody("SendMessage") }, connections: PROXY_CONNECTIONS };
  const real = await sideBySide({
    "a2a-js origin direct": () => load(t.agent, headers, opts),
    "a2a-js origin via worker": () => load(t.edgeToAgent, headers, opts),
  });
  printTable(real);
  const d = real["a2a-js origin direct"]!;
  const p = real["a2a-js origin via worker"]!;
  verdict(
    `p50 overhead over the a2a-js origin (${PROXY_CONNECTIONS} connections)`,
    `${(p.p50 - d.p50).toFixed(2)} ms`,
    "<= 1 ms",
    p.p50 - d.p50 <= 1,
  );
}

/** 3. Time to first SSE event, sequential samples, alternating direct / proxied. */
async function firstEvent(t: Targets): Promise<void> {
  const samples: Record<"direct" | "proxied", number[]> = { direct: [], proxied: [] };
  for (let i = 0; i < 20; i++) await Promise.all([firstEventMs(t.agent), firstEventMs(t.edgeToAgent)]);
  for (let i = 0; i < FIRST_EVENT_SAMPLES; i++) {
    samples.direct.push(await firstEventMs(t.agent));
    samples.proxied.push(await firstEventMs(t.edgeToAgent));
  }
  const sd = samples.direct.sort((x, y) => x - y);
  const sp = samples.proxied.sort((x, y) => x - y);
  console.log(
    `first SSE event (${FIRST_EVENT_SAMPLES} streams each): direct p50 ${percentile(sd, 50).toFixed(2)} ms p99 ${percentile(sd, 99).toFixed(2)} ms; via worker p50 ${percentile(sp, 50).toFixed(2)} ms p99 ${percentile(sp, 99).toFixed(2)} ms`,
  );
  const overhead = percentile(sp, 50) - percentile(sd, 50);
  verdict("first-event overhead p50", `${overhead.toFixed(2)} ms`, "<= 5 ms", overhead <= 5);
}

/** 4. Edge authentication: one connection, so p50 is the time one request takes. */
async function edgeAuth(t: Targets): Promise<void> {
  const single = { request: kib, connections: 1 };
  const auth = await sideBySide({
    "this worker, EDGE_AUTH=off": () => load(t.edge, headers, single),
    "this worker, JWT checked": () => load(t.edgeJwt, t.withToken, single),
  });
  printTable(auth);
  const off = auth["this worker, EDGE_AUTH=off"]!;
  const jwt = auth["this worker, JWT checked"]!;
  if (jwt.non2xx > 0 || jwt.errors > 0) throw new Error(`the JWT target answered ${jwt.non2xx} non-2xx and ${jwt.errors} errors`);
  const added = jwt.p50 - off.p50;
  verdict("p50 added by edge auth (RS256 JWT, warm JWKS, 1 connection)", `${added.toFixed(3)} ms`, "<= 0.2 ms", added <= 0.2);
}

await runBench(async () => {
  const targets = await setUp();
  console.log(
    `bench:proxy — ${knobs.rounds} rounds x ${knobs.duration}s, ${knobs.tool}, 127.0.0.1; workers in workerd via Miniflare (direct socket)`,
  );
  await atTheLimit(targets, knobs);
  await againstAgent(targets);
  await firstEvent(targets);
  await edgeAuth(targets);
  return 0;
});
