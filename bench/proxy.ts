// npm run bench:proxy — the proxy's own cost, measured on the built bundle in
// workerd (Miniflare, direct socket), same load tool, alternating rounds:
//  1. a ~1 KiB SendMessage against a fixed-JSON origin: this worker, in its
//     measured configuration (every feature on), beside a bare passthrough and
//     a buffering, parsing passthrough, at 16 connections and at 1 (bench/limit.ts);
//  2. SendMessage against the @a2a-js/sdk origin agent, direct and through the
//     worker, 4 connections (below the Node origin's saturation point);
//  3. time to the first SSE event of SendStreamingMessage, direct and proxied;
//  4. what edge authentication costs: the same SendMessage, 1 connection (pure
//     latency), without a check (EDGE_AUTH=off) and with a JWT check against an
//     oidc-provider issuer (keys already fetched: the steady state);
//  5. what the version bridge costs a SendMessage, both directions,
//     1 connection: a 0.3 client's message/send to a 1.0-only origin beside the
//     same call to a 0.3 origin, and a 1.0 SendMessage to a 0.3-only origin
//     beside the same call to a 1.0 origin (fixed-JSON origins answering in their
//     own version, so the origin's cost is out);
//  6. what it costs the first SSE event: a 0.3 client's message/stream to a
//     1.0-only @a2a-js/sdk origin agent beside a 1.0 SendStreamingMessage to it,
//     through the same worker;
//  7. the REST binding: a REST SendMessage to a JSON-RPC origin and to a
//     REST-only origin, beside JSON-RPC to a JSON-RPC origin (1 connection);
//  8. with BENCH_BASELINE=<another build's index.js> (`npx wrangler deploy
//     --dry-run --outdir DIR` on another checkout): this build beside that one,
//     target by target in the same run (16-connection req/s, 1-connection p50,
//     and each target's workerd CPU time per request: bench/cpu.ts);
//  9. what telemetry costs a SendMessage, 1 connection: the access record and
//     the CALL_METRICS data point of every call (ACCESS_LOG=all) beside neither
//     (ACCESS_LOG=off, unbound), and the default (ACCESS_LOG=errors: a successful
//     call unrecorded, its data point written); the trace context is in all three.
// 10. the card GET beside a static-bytes worker (bench/limit.ts);
// 11. cold start inside one running workerd: a fresh isolate of the bundle beside
//     one of a static-bytes worker, same bindings (bench/limit.ts).
// Sections 1, 10 and 11 put BENCH_BASELINE's build beside this one, in the same run.
// BENCH_SECTIONS=1,7,8 runs only those sections.
// Each goal is printed with the figure and whether this run met it.
import { existsSync } from "node:fs";
import { type Cli, cli } from "../scripts/usage";
import { startOidcIssuer } from "../test/support/oidc-issuer";
import { startOriginAgent } from "../test/support/origin-agent";
import { withCpu } from "./cpu";
import { buildBundle, runBench, serveBundle, stopOnExit } from "./lib";
import { atTheLimit, cardLimit, coldStart, limitTargets } from "./limit";
import { BENCH_KNOBS_USAGE, type BenchKnobs, benchKnobs, type LoadOptions, load, printTable, sideBySide, verdict } from "./measure";
import { fixedJsonOrigin, sendBody, sendBody03 } from "./proxy-targets";
import { telemetryCost, telemetryTargets } from "./telemetry-cost";

const cmd: Cli = cli(
  "bench:proxy",
  `usage: ${BENCH_KNOBS_USAGE} [BENCH_PROXY_CONNECTIONS=4] [BENCH_SSE_SAMPLES=200] [BENCH_SECTIONS=1,...,11] [BENCH_BASELINE=dir/index.js] npm run bench:proxy`,
);
cmd.parseArgs({ options: {} });
const knobs = benchKnobs(cmd);
const FIRST_EVENT_SAMPLES = cmd.intEnv("BENCH_SSE_SAMPLES", 200, 1);
const PROXY_CONNECTIONS = cmd.intEnv("BENCH_PROXY_CONNECTIONS", 4, 1);
const BASELINE = process.env.BENCH_BASELINE;
if (BASELINE !== undefined && !existsSync(BASELINE)) cmd.usageError(`BENCH_BASELINE: no file ${BASELINE}`);
const SECTIONS = new Set((process.env.BENCH_SECTIONS ?? "1,2,3,4,5,6,7,8,9,10,11").split(",").map((n) => n.trim()));
if ([...SECTIONS].some((n) => !/^([1-9]|1[01])$/.test(n))) cmd.fail("BENCH_SECTIONS: a comma-separated list of 1-11");

