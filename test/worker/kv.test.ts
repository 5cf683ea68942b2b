import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { runtimeFor } from "../../src/runtime";
import bundled from "../fixtures/sample-card.json";
import { CARD, call, makeEnv } from "../support/worker";

const kv = env.SKILLS;
const written: string[] = [];
async function put(key: string, value: unknown) {
  written.push(key);
  await kv.put(key, typeof value === "string" ? value : JSON.stringify(value));
}
afterEach(async () => {
  // Each document's last good copy too (card/last-good.ts), so no test sees another's.
  await Promise.all(written.splice(0).flatMap((key) => [kv.delete(key), kv.delete(`last-good:${key}`)]));
  vi.restoreAllMocks();
  vi.useRealTimers();
});

async function cardName(host: string, workerEnv = makeEnv()) {
  const response = await call(`https://${host}${CARD}`, {}, workerEnv);
  expect(response.status).toBe(200);
  return ((await response.json()) as { name: string }).name;
}

/** The real namespace behind a spy, to count reads and see their options. */
function countingKv() {
  const get = vi.fn((key: string, options?: unknown) => kv.get(key, options as KVNamespaceGetOptions<"text">));
  const rest = { getWithMetadata: kv.getWithMetadata.bind(kv), put: kv.put.bind(kv) };
  return { binding: { get, ...rest } as unknown as KVNamespace, get };
}

describe("card data from KV", () => {
  it("uses the document stored under the request's hostname", async () => {
    await put("host-a.example.com", { name: "Agent A" });
    await put("host-b.example.com", { name: "Agent B" });
    expect(await cardName("host-a.example.com")).toBe("Agent A");
    expect(await cardName("host-b.example.com")).toBe("Agent B");
    expect(await cardName("HOST-A.example.com")).toBe("Agent A"); // hostnames are case-insensitive
    expect(await cardName("host-c.example.com")).toBe(bundled.name);
  });

  it("falls back to `default`, then to the bundled skills.json", async () => {
    await put("default", { name: "Default Agent" });
    await put("own.example.com", { name: "Own Agent" });
    expect(await cardName("own.example.com")).toBe("Own Agent");
    expect(await cardName("anything.example.com")).toBe("Default Agent");
    await kv.delete("default");
    expect(await cardName("anything.example.com")).toBe(bundled.name);
  });

  it("keys by the public host (PUBLIC_BASE_URL, trusted X-Forwarded-Host)", async () => {
    await put("public.example.org", { name: "Public Agent" });
    expect(await cardName("internal.local", makeEnv({ PUBLIC_BASE_URL: "https://public.example.org" }))).toBe("Public Agent");
    const response = await call(
      `https://internal.local${CARD}`,
      { headers: { "X-Forwarded-Host": "public.example.org" } },
      makeEnv({ TRUST_FORWARDED_HEADERS: "true" }),
    );
    expect(((await response.json()) as { name: string }).name).toBe("Public Agent");
  });

  it.each([
    ["not JSON", "{ this is not json", /not valid JSON/],
    ["failing the schema", { name: "", skills: [{ tags: [] }] }, /name/],
    ["JSON null", "null", /expected object/],
  ])("never answers for a host whose document is %s with another document: 503 saying why, one log line", async (_name, value, issue) => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    await put("broken.example.com", value);
    await put("default", { name: "Default Agent" });
    const workerEnv = makeEnv();
    for (let i = 0; i < 2; i++) {
      const response = await call(`https://broken.example.com${CARD}`, {}, workerEnv);
      expect(response.status).toBe(503);
      const body = (await response.json()) as any;
      expect(body.error.details[0]).toMatchObject({
        reason: "CARD_UNAVAILABLE",
        metadata: { document: "kv:broken.example.com", why: "invalid" },
      });
      expect(JSON.stringify(body)).not.toContain("Default Agent");
    }
    expect(warn).toHaveBeenCalledTimes(1);
    const line = JSON.parse(warn.mock.calls[0]![0] as string);
    expect(line).toMatchObject({ level: "warn", event: "kv_document_invalid", key: "broken.example.com" });
    expect(line.issues).toMatch(issue);
  });

  it("serves the last good copy of that very document (with its age), also to a fresh isolate, once it turns invalid", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    await put("turns.example.com", { name: "Good Version" });
    await put("default", { name: "Default Agent" });
    expect(await cardName("turns.example.com")).toBe("Good Version");
    await put("turns.example.com", "{ broken");
    for (const workerEnv of [makeEnv(), makeEnv({ KV_CACHE_TTL: "0" })]) {
      const response = await call(`https://turns.example.com${CARD}`, {}, workerEnv);
      expect(response.status).toBe(200);
      expect(((await response.json()) as { name: string }).name).toBe("Good Version");
      expect(response.headers.get("card-source")).toBe("kv:turns.example.com");
      expect(Number(response.headers.get("card-last-good-age"))).toBeGreaterThanOrEqual(0);
      const page = await call(`https://turns.example.com/`, { headers: { accept: "text/html" } }, workerEnv);
      expect(await page.text()).toContain("this is its last good copy");
    }
  });

  it("a bad `default` answers for the hosts without a document: its last good copy or 503, never the bundled card", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    await put("default", "[]");
    const response = await call(`https://nobody.example.com${CARD}`, {}, makeEnv());
    expect(response.status).toBe(503);
    expect(await response.text()).not.toContain(bundled.name);
  });

  it("when KV throws: the last good copy, else 503 (whether a document exists is unknown); without a binding, the bundled card", async () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    // The failing KV has no getWithMetadata: reading its last good copy fails too, and says so.
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const failing = { get: () => Promise.reject(new Error("KV is down")) } as unknown as KVNamespace;
    const response = await call(`https://x.example.com${CARD}`, {}, makeEnv({ SKILLS: failing }));
    expect(response.status).toBe(503);
    expect(await response.text()).not.toContain(bundled.name);
    expect(JSON.parse(error.mock.calls[0]![0] as string)).toMatchObject({ event: "kv_read_failed" });
    expect(await cardName("x.example.com", makeEnv({ SKILLS: undefined }))).toBe(bundled.name);
    // A document read good before KV failed is kept: its last good copy answers.
    await put("kept.example.com", { name: "Kept Agent" });
    let down = false;
    const flaky = {
      get: (key: string, options: unknown) =>
        down ? Promise.reject(new Error("KV is down")) : kv.get(key, options as KVNamespaceGetOptions<"text">),
      getWithMetadata: kv.getWithMetadata.bind(kv),
      put: kv.put.bind(kv),
    } as unknown as KVNamespace;
    const workerEnv = makeEnv({ SKILLS: flaky, KV_CACHE_TTL: "0" });
    expect(await cardName("kept.example.com", workerEnv)).toBe("Kept Agent");
    down = true;
    const kept = await call(`https://kept.example.com${CARD}`, {}, workerEnv);
    expect(((await kept.json()) as { name: string }).name).toBe("Kept Agent");
    expect(kept.headers.get("card-last-good-age")).not.toBeNull();
    expect(warn.mock.calls.map((args) => JSON.parse(String(args[0])))).toEqual([
      { level: "warn", event: "last_good_read_failed", name: "x.example.com", error: "TypeError" },
    ]);
  });
});

