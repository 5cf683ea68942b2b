// The worker as built once for this run, by the node project's globalSetup (test/support/bundle-setup.ts).
import { inject } from "vitest";

export function builtBundle(): { path: string } {
  return { path: inject("bundlePath") };
}