const headers = { "content-type": "application/json", "a2a-version": "1.0" };

/** What a 0.3 client sends: no A2A-Version (its method names the generation). */
const headers03 = { "content-type": "application/json" };

/** ms until the first SSE `data:` line arrives, for one streaming call, and the text read by then. */
async function readFirstEvent(
  url: string,
  body = sendBody("SendStreamingMessage"),
  sent: Record<string, string> = headers,
): Promise<{ ms: number; text: string }> {
  const started = performance.now();
  const response = await fetch(url, { method: "POST", headers: { ...sent, accept: "text/event-stream" }, body });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) throw new Error(`stream ended before an event (HTTP ${response.status}): ${text.slice(0, 200)}`);
    text += decoder.decode(value, { stream: true });
    if (text.includes("data:")) break;
  }
  const ms = performance.now() - started;
  await reader.cancel();
  return { ms, text };
}

const firstEventMs = async (url: string, body?: string, sent?: Record<string, string>) => (await readFirstEvent(url, body, sent)).ms;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** Every target, answering (checked), each stopped when the bench ends. */
async function setUp() {
  const bundle = buildBundle();
  const fixed = await fixedJsonOrigin();
  stopOnExit(fixed.close);
  const agent = await startOriginAgent({ streamDelayMs: 0 });
  stopOnExit(() => agent.stop());
  const audience = "https://agent.example/";
  const idp = await startOidcIssuer({ resources: [audience], ttl: 3600 });
  stopOnExit(() => idp.stop());
  // The bundled card requires a bearer token: the proxy figures are taken without the check, section 4 adds it.
  const edge = await serveBundle(bundle, { ORIGIN_URL: fixed.url, EDGE_AUTH: "off" });
  const edgeJwt = await serveBundle(bundle, { ORIGIN_URL: fixed.url, AUTH_JWT_ISSUER: idp.issuer, AUTH_JWT_AUDIENCE: audience });
  const edgeToAgent = await serveBundle(bundle, { ORIGIN_URL: agent.url, EDGE_AUTH: "off" });
  const withToken = { ...headers, authorization: `Bearer ${await idp.token(idp.clients.agent)}` };
  // The bridge: fixed-JSON origins that speak one version each, and a 1.0-only origin agent.
  const fixed03 = await fixedJsonOrigin("0.3");
  stopOnExit(fixed03.close);
  const agentV1 = await startOriginAgent({ streamDelayMs: 0, onlyV1: true });
  stopOnExit(() => agentV1.stop());
  const onlyV1 = await serveBundle(bundle, { ORIGIN_URL: fixed.url, ORIGIN_PROTOCOL_VERSIONS: "1.0", EDGE_AUTH: "off" });
  const onlyV03 = await serveBundle(bundle, { ORIGIN_URL: fixed03.url, ORIGIN_PROTOCOL_VERSIONS: "0.3", EDGE_AUTH: "off" });
  const toAgentV1 = await serveBundle(bundle, { ORIGIN_URL: agentV1.url, ORIGIN_PROTOCOL_VERSIONS: "1.0", EDGE_AUTH: "off" });
  // The REST binding in front of the same fixed-JSON origin: a REST call becomes its JSON-RPC call and back.
  const rest = await serveBundle(bundle, { ORIGIN_URL: fixed.url, EDGE_AUTH: "off", REST_PATH: "/rest" });
  // A REST-only origin (ORIGIN_BINDING=http+json): REST calls pass through as REST.
  const fixedRest = await fixedJsonOrigin("rest");
  stopOnExit(fixedRest.close);
  const toRest = await serveBundle(bundle, {
    ORIGIN_BINDING: "http+json",
    ORIGIN_REST_URL: fixedRest.url,
    EDGE_AUTH: "off",
    REST_PATH: "/rest",
  });
  const restToRest = `${toRest.url.href}rest/message:send`;
  const passed = await (await fetch(restToRest, { method: "POST", headers: restHeaders, body: restBody })).text();
  if (!passed.startsWith('{"message":{')) throw new Error(`REST origin: expected a SendMessageResponse, got ${passed.slice(0, 300)}`);
  const restSend = `${rest.url.href}rest/message:send`;
  // The same targets served by another build (BENCH_BASELINE), for section 8.
  const baseline = BASELINE === undefined ? undefined : await baselineTargets({ path: BASELINE }, fixed.url, fixed03.url, fixedRest.url);
  const restReply = await (await fetch(restSend, { method: "POST", headers: restHeaders, body: restBody })).text();
  if (!restReply.startsWith('{"message":{')) throw new Error(`REST: expected a SendMessageResponse, got ${restReply.slice(0, 300)}`);

  // Sanity: every target answers the request with a result (the JWT target with the token; this also warms its JWKS).
  for (const [url, sent] of [
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
  // Sanity for the bridge: each answer comes back in the caller's version (a 0.3 `kind`, a 1.0 oneof member).
  for (const [url, body, sent, shape] of [
    [onlyV1.url.href, sendBody03("message/send"), headers03, '"result":{"kind":"message"'],
    [onlyV03.url.href, sendBody03("message/send"), headers03, '"result":{"kind":"message"'],
    [onlyV1.url.href, sendBody("SendMessage"), headers, '"result":{"message":{'],
    [onlyV03.url.href, sendBody("SendMessage"), headers, '"result":{"message":{'],
  ] as const) {
    const reply = await (await fetch(url, { method: "POST", headers: sent, body })).text();
    if (!reply.includes(shape)) throw new Error(`${url}: expected ${shape} in ${reply.slice(0, 300)}`);
  }
  for (const [body, sent, shape] of [
    [sendBody03("message/stream"), headers03, '"result":{"kind":"task"'],
    [sendBody("SendStreamingMessage"), headers, '"result":{"task":{'],
  ] as const) {
    const { text } = await readFirstEvent(toAgentV1.url.href, body, sent);
    if (!text.includes(shape)) throw new Error(`first event: expected ${shape} in ${text.slice(0, 300)}`);
  }
  const telemetry = await telemetryTargets(bundle, fixed.url);
  const limit = await limitTargets(bundle, fixed.url, BASELINE === undefined ? undefined : { path: BASELINE });
  return {
    limit,
    telemetry,
    baseline,
    rest: rest.url.href,
    restSend,
    restToRest,
    onlyV1: onlyV1.url.href,
    onlyV03: onlyV03.url.href,
    toAgentV1: toAgentV1.url.href,
    edge: edge.url.href,
    edgeJwt: edgeJwt.url.href,
    agent: agent.url,
    edgeToAgent: edgeToAgent.url.href,
    withToken,
  };
}
type Targets = Awaited<ReturnType<typeof setUp>>;

/** Section 8's targets on another build: the JSON-RPC edge, REST to JSON-RPC and to REST, and the bridge. */
async function baselineTargets(bundle: { path: string }, fixed: string, fixed03: string, fixedRest: string) {
  const edge = await serveBundle(bundle, { ORIGIN_URL: fixed, EDGE_AUTH: "off", REST_PATH: "/rest" });
  const toRest = await serveBundle(bundle, {
    ORIGIN_BINDING: "http+json",
    ORIGIN_REST_URL: fixedRest,
    EDGE_AUTH: "off",
    REST_PATH: "/rest",
  });
  const onlyV03 = await serveBundle(bundle, { ORIGIN_URL: fixed03, ORIGIN_PROTOCOL_VERSIONS: "0.3", EDGE_AUTH: "off" });
  return {
    edge: edge.url.href,
    restSend: `${edge.url.href}rest/message:send`,
    restToRest: `${toRest.url.href}rest/message:send`,
    onlyV03: onlyV03.url.href,
  };
}

const kib = { method: "POST" as const, body: sendBody("SendMessage", 1024) };
/** The same ~1 KiB SendMessage as a REST call: its params are the body of POST /message:send (A2A 1.0 §11). */
const restBody = JSON.stringify((JSON.parse(sendBody("SendMessage", 1024)) as { params: unknown }).params);
const restHeaders = { "content-type": "application/json" };

/** 7. The REST binding: the same SendMessage as a REST call through the worker (translated to JSON-RPC and back) beside the JSON-RPC call. */
async function restSend(t: Targets): Promise<void> {
  const rows = await sideBySide({
    "JSON-RPC SendMessage": () => load(t.rest, headers, { request: kib, connections: 1 }),
    "REST POST /message:send": () => load(t.restSend, restHeaders, { request: { method: "POST", body: restBody }, connections: 1 }),
    "REST to a REST origin": () => load(t.restToRest, restHeaders, { request: { method: "POST", body: restBody }, connections: 1 }),
  });
  printTable(rows);
  for (const [name, row] of Object.entries(rows)) {
    if (row.non2xx > 0 || row.errors > 0) throw new Error(`${name}: ${row.non2xx} non-2xx and ${row.errors} errors`);
  }
  const added = rows["REST POST /message:send"]!.p50 - rows["JSON-RPC SendMessage"]!.p50;
  verdict(
    "p50 added by REST -> JSON-RPC translation (~1 KiB, fixed-JSON origin, 1 connection)",
    `${added.toFixed(3)} ms`,
    "<= 0.3 ms",
    added <= 0.3,
  );
  const passthrough = rows["REST to a REST origin"]!.p50 - rows["JSON-RPC SendMessage"]!.p50;
  verdict(
    "REST to a REST origin, p50 over JSON-RPC to a JSON-RPC origin (1 connection)",
    `${passthrough.toFixed(3)} ms`,
    "<= 0.1 ms",
    passthrough <= 0.1,
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

/** 5. The bridge on SendMessage, one connection: the same call translated and not, per direction. */
async function bridgeSend(t: Targets): Promise<void> {
  const single = (body: string) => ({ request: { method: "POST" as const, body }, connections: 1 });
  const call03 = single(sendBody03("message/send", 1024));
  const call1 = single(sendBody("SendMessage", 1024));
  const rows = await sideBySide({
    "0.3 call, 0.3 origin": () => load(t.onlyV03, headers03, call03),
    "0.3 call, 1.0-only origin": () => load(t.onlyV1, headers03, call03),
    "1.0 call, 1.0 origin": () => load(t.onlyV1, headers, call1),
    "1.0 call, 0.3-only origin": () => load(t.onlyV03, headers, call1),
  });
  printTable(rows);
  for (const [name, row] of Object.entries(rows)) {
    if (row.non2xx > 0 || row.errors > 0) throw new Error(`${name}: ${row.non2xx} non-2xx and ${row.errors} errors`);
  }
  for (const [direction, plain, translated] of [
    ["0.3 client -> 1.0-only origin", "0.3 call, 0.3 origin", "0.3 call, 1.0-only origin"],
    ["1.0 client -> 0.3-only origin", "1.0 call, 1.0 origin", "1.0 call, 0.3-only origin"],
  ] as const) {
    const added = rows[translated]!.p50 - rows[plain]!.p50;
    verdict(
      `p50 added by translation, ${direction} (~1 KiB SendMessage, fixed-JSON origin, 1 connection)`,
      `${added.toFixed(3)} ms`,
      "<= 0.3 ms",
      added <= 0.3,
    );
  }
}

/** 6. The bridge on the first SSE event: a 0.3 client's message/stream to a 1.0-only origin agent, beside a 1.0 call to it. */
async function bridgeFirstEvent(t: Targets): Promise<void> {
  const plain = () => firstEventMs(t.toAgentV1);
  const translated = () => firstEventMs(t.toAgentV1, sendBody03("message/stream"), headers03);
  const samples: Record<"plain" | "translated", number[]> = { plain: [], translated: [] };
  for (let i = 0; i < 20; i++) await Promise.all([plain(), translated()]);
  for (let i = 0; i < FIRST_EVENT_SAMPLES; i++) {
    samples.plain.push(await plain());
    samples.translated.push(await translated());
  }
  const sp = samples.plain.sort((x, y) => x - y);
  const st = samples.translated.sort((x, y) => x - y);
  console.log(
    `first SSE event via the worker, 1.0-only origin agent (${FIRST_EVENT_SAMPLES} streams each): 1.0 call p50 ${percentile(sp, 50).toFixed(2)} ms p99 ${percentile(sp, 99).toFixed(2)} ms; 0.3 call, translated, p50 ${percentile(st, 50).toFixed(2)} ms p99 ${percentile(st, 99).toFixed(2)} ms`,
  );
  const added = percentile(st, 50) - percentile(sp, 50);
  verdict(
    "first-event p50 added by translation (0.3 client, 1.0-only origin agent)",
    `${added.toFixed(2)} ms`,
    "<= 1 ms added",
    added <= 1,
  );
}

/** 8. This build beside BENCH_BASELINE's, target by target, in the same run. */
async function beforeAfter(t: Targets, { connections }: BenchKnobs): Promise<void> {
  const before = t.baseline;
  if (!before) {
    console.log("(section 8 skipped: no BENCH_BASELINE)");
    return;
  }
  const rest = { request: { method: "POST" as const, body: restBody }, connections: 1 };
  const single = { request: kib, connections: 1 };
  // Each target's own workerd, its CPU per request read around each of its rounds (bench/cpu.ts).
  const cpu = (url: string, headersOf: Record<string, string>, options: LoadOptions) => () =>
    withCpu(url, () => load(url, headersOf, options));
  const rows = await sideBySide({
    [`JSON-RPC, ${connections} conn, this`]: cpu(t.edge, headers, { request: kib, connections }),
    [`JSON-RPC, ${connections} conn, baseline`]: cpu(before.edge, headers, { request: kib, connections }),
    "JSON-RPC, 1 conn, this": cpu(t.edge, headers, single),
    "JSON-RPC, 1 conn, baseline": cpu(before.edge, headers, single),
    "REST -> JSON-RPC, this": cpu(t.restSend, restHeaders, rest),
    "REST -> JSON-RPC, baseline": cpu(before.restSend, restHeaders, rest),
    "REST -> REST, this": cpu(t.restToRest, restHeaders, rest),
    "REST -> REST, baseline": cpu(before.restToRest, restHeaders, rest),
    "1.0 -> 0.3 bridge, this": cpu(t.onlyV03, headers, single),
    "1.0 -> 0.3 bridge, baseline": cpu(before.onlyV03, headers, single),
  });
  printTable(rows);
  const ratio =
    rows[`JSON-RPC, ${connections} conn, this`]!.requestsPerSecond / rows[`JSON-RPC, ${connections} conn, baseline`]!.requestsPerSecond;
  console.log(`req/s this / baseline (JSON-RPC, ${connections} connections): ${ratio.toFixed(3)}`);
  for (const name of ["JSON-RPC, 1 conn", "REST -> JSON-RPC", "REST -> REST", "1.0 -> 0.3 bridge"]) {
    console.log(`p50 this - baseline, ${name}: ${(rows[`${name}, this`]!.p50 - rows[`${name}, baseline`]!.p50).toFixed(3)} ms`);
  }
  for (const name of [`JSON-RPC, ${connections} conn`, "JSON-RPC, 1 conn", "REST -> JSON-RPC", "REST -> REST", "1.0 -> 0.3 bridge"]) {
    const [now, was] = [rows[`${name}, this`]!.cpuMicrosPerRequest ?? NaN, rows[`${name}, baseline`]!.cpuMicrosPerRequest ?? NaN];
    console.log(`CPU per request this / baseline, ${name}: ${(now / was).toFixed(3)} (${now.toFixed(1)} / ${was.toFixed(1)} µs)`);
  }
  const jsonRpc = `JSON-RPC, ${connections} conn`;
  const cpuRatio = (rows[`${jsonRpc}, this`]!.cpuMicrosPerRequest ?? NaN) / (rows[`${jsonRpc}, baseline`]!.cpuMicrosPerRequest ?? NaN);
  verdict("CPU per request over the baseline (JSON-RPC SendMessage)", cpuRatio.toFixed(3), "<= 1.05", cpuRatio <= 1.05);
}

await runBench(async () => {
  const targets = await setUp();
  console.log(
    `bench:proxy — ${knobs.rounds} rounds x ${knobs.duration}s, ${knobs.tool}, 127.0.0.1; workers in workerd via Miniflare (direct socket)`,
  );
  const sections: Array<(t: Targets, k: BenchKnobs) => Promise<void>> = [
    atTheLimit,
    againstAgent,
    firstEvent,
    edgeAuth,
    bridgeSend,
    bridgeFirstEvent,
    restSend,
    beforeAfter,
    telemetryCost,
    cardLimit,
    coldStart,
  ];
  for (const [index, section] of sections.entries()) if (SECTIONS.has(String(index + 1))) await section(targets, knobs);
  return 0;
});
