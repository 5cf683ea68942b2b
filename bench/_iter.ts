import { readdirSync, readFileSync } from "node:fs";
import { BARE_PASSTHROUGH, fixedJsonOrigin, sendBody } from "./proxy-targets";
import { buildBundle, load, serve, serveBundle } from "./lib";
const workerdPids = () => new Set(readdirSync("/proc").filter((d) => /^\d+$/.test(d)).filter((pid) => { try { return readFileSync(`/proc/${pid}/comm`, "utf8").trim() === "workerd"; } catch { return false; } }));
const cpuMs = (pids: string[]) => pids.reduce((s, pid) => { const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" "); return s + (Number(f[11]) + Number(f[12])) * 10; }, 0);
async function started<T>(fn: () => Promise<T>): Promise<[T, string[]]> { const before = workerdPids(); const v = await fn(); return [v, [...workerdPids()].filter((p) => !before.has(p))]; }
const bundle = buildBundle();
const fixed = await fixedJsonOrigin();
const [bare, barePids] = await started(() => serve({ modules: true, script: BARE_PASSTHROUGH, bindings: { ORIGIN_URL: fixed.url } }));
const [edge, edgePids] = await started(() => serveBundle(bundle, { ORIGIN_URL: fixed.url, ...(process.env.EXTRA ? JSON.parse(process.env.EXTRA) : {}) }));
const headers = { "content-type": "application/json", "a2a-version": "1.0" };
const request = { method: "POST" as const, body: sendBody("SendMessage", Number(process.env.BYTES ?? 1024)) };
const r = await (await fetch(edge.url, { method: "POST", headers, body: request.body })).text();
if (!r.includes("result")) throw new Error(r);
await load(bare.url.href, headers, { request, duration: 2 });
await load(edge.url.href, headers, { request, duration: 2 });
const rows: Record<string, number[]> = { bare: [], edge: [], bp: [], ep: [], bc: [], ec: [] };
for (let i = 0; i < Number(process.env.ROUNDS ?? 3); i++) {
  let c0 = cpuMs(barePids); const b = await load(bare.url.href, headers, { request, duration: 4 }); rows.bc!.push((cpuMs(barePids) - c0) * 1000 / b.total);
  c0 = cpuMs(edgePids); const e = await load(edge.url.href, headers, { request, duration: 4 }); rows.ec!.push((cpuMs(edgePids) - c0) * 1000 / e.total);
  rows.bare!.push(b.requestsPerSecond); rows.edge!.push(e.requestsPerSecond); rows.bp!.push(b.p50); rows.ep!.push(e.p50);
}
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
console.log(`bare ${mean(rows.bare!).toFixed(0)} edge ${mean(rows.edge!).toFixed(0)} ratio ${(mean(rows.edge!) / mean(rows.bare!)).toFixed(3)} p50 bare ${mean(rows.bp!).toFixed(2)} edge ${mean(rows.ep!).toFixed(2)} | workerd CPU/request: bare ${mean(rows.bc!).toFixed(0)} us, edge ${mean(rows.ec!).toFixed(0)} us`);
await edge.stop(); await bare.stop(); fixed.close();
