// One timer for every wait of a request (src/http/deadlines.ts): each wait times out at its own deadline,
// whatever order they were armed in, and a request's waits share the timer armed for the earliest.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Deadlines, TIMED_OUT } from "../../src/http/deadlines";

const never = () => new Promise<never>(() => undefined);

describe("Deadlines", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("passes the work's value through, and its rejection", async () => {
    const clock = new Deadlines();
    await expect(clock.race(Promise.resolve("answer"), Date.now() + 1_000)).resolves.toBe("answer");
    await expect(clock.race(Promise.reject(new TypeError("broken")), Date.now() + 1_000)).rejects.toThrow("broken");
  });

  it("times out at the deadline, not before", async () => {
    const clock = new Deadlines();
    let result: unknown = "pending";
    void clock.race(never(), Date.now() + 1_000).then((value) => (result = value));
    await vi.advanceTimersByTimeAsync(999);
    expect(result).toBe("pending");
    await vi.advanceTimersByTimeAsync(1);
    expect(result).toBe(TIMED_OUT);
  });

  it("answers a deadline already past at once, without a timer", async () => {
    const clock = new Deadlines();
    await expect(clock.race(never(), Date.now())).resolves.toBe(TIMED_OUT);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("arms one timer for a body's and an origin's waits, the later one re-armed when the first fires", async () => {
    const clock = new Deadlines();
    const results: unknown[] = [];
    // The body's read settles; the origin's wait (later) joins the timer armed for the body.
    await clock.race(Promise.resolve("body"), Date.now() + 10_000);
    void clock.race(never(), Date.now() + 30_000).then((value) => results.push(["origin", value]));
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(results).toEqual([]);
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(results).toEqual([["origin", TIMED_OUT]]);
  });

  it("times out an earlier wait armed after a later one at its own deadline", async () => {
    const clock = new Deadlines();
    const results: string[] = [];
    void clock.race(never(), Date.now() + 30_000).then(() => results.push("late"));
    void clock.race(never(), Date.now() + 2_000).then(() => results.push("early"));
    await vi.advanceTimersByTimeAsync(2_000);
    expect(results).toEqual(["early"]);
    await vi.advanceTimersByTimeAsync(28_000);
    expect(results).toEqual(["early", "late"]);
  });
});