describe("caching in the isolate", () => {
  it("reads KV with cacheTtl, then serves from the isolate until the TTL ends", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    await put("ttl.example.com", { name: "Before" });
    const { binding, get } = countingKv();
    const workerEnv = makeEnv({ SKILLS: binding, KV_CACHE_TTL: "45" });
    expect(await cardName("ttl.example.com", workerEnv)).toBe("Before");
    expect(get.mock.calls.map((c) => c[0]).sort()).toEqual(["default", "ttl.example.com"]);
    for (const [, options] of get.mock.calls) expect(options).toEqual({ type: "text", cacheTtl: 45 });

    await put("ttl.example.com", { name: "After" });
    expect(await cardName("ttl.example.com", workerEnv)).toBe("Before");
    expect(get).toHaveBeenCalledTimes(2);

    // Expired: this request is answered from the stale copy at once and refreshes it in the background
    // (it never waits on a read another request started); the next request sees the new value.
    vi.advanceTimersByTime(46_000);
    expect(await cardName("ttl.example.com", workerEnv)).toBe("Before");
    expect(get).toHaveBeenCalledTimes(4);
    expect(await cardName("ttl.example.com", workerEnv)).toBe("After");
    expect(get).toHaveBeenCalledTimes(4);
  });

  it("keeps the isolate copy for a KV_CACHE_TTL under 30 s (KV's own minimum cacheTtl stays 30), and none at 0", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    await put("short.example.com", { name: "One" });
    const { binding, get } = countingKv();
    const workerEnv = makeEnv({ SKILLS: binding, KV_CACHE_TTL: "2" });
    expect(await cardName("short.example.com", workerEnv)).toBe("One");
    for (const [, options] of get.mock.calls) expect(options).toEqual({ type: "text", cacheTtl: 30 });
    await put("short.example.com", { name: "Two" });
    vi.advanceTimersByTime(2_500);
    await cardName("short.example.com", workerEnv);
    expect(await cardName("short.example.com", workerEnv)).toBe("Two");

    const none = countingKv();
    const uncached = makeEnv({ SKILLS: none.binding, KV_CACHE_TTL: "0" });
    expect(await cardName("short.example.com", uncached)).toBe("Two");
    await put("short.example.com", { name: "Three" });
    expect(await cardName("short.example.com", uncached)).toBe("Three");
    expect(none.get).toHaveBeenCalledTimes(4);
  });

  it("builds and hashes each (source, host, variant) card once per isolate", async () => {
    const digest = vi.spyOn(crypto.subtle, "digest");
    const workerEnv = makeEnv();
    const first = await call(`https://memo.example.com${CARD}`, {}, workerEnv);
    const second = await call(`https://memo.example.com${CARD}`, {}, workerEnv);
    expect(await second.text()).toBe(await first.text());
    expect(digest).toHaveBeenCalledTimes(1);
    await call(`https://memo.example.com${CARD}`, { headers: { "A2A-Version": "1.0" } }, workerEnv);
    await call(`https://other.example.com${CARD}`, {}, workerEnv);
    expect(digest).toHaveBeenCalledTimes(3);
    const runtime = runtimeFor(workerEnv);
    const source = await runtime.cards.store.lookup("memo.example.com");
    expect(runtime.cards.card(source, "https://memo.example.com", "hybrid")).toBe(
      runtime.cards.card(source, "https://memo.example.com", "hybrid"),
    );
  });

  it("keeps the memoized card when a KV value is re-read unchanged", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    await put("same.example.com", { name: "Same" });
    const workerEnv = makeEnv();
    const digest = vi.spyOn(crypto.subtle, "digest");
    await call(`https://same.example.com${CARD}`, {}, workerEnv);
    vi.advanceTimersByTime(61_000);
    await call(`https://same.example.com${CARD}`, {}, workerEnv);
    expect(digest).toHaveBeenCalledTimes(1);
  });
});

