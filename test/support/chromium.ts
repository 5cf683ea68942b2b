// Debian chromium for the browser test. Never skipped: when it is missing it is
// installed here (as root, with apt-get), and otherwise the test fails with the
// command to run.
import { spawn } from "node:child_process";
import { accessSync, constants, existsSync } from "node:fs";
import { delimiter, join } from "node:path";

const CHROMIUM = "/usr/bin/chromium";
const INSTALL_COMMAND = "apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium";

function onPath(command: string): boolean {
  return (process.env.PATH ?? "").split(delimiter).some((dir) => {
    try {
      accessSync(join(dir, command), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

function run(command: string, args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" }, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (c) => (output += c));
    child.stderr.on("data", (c) => (output += c));
    child.on("error", (error) => resolve({ code: -1, output: `${output}\n${error.message}` }));
    child.on("close", (code) => resolve({ code: code ?? -1, output }));
  });
}

/** The chromium executable, installing Debian's package first when it is missing; throws with the fix otherwise. */
export async function ensureChromium(): Promise<string> {
  if (existsSync(CHROMIUM)) return CHROMIUM;
  const why = (reason: string) =>
    new Error(
      `The browser test needs ${CHROMIUM} (Debian package chromium), which is missing, and ${reason}. Install it as root:\n  ${INSTALL_COMMAND}`,
    );
  if (process.platform !== "linux" || !onPath("apt-get")) throw why("apt-get is not available here to install it");
  if (process.getuid?.() !== 0) throw why("this process is not root, so it cannot install it");
  // Waits for another apt/dpkg run (another test run installing it too) instead of failing on its lock.
  const lock = ["-o", "DPkg::Lock::Timeout=600"];
  process.stderr.write(`browser test: ${CHROMIUM} is missing; installing Debian chromium (${INSTALL_COMMAND})\n`);
  const update = await run("apt-get", [...lock, "update"]);
  if (update.code !== 0 && !existsSync(CHROMIUM))
    throw why(`\`apt-get update\` failed (exit ${update.code}):\n${update.output.slice(-3000)}\n`);
  const install = await run("apt-get", [...lock, "install", "-y", "chromium"]);
  if (!existsSync(CHROMIUM)) throw why(`\`apt-get install -y chromium\` failed (exit ${install.code}):\n${install.output.slice(-3000)}\n`);
  process.stderr.write(`browser test: installed ${CHROMIUM}\n`);
  return CHROMIUM;
}
