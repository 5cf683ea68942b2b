// The deadlines of one request (its body's BODY_TIMEOUT_MS, its origin's
// ORIGIN_TIMEOUT_MS, an origin reply's read) on one timer: armed for the
// earliest, re-armed only when it fires with a later one still waiting, and
// never cleared. A timer left armed when the request ends is dropped with it
// (a Workers timer does not keep a request alive, unlike ctx.waitUntil).
// Measured in workerd (bench:profile, ~1 KiB SendMessage): setTimeout and
// clearTimeout were 8.5% of a call's CPU with a timer per wait; one per call,
// never cleared, leaves a single setTimeout.

export const TIMED_OUT = Symbol("timed out");

interface Wait {
  at: number;
  resolve: (value: typeof TIMED_OUT) => void;
}

export class Deadlines {
  #waits: Set<Wait> | undefined;
  /** When the armed timer fires (Infinity: none armed). */
  #armedFor = Number.POSITIVE_INFINITY;

  /** `work`, or TIMED_OUT if it has not settled by `at` (a Date.now() time); a rejection passes through. */
  race<T>(work: Promise<T>, at: number): Promise<T | typeof TIMED_OUT> {
    if (at <= Date.now()) return Promise.resolve(TIMED_OUT);
    let wait: Wait | undefined;
    const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
      wait = { at, resolve };
    });
    const waits = (this.#waits ??= new Set());
    waits.add(wait as Wait);
    this.#arm(at);
    const settled = () => waits.delete(wait as Wait);
    return Promise.race([work, timeout]).finally(settled);
  }

  #arm(at: number): void {
    // An earlier timer fires first and re-arms for this one if it still waits.
    if (at >= this.#armedFor) return;
    this.#armedFor = at;
    const timer: unknown = setTimeout(() => this.#fire(at), Math.max(0, at - Date.now()));
    // Node (tests, scripts): a timer left armed must not hold the process open. workerd's is a number.
    (timer as { unref?: () => void }).unref?.();
  }

  #fire(armedFor: number): void {
    // A timer superseded by an earlier one (armed later) leaves the re-arming to that one.
    if (armedFor !== this.#armedFor) return;
    this.#armedFor = Number.POSITIVE_INFINITY;
    const now = Date.now();
    let next = Number.POSITIVE_INFINITY;
    for (const wait of this.#waits ?? []) {
      if (wait.at <= now) {
        this.#waits?.delete(wait);
        wait.resolve(TIMED_OUT);
      } else next = Math.min(next, wait.at);
    }
    if (next !== Number.POSITIVE_INFINITY) this.#arm(next);
  }
}
