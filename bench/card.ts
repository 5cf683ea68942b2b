// npm run bench:card — the card worker (built bundle, bundled skills.json, empty
// KV) against a trivial worker that returns the same bytes as a static JSON
// response, both in workerd via Miniflare, same autocannon load, side by side.
// Goal: ratio >= 0.9, bundle gzip <= 64 KiB.
import { dirname } from "node:path";
import { buildBundle, CONNECTIONS, DURATION_S, load, LOAD_TOOL, printTable, ROUNDS, serve, sideBySide, wranglerVars } from "./lib";

const CARD_PATH = "/.well-known/agent-card.json";
const bundle = buildBundle();
const worker = await serve({ modules: true, scriptPath: bundle.path, modulesRoot: dirname(bundle.path), kvNamespaces: ["SKILLS"], bindings: wranglerVars() });
const cardUrl = new URL(CARD_PATH, worker.url).href;
const body = await (await fetch(cardUrl)).text();

const staticWorker = await serve({
  modules: true,
  script: `const body = new TextEncoder().encode(${JSON.stringify(body)});
export default { fetch() { return new Response(body, { headers: { "content-type": "application/json" } }); } };`,
});
const staticUrl = new URL(CARD_PATH, staticWorker.url).href;
if ((await (await fetch(staticUrl)).text()) !== body) throw new Error("static worker does not return the same bytes");

try {
  console.log(`bench:card — ${ROUNDS} rounds x ${DURATION_S}s, ${CONNECTIONS} connections, ${LOAD_TOOL}, 127.0.0.1, workerd via Miniflare (direct socket)`);
  // Warm both (JIT, isolate caches) before anything is measured.
  await load(staticUrl, {}, { duration: 1 });
  await load(cardUrl, {}, { duration: 1 });
  const rows = await sideBySide({
    "static JSON worker": () => load(staticUrl),
    "card worker (hybrid)": () => load(cardUrl),
  });
  printTable(rows);
  const ratio = rows["card worker (hybrid)"]!.requestsPerSecond / rows["static JSON worker"]!.requestsPerSecond;
  console.log(`card/static req/s ratio: ${ratio.toFixed(3)} (goal >= 0.9)`);
  console.log(`bundle: ${(bundle.bytes / 1024).toFixed(1)} KiB, gzip ${(bundle.gzipBytes / 1024).toFixed(1)} KiB (goal <= 64 KiB)`);
  console.log(`card body: ${body.length} bytes`);
} finally {
  await worker.stop();
  await staticWorker.stop();
}
