// bench/process-tree.ts: memory figures count the workerd processes this run
// started, never another run's or another wrangler dev's on the same machine.
import { afterAll, describe, expect, it } from "vitest";
import { serve } from "../../bench/lib";
import { rssMiB, workerdPids, workerdRssMiB } from "../../bench/process-tree";
import { start } from "../support/processes";

const stops: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const stop of stops.reverse()) await stop();
});

describe("workerd processes by parent chain", () => {
  it("finds the workerd this process started, and not from another process's tree", async () => {
    const worker = await serve({ modules: true, script: "export default { fetch() { return new Response('ok'); } };" });
    stops.push(worker.stop);
    // Another process, running while this one's workerd does: its tree holds no workerd.
    const other = start("node", ["-e", "setInterval(() => {}, 1000)"]);
    stops.push(other.stop);

    const mine = workerdPids();
    expect(mine.length).toBe(1);
    expect(workerdPids(other.child.pid!)).toEqual([]);
    expect(rssMiB(mine)).toBeGreaterThan(1);
    expect(workerdRssMiB()).toBeGreaterThan(1);

    await worker.stop();
    expect(workerdPids()).toEqual([]);
  });
});