/** The Card-Source header of one host's 200, 304, HEAD and page, and the page's "Card data" line. */
async function sourceSeen(host: string, workerEnv: Env) {
  const url = `https://${host}${CARD}`;
  const ok = await call(url, {}, workerEnv);
  const notModified = await call(url, { headers: { "If-None-Match": ok.headers.get("etag") ?? "" } }, workerEnv);
  const head = await call(url, { method: "HEAD" }, workerEnv);
  const page = await call(`https://${host}/`, { headers: { accept: "text/html" } }, workerEnv);
  expect([ok.status, notModified.status, head.status, page.status]).toEqual([200, 304, 200, 200]);
  const line = /<p class="muted">Card data: ([^<]*)<\/p>/.exec(await page.text())?.[1];
  return { headers: [...new Set([ok, notModified, head, page].map((r) => r.headers.get("card-source")))], line };
}

describe("Card-Source: which document served the card", () => {
  it("names the KV key that served (the hostname, else default), else the bundled skills.json", async () => {
    await put("own.example.com", { name: "Own Agent" });
    await put("default", { name: "Default Agent" });
    const workerEnv = makeEnv();
    expect(await sourceSeen("own.example.com", workerEnv)).toEqual({ headers: ["kv:own.example.com"], line: "KV key own.example.com" });
    expect(await sourceSeen("other.example.com", workerEnv)).toEqual({ headers: ["kv:default"], line: "KV key default" });
    await kv.delete("default");
    expect(await sourceSeen("other.example.com", makeEnv())).toEqual({ headers: ["bundled"], line: "the bundled skills.json" });
  });

  it("names the document's own key when its last good copy answers, never another key", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    await put("broken.example.com", { name: "Broken Agent" });
    await put("default", { name: "Default Agent" });
    await call(`https://broken.example.com${CARD}`, {}, makeEnv());
    await put("broken.example.com", "{ not json");
    expect(await sourceSeen("broken.example.com", makeEnv())).toEqual({
      headers: ["kv:broken.example.com"],
      line: "KV key broken.example.com",
    });
  });
});
