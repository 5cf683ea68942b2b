// npm run bench:card — the card worker (built bundle, bundled skills.json, empty
// KV) against a trivial worker that returns the same bytes as a static JSON
// response, both in workerd via Miniflare, same autocannon load, side by side.
// Goals: card/static >= 0.9; a path agent within 5% of a host agent (1,000 agents by path on the host);
// catalog generation for 1,000 agents <= 10 ms (then served from cache); the bundle within the budget of
// test/node/wrangler.test.ts.
import { type Cli, cli } from "../scripts/usage";
import { aiCatalog, apiCatalog } from "../src/agents/catalog";
import { strongEtag } from "../src/http/etag";
import { buildBundle, getWithHost, runBench, serve, serveBundle } from "./lib";
import { BENCH_KNOBS_USAGE, benchKnobs, load, printTable, sideBySide } from "./measure";

const CARD_PATH = "/.well-known/agent-card.json";

const cmd: Cli = cli("bench:card", `usage: ${BENCH_KNOBS_USAGE} npm run bench:card`);
cmd.parseArgs({ options: {} });
const knobs = benchKnobs(cmd);

await runBench(async () => {
  const bundle = buildBundle();
  const worker = await serveBundle(bundle);
  const cardUrl = new URL(CARD_PATH, worker.url).href;
  const body = await (await fetch(cardUrl)).text();

  // The same bundle with a card signing key (ES256): signatures are computed once and memoized.
  const pair = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])) as CryptoKeyPair;
  const signingKey = JSON.stringify({ ...((await crypto.subtle.exportKey("jwk", pair.privateKey)) as JsonWebKey), kid: "bench" });
  // Signing needs the host[:port] named (HOST_ALLOWLIST): the signed worker is asked as Host 127.0.0.1 (the default port).
  const signedWorker = await serveBundle(bundle, { CARD_SIGNING_KEY: signingKey, HOST_ALLOWLIST: "127.0.0.1" });
  const signedUrl = new URL(CARD_PATH, signedWorker.url).href;
  const asNamed = { host: "127.0.0.1" };
  const signedBody = await getWithHost(signedUrl, asNamed.host);
  if (!JSON.parse(signedBody).signatures) throw new Error("the signed worker served an unsigned card");

  const staticWorker = await serve({
    modules: true,
    script: `const body = new TextEncoder().encode(${JSON.stringify(body)});
export default { fetch() { return new Response(body, { headers: { "content-type": "application/json" } }); } };`,
  });
  const staticUrl = new URL(CARD_PATH, staticWorker.url).href;
  if ((await (await fetch(staticUrl)).text()) !== body) throw new Error("static worker does not return the same bytes");

  // Agents by path: the host's own agent and one of 1,000 agents by path on the same host, both from KV.
  const agents = Array.from({ length: 1000 }, (_, i) => ({ path: `/agent-${i}`, name: `Agent ${i}`, description: `Agent number ${i}` }));
  const agentsWorker = await serveBundle(bundle);
  const kv = await agentsWorker.mf.getKVNamespace("SKILLS");
  await kv.put("127.0.0.1", JSON.stringify({ name: "Host Agent" }));
  await kv.put("127.0.0.1/agent-500", JSON.stringify({ name: "Path Agent" }));
  await kv.put("agents:127.0.0.1", JSON.stringify({ version: 1, agents }));
  const hostAgentUrl = new URL(CARD_PATH, agentsWorker.url).href;
  const pathAgentUrl = new URL(`/agent-500${CARD_PATH}`, agentsWorker.url).href;
  const catalogUrl = new URL("/.well-known/ai-catalog.json", agentsWorker.url).href;
  if (JSON.parse(await (await fetch(pathAgentUrl)).text()).name !== "Path Agent") throw new Error("the path agent is not served");
  if (JSON.parse(await (await fetch(hostAgentUrl)).text()).name !== "Host Agent") throw new Error("the host agent is not served");
  // Catalog generation, the worker's own code in this process: 1,000 agents, both catalogs, bytes and ETag.
  const started = performance.now();
  const samples = 20;
  for (let i = 0; i < samples; i++) {
    for (const build of [apiCatalog, aiCatalog])
      await strongEtag(new TextEncoder().encode(JSON.stringify(build("https://agents.example.com", { name: "Host" }, agents))));
  }
  const catalogMs = (performance.now() - started) / samples / 2;

  console.log(
    `bench:card — ${knobs.rounds} rounds x ${knobs.duration}s, ${knobs.connections} connections, ${knobs.tool}, 127.0.0.1, workerd via Miniflare (direct socket)`,
  );
  // Warm both (JIT, isolate caches) before anything is measured.
  await load(staticUrl, {}, { duration: 1 });
  await load(cardUrl, {}, { duration: 1 });
  await load(signedUrl, asNamed, { duration: 1 });
  await load(pathAgentUrl, {}, { duration: 1 });
  await load(catalogUrl, {}, { duration: 1 });
  const rows = await sideBySide({
    "static JSON worker": () => load(staticUrl),
    "card worker (hybrid)": () => load(cardUrl),
    "card worker (hybrid, signed)": () => load(signedUrl, asNamed),
    "host agent (KV, 1,000 path agents on the host)": () => load(hostAgentUrl),
    "path agent (KV, 1 of 1,000)": () => load(pathAgentUrl),
    "ai-catalog of 1,001 agents (cached)": () => load(catalogUrl),
  });
  printTable(rows);
  const rps = (name: string) => rows[name]!.requestsPerSecond;
  console.log(`card/static req/s ratio: ${(rps("card worker (hybrid)") / rps("static JSON worker")).toFixed(3)} (goal >= 0.9)`);
  console.log(
    `signed/unsigned req/s ratio: ${(rps("card worker (hybrid, signed)") / rps("card worker (hybrid)")).toFixed(3)} (goal >= 0.9)`,
  );
  console.log(
    `path/host agent req/s ratio: ${(rps("path agent (KV, 1 of 1,000)") / rps("host agent (KV, 1,000 path agents on the host)")).toFixed(3)} (goal >= 0.95)`,
  );
  console.log(`catalog generation, 1,000 agents: ${catalogMs.toFixed(2)} ms per catalog (goal <= 10 ms; served from cache after)`);
  console.log(
    `bundle: ${(bundle.bytes / 1024).toFixed(1)} KiB, gzip ${(bundle.gzipBytes / 1024).toFixed(1)} KiB (budget: test/node/wrangler.test.ts)`,
  );
  console.log(`card body: ${body.length} bytes unsigned, ${signedBody.length} bytes signed`);
  return 0;
});
