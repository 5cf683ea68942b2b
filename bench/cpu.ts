// workerd's CPU time per request: user + system time of the workerd process that serves a URL (from
// /proc/<pid>/stat, in clock ticks), read around a load round aimed at that URL alone, divided by the
// requests the load tool counted. It is what Workers bills, and on these shared cores it moves far less
// between runs than requests per second (DESIGN "Toolchain"). Linux only; each Miniflare of the benches
// runs its own workerd, found by the port it listens on.
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import type { Load } from "./measure";

/** Linux's USER_HZ: /proc reports CPU times in these ticks (100 on every Linux this runs on; `getconf CLK_TCK`). */
const TICKS_PER_SECOND = 100;
const pids = new Map<string, number>();

/** The inodes of the sockets listening on `port` (IPv4 and IPv6). */
function listeningInodes(port: number): Set<string> {
  const inodes = new Set<string>();
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text: string;
    try {
      text = readFileSync(table, "utf8");
    } catch {
      continue;
    }
    for (const line of text.split("\n").slice(1)) {
      const fields = line.trim().split(/\s+/);
      const [, local, , state, , , , , , inode] = fields;
      if (state === "0A" && local && Number.parseInt(local.split(":")[1] ?? "", 16) === port && inode) inodes.add(inode);
    }
  }
  return inodes;
}

/** The pid of the process listening on the port of `url`. */
export function pidOf(url: string): number {
  const known = pids.get(url);
  if (known !== undefined) return known;
  const inodes = listeningInodes(Number(new URL(url).port));
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${entry}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      let target: string;
      try {
        target = readlinkSync(`/proc/${entry}/fd/${fd}`);
      } catch {
        continue;
      }
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
      if (inode && inodes.has(inode)) {
        pids.set(url, Number(entry));
        return Number(entry);
      }
    }
  }
  throw new Error(`no process listens on ${url}`);
}

/** utime + stime of `pid`, in microseconds. */
export function cpuMicros(pid: number): number {
  // The command name (field 2) may hold spaces; the fields after its closing parenthesis are fixed.
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // utime and stime are fields 14 and 15 of stat(5), 12 and 13 after the name.
  return ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / TICKS_PER_SECOND;
}

/** `run` (a load round aimed at `url` alone) with the serving workerd's CPU per request added. */
export async function withCpu(url: string, run: () => Promise<Load>): Promise<Load> {
  const pid = pidOf(url);
  const before = cpuMicros(pid);
  const load = await run();
  return { ...load, cpuMicrosPerRequest: (cpuMicros(pid) - before) / Math.max(1, load.total) };
}
