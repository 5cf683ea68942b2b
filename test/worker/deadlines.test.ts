// One timer for every wait of a request (src/http/deadlines.ts): each wait times out at its own deadline,
// whatever order they were armed in, and a request's waits share the timer armed for the earliest.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Deadlines, TIMED_OUT } from "../../src/http/deadlines";
import { callVia, fakeOrigin, makeEnv } from "../support/worker";

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

  it("clears its timer on release, once for all the request's waits", async () => {
    const clock = new Deadlines();
    await clock.race(Promise.resolve("body"), Date.now() + 10_000);
    await clock.race(Promise.resolve("origin"), Date.now() + 30_000);
    expect(vi.getTimerCount()).toBe(1);
    clock.release();
    expect(vi.getTimerCount()).toBe(0);
    // A new wait after a release arms a timer again.
    let result: unknown = "pending";
    void clock.race(never(), Date.now() + 1_000).then((value) => (result = value));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(result).toBe(TIMED_OUT);
  });

  it("leaves no timer armed after a call through the edge, and one timer served the whole call", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const origin = fakeOrigin(() =>
      Response.json({ jsonrpc: "2.0", id: 1, result: { task: { id: "t", contextId: "c", status: { state: "TASK_STATE_COMPLETED" } } } }),
    );
    const armed: number[] = [];
    // Wrapped by hand, not vi.spyOn: a spy over the fake clock's setTimeout is restored to that fake when
    // vitest restores its spies after this file, and the next file in the isolate would get a dead clock.
    const realSet = globalThis.setTimeout;
    globalThis.setTimeout = ((fn: () => void, ms?: number) => {
      armed.push(ms ?? 0);
      return realSet(fn, ms);
    }) as typeof setTimeout;
    const init = {
      method: "POST",
      headers: { "content-type": "application/json", "A2A-Version": "1.0" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "GetTask", params: { id: "t" } }),
    };
    let response: Response;
    try {
      response = await callVia(
        origin,
        "https://agents.example.com/",
        init,
        makeEnv({ ORIGIN_URL: "http://10.1.2.3/rpc", EDGE_AUTH: "off" }),
      );
      await response.text();
    } finally {
      globalThis.setTimeout = realSet;
    }
    expect(response.status).toBe(200);
    // The body's deadline (BODY_TIMEOUT_MS) armed it; the origin's (ORIGIN_TIMEOUT_MS, later) joined it.
    expect(armed).toEqual([10_000]);
    expect(vi.getTimerCount()).toBe(0);
  });
});
