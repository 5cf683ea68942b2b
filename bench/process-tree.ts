// The processes a run started, found by parent chain from one `ps` snapshot:
// memory figures count only those, never another wrangler dev's or test run's
// workerd on the same machine.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

interface ProcessRow {
  pid: number;
  ppid: number;
  comm: string;
}

/** Every process whose parent chain leads to `root` (root itself excluded). */
function descendants(root: number): ProcessRow[] {
  const rows = execFileSync("ps", ["-e", "-o", "pid=,ppid=,comm="], { encoding: "utf8" })
    .trim()
    .split("\n")
    .map((line) => {
      const [pid, ppid, ...comm] = line.trim().split(/\s+/);
      return { pid: Number(pid), ppid: Number(ppid), comm: comm.join(" ") };
    });
  const mine = new Set([root]);
  for (let changed = true; changed; ) {
    changed = false;
    for (const row of rows) {
      if (mine.has(row.ppid) && !mine.has(row.pid)) {
        mine.add(row.pid);
        changed = true;
      }
    }
  }
  return rows.filter((row) => row.pid !== root && mine.has(row.pid));
}

/** The pids of the workerd processes below `root` (this process by default). */
export function workerdPids(root = process.pid): number[] {
  return descendants(root)
    .filter((row) => row.comm === "workerd")
    .map((row) => row.pid);
}

/**
 * Resident memory of `pids`, MiB, read from /proc (no process started: cheap
 * enough to sample every second under load). A process gone counts 0.
 */
export function rssMiB(pids: number[]): number {
  return pids.reduce((sum, pid) => {
    try {
      return sum + Number(readFileSync(`/proc/${pid}/status`, "utf8").match(/VmRSS:\s+(\d+) kB/)?.[1] ?? 0) / 1024;
    } catch {
      return sum;
    }
  }, 0);
}

/** RSS of the workerd processes below this process, MiB. */
export function workerdRssMiB(): number {
  return rssMiB(workerdPids());
}
