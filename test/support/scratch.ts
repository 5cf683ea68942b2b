// A scratch copy of the working tree, for tests that must run the project's own commands beside files
// a developer or a user leaves in a checkout, without touching this one.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { ROOT, run } from "./processes";

/** The working tree as it is, committed or not (tracked and unignored files), with node_modules linked. */
export async function scratchCopy(prefix: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const listed = await run("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"]);
  if (listed.code !== 0) throw new Error(`git ls-files failed: ${listed.stderr}`);
  for (const file of listed.stdout.split("\0")) {
    if (!file || !existsSync(join(ROOT, file))) continue; // deleted, not yet committed
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    copyFileSync(join(ROOT, file), join(dir, file));
  }
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));
  return dir;
}
