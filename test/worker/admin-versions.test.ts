// The admin API's document versions, inside workerd with the real KV and the
// real DocumentLog Durable Objects: ETags, If-Match / If-None-Match, concurrent
// writers, rollback history, KV failures and writes made outside the admin API.
import { beforeEach, describe, expect, it, vi } from "vitest";
import bundled from "../fixtures/sample-card.json";
import { type AdminCall, adminWorker, cardName, failKvWritesTo, kv, put, useHosts, type Written } from "../support/admin";
import { type Captured, captureConsole } from "../support/console";

const { host } = useHosts();
// Every write logs what changed (key and action, never the document): taken here, asserted where it matters.
let logs: Captured;
beforeEach(() => {
  logs = captureConsole();
});

const doc = (key: string) => `https://x.example.com/_admin/documents/${key}`;
const rollback = (headers: Record<string, string> = {}): RequestInit => ({ method: "POST", headers });
const del = (headers: Record<string, string> = {}): RequestInit => ({ method: "DELETE", headers });

interface Summary {
  version: number;
  etag: string;
  origin: string;
  deleted: boolean;
}
async function versions(call: AdminCall, key: string): Promise<Summary[]> {
  return ((await (await call(`${doc(key)}/versions`)).json()) as { versions: Summary[] }).versions;
}
async function current(call: AdminCall, key: string): Promise<{ status: number; etag: string | null; body: unknown }> {
  const response = await call(doc(key));
  return { status: response.status, etag: response.headers.get("etag"), body: response.status === 200 ? await response.json() : null };
}
const kvDocument = async (key: string) => {
  const text = await kv.get(key);
  return text === null ? null : JSON.parse(text);
};
const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;

describe("document versions and ETags", () => {
  it("gives every version a strong ETag, unique even for the same bytes, and GET returns it (304 on If-None-Match)", async () => {
    const call = adminWorker();
    const h = host("etag");
    const first = await call(doc(h), put({ name: "Same" }));
    const second = await call(doc(h), put({ name: "Same" }));
    const [e1, e2] = [first.headers.get("etag")!, second.headers.get("etag")!];
    expect(e1).toMatch(/^"1-[0-9a-f]{12}"$/);
    expect(e2).toMatch(/^"2-[0-9a-f]{12}"$/);
    expect(e1.slice(3)).toBe(e2.slice(3)); // same bytes, same hash: the version number keeps them apart
    expect(await current(call, h)).toEqual({ status: 200, etag: e2, body: { name: "Same" } });
    // KV carries the version's ETag as metadata (how the log tells its own writes from outside ones).
    expect((await kv.getWithMetadata(h)).metadata).toEqual({ etag: e2 });
    const revalidated = await call(doc(h), { headers: { "if-none-match": e2 } });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.get("etag")).toBe(e2);
    // Chained: each write's ETag is the If-Match of the next.
    const third = await call(doc(h), put({ name: "Third" }, { "if-match": e2 }));
    expect(third.status).toBe(200);
    const { etag: e3 } = (await third.json()) as Written;
    expect(third.headers.get("etag")).toBe(e3);
    expect((await call(doc(h), put({ name: "Fourth" }, { "if-match": e3 }))).status).toBe(200);
    expect(logs.events("admin_document_changed")).toEqual(
      Array(4).fill({ level: "info", event: "admin_document_changed", key: h, action: "put", repairs: 0 }),
    );
    expect(logs.lines.join("\n")).not.toMatch(/Same|Third|Fourth/);
  });

  it("refuses a stale If-Match with 412 and writes nothing", async () => {
    const call = adminWorker();
    const h = host("stale");
    const e1 = (await call(doc(h), put({ name: "A" }))).headers.get("etag")!;
    const e2 = (await call(doc(h), put({ name: "B" }))).headers.get("etag")!;
    for (const ifMatch of [e1, `W/${e2}`, '"nonsense"', `${e1}, "other"`]) {
      const response = await call(doc(h), put({ name: "Lost" }, { "if-match": ifMatch }));
      expect(response.status, ifMatch).toBe(412);
      expect(((await response.json()) as { error: { message: string } }).error.message).toContain("If-Match");
    }
    expect((await call(doc(h), del({ "if-match": e1 }))).status).toBe(412);
    expect((await call(`${doc(h)}/rollback`, rollback({ "if-match": e1 }))).status).toBe(412);
    expect(await kvDocument(h)).toEqual({ name: "B" });
    expect(await current(call, h)).toMatchObject({ etag: e2, body: { name: "B" } });
    expect((await versions(call, h)).map((v) => v.version)).toEqual([2, 1]);
    expect(await cardName(call, h)).toBe("B");
    // A list naming the current version passes; so does `*` while the document exists.
    expect((await call(doc(h), put({ name: "C" }, { "if-match": `"x", ${e2}` }))).status).toBe(200);
    expect((await call(doc(h), put({ name: "D" }, { "if-match": "*" }))).status).toBe(200);
    expect((await call(doc(h), put({ name: "E" }, { "if-match": "not-quoted" }))).status).toBe(400);
  });

  it("If-Match: * and If-None-Match: * make writes update-only and create-only", async () => {
    const call = adminWorker();
    const h = host("create");
    expect((await call(doc(h), put({ name: "Nope" }, { "if-match": "*" }))).status).toBe(412);
    expect(await kvDocument(h)).toBeNull();
    const created = await call(doc(h), put({ name: "Created" }, { "if-none-match": "*" }));
    expect(created.status).toBe(200);
    const again = await call(doc(h), put({ name: "Overwritten" }, { "if-none-match": "*" }));
    expect(again.status).toBe(412);
    expect(await kvDocument(h)).toEqual({ name: "Created" });
    expect((await current(call, h)).etag).toBe(created.headers.get("etag"));
    // A deleted document does not exist: create-only succeeds again.
    expect((await call(doc(h), del())).status).toBe(200);
    expect((await call(doc(h), put({ name: "Recreated" }, { "if-none-match": "*" }))).status).toBe(200);
    // Five concurrent creators of a fresh key: exactly one wins.
    const fresh = host("create-race");
    const statuses = (
      await Promise.all([0, 1, 2, 3, 4].map((i) => call(doc(fresh), put({ name: `Creator ${i}` }, { "if-none-match": "*" }))))
    ).map((r) => r.status);
    expect([count(statuses, 200), count(statuses, 412)]).toEqual([1, 4]);
    expect(await kvDocument(fresh)).toEqual({ name: `Creator ${statuses.indexOf(200)}` });
  });

  it("ten concurrent PUTs with the same If-Match: exactly one 200 and nine 412, and the 200's document survives (5 rounds)", async () => {
    const call = adminWorker();
    for (let round = 0; round < 5; round++) {
      const h = host(`race${round}`);
      const base = (await call(doc(h), put({ name: "Base" }))).headers.get("etag")!;
      const responses = await Promise.all(
        Array.from({ length: 10 }, (_, i) => call(doc(h), put({ name: `Racer ${i}` }, { "if-match": base }))),
      );
      const statuses = responses.map((r) => r.status);
      expect([count(statuses, 200), count(statuses, 412)], `round ${round}: ${statuses}`).toEqual([1, 9]);
      const winner = statuses.indexOf(200);
      const { etag } = (await responses[winner]!.json()) as Written;
      expect(await kvDocument(h)).toEqual({ name: `Racer ${winner}` });
      expect(await current(call, h)).toEqual({ status: 200, etag, body: { name: `Racer ${winner}` } });
      expect(await cardName(call, h)).toBe(`Racer ${winner}`);
      expect((await versions(call, h)).map((v) => v.origin)).toEqual(["put", "put"]);
    }
  });

  it("ten concurrent PUTs without preconditions: all applied whole, one version each, KV holds the last version", async () => {
    const call = adminWorker();
    const h = host("unconditional");
    const responses = await Promise.all(Array.from({ length: 10 }, (_, i) => call(doc(h), put({ name: `Writer ${i}` }))));
    expect(responses.map((r) => r.status)).toEqual(Array(10).fill(200));
    const written = (await Promise.all(responses.map((r) => r.json()))) as Written[];
    const byVersion = written
      .map((w, i) => ({ version: Number(/^"(\d+)-/.exec(w.etag)![1]), name: `Writer ${i}` }))
      .sort((a, b) => a.version - b.version);
    expect(byVersion.map((w) => w.version)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(await kvDocument(h)).toEqual({ name: byVersion[9]!.name });
    expect((await current(call, h)).body).toEqual({ name: byVersion[9]!.name });
    expect(await cardName(call, h)).toBe(byVersion[9]!.name);
  });

  it("two concurrent rollbacks are both applied in order (two swaps); with the same If-Match one gets 412", async () => {
    const call = adminWorker();
    const h = host("rollbacks");
    await call(doc(h), put({ name: "A" }));
    const b = (await call(doc(h), put({ name: "B" }))).headers.get("etag")!;
    const both = await Promise.all([call(`${doc(h)}/rollback`, rollback()), call(`${doc(h)}/rollback`, rollback())]);
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    expect(new Set(both.map((r) => r.headers.get("etag"))).size).toBe(2);
    expect(await kvDocument(h)).toEqual({ name: "B" }); // A, then B again
    expect((await versions(call, h)).map((v) => v.origin)).toEqual(["rollback", "rollback", "put", "put"]);
    const e4 = (await current(call, h)).etag!;
    expect(e4).not.toBe(b);
    const guarded = await Promise.all([
      call(`${doc(h)}/rollback`, rollback({ "if-match": e4 })),
      call(`${doc(h)}/rollback`, rollback({ "if-match": e4 })),
    ]);
    expect(guarded.map((r) => r.status).sort()).toEqual([200, 412]);
    expect(await kvDocument(h)).toEqual({ name: "A" });
    expect(await cardName(call, h)).toBe("A");
  });

  it("DELETE is a version: rollback restores the document, a second rollback deletes it again", async () => {
    const call = adminWorker();
    const h = host("deleted");
    const put1 = (await call(doc(h), put({ name: "Kept" }))).headers.get("etag")!;
    const deleted = await call(doc(h), del({ "if-match": put1 }));
    expect(deleted.status).toBe(200);
    const deletedEtag = deleted.headers.get("etag")!;
    expect(deletedEtag).toBe('"2-deleted"');
    expect(((await deleted.json()) as Written).action).toBe("delete");
    expect(await kvDocument(h)).toBeNull();
    expect(await cardName(call, h)).toBe(bundled.name);
    // The DELETE's ETag names the deleted state: it chains into the rollback.
    const restored = await call(`${doc(h)}/rollback`, rollback({ "if-match": deletedEtag }));
    expect(restored.status).toBe(200);
    expect(await kvDocument(h)).toEqual({ name: "Kept" });
    expect(await cardName(call, h)).toBe("Kept");
    expect(await current(call, h)).toMatchObject({ status: 200, etag: restored.headers.get("etag") });
    expect((await call(`${doc(h)}/rollback`, rollback())).status).toBe(200);
    expect(await kvDocument(h)).toBeNull();
    expect((await current(call, h)).status).toBe(404);
    expect(await cardName(call, h)).toBe(bundled.name);
    expect((await versions(call, h)).map((v) => [v.origin, v.deleted])).toEqual([
      ["rollback", true],
      ["rollback", false],
      ["delete", true],
      ["put", false],
    ]);
  });

  it("keeps a bounded history: the current version and the nine before it", async () => {
    const call = adminWorker();
    const h = host("bounded");
    for (let i = 1; i <= 12; i++) await call(doc(h), put({ name: `V${i}` }));
    expect((await versions(call, h)).map((v) => v.version)).toEqual([12, 11, 10, 9, 8, 7, 6, 5, 4, 3]);
    await call(`${doc(h)}/rollback`, rollback());
    expect(await kvDocument(h)).toEqual({ name: "V11" });
  });
});

describe("KV failures", () => {
  it("a failed KV write answers 503 and leaves the log's current version and KV unchanged (PUT, DELETE, rollback)", async () => {
    const call = adminWorker();
    const h = host("failing");
    await call(doc(h), put({ name: "Previous" }));
    const intact = (await call(doc(h), put({ name: "Intact" }))).headers.get("etag")!;
    const before = await versions(call, h);
    failKvWritesTo(h);
    for (const init of [put({ name: "Never" }), put({ name: "Never" }, { "if-match": intact }), del(), del({ "if-match": intact })]) {
      const response = await call(doc(h), init);
      expect(response.status).toBe(503);
      expect(((await response.json()) as { error: { message: string } }).error.message).toBe(
        "The KV write failed; the current document is unchanged",
      );
    }
    expect((await call(`${doc(h)}/rollback`, rollback())).status).toBe(503);
    expect(await kvDocument(h)).toEqual({ name: "Intact" });
    expect(await current(call, h)).toEqual({ status: 200, etag: intact, body: { name: "Intact" } });
    expect(await versions(call, h)).toEqual(before);
    expect(await cardName(call, h)).toBe("Intact");
    // One line per failed write (4 writes, 1 rollback), naming the error's kind only.
    expect(logs.events().filter((e) => e.level === "error")).toEqual(
      Array(5).fill({ level: "error", event: "admin_write_failed", what: "document", error: "Error" }),
    );
    vi.restoreAllMocks();
    logs = captureConsole();
    // The log still holds `intact` as current: a write conditioned on it goes through.
    expect((await call(doc(h), put({ name: "Later" }, { "if-match": intact }))).status).toBe(200);
    expect(await kvDocument(h)).toEqual({ name: "Later" });
  });

  it("a KV read that returns an older version this log wrote (stale) is not taken for an outside write", async () => {
    const call = adminWorker();
    const h = host("stale-read");
    await call(doc(h), put({ name: "Old" }));
    const latest = (await call(doc(h), put({ name: "New" }))).headers.get("etag")!;
    const [old] = (await versions(call, h)).slice(-1);
    const getWithMetadata = kv.getWithMetadata.bind(kv);
    vi.spyOn(kv, "getWithMetadata").mockImplementation((async (k: string, ...rest: never[]) =>
      k === h
        ? { value: JSON.stringify({ name: "Old" }), metadata: { etag: old!.etag }, cacheStatus: null }
        : getWithMetadata(k, ...rest)) as never);
    expect(await current(call, h)).toEqual({ status: 200, etag: latest, body: { name: "New" } });
    expect((await versions(call, h)).length).toBe(2);
  });
});

describe("writes made outside the admin API", () => {
  it("adopts an out-of-band KV write as a new version before applying the request", async () => {
    const call = adminWorker();
    const h = host("oob");
    const e1 = (await call(doc(h), put({ name: "Through Admin" }))).headers.get("etag")!;
    await kv.put(h, JSON.stringify({ name: "Pushed With Wrangler" })); // wrangler kv key put / skills:push
    const seen = await current(call, h);
    expect(seen).toMatchObject({ status: 200, body: { name: "Pushed With Wrangler" } });
    expect(seen.etag).toMatch(/^"2-/);
    // The outside write moved the version on: If-Match with the old ETag is stale.
    expect((await call(doc(h), put({ name: "Blind" }, { "if-match": e1 }))).status).toBe(412);
    expect((await versions(call, h)).map((v) => v.origin)).toEqual(["adopted", "put"]);
    // Rollback undoes the outside write; a second one brings it back: nothing lost.
    await call(`${doc(h)}/rollback`, rollback());
    expect(await kvDocument(h)).toEqual({ name: "Through Admin" });
    await call(`${doc(h)}/rollback`, rollback());
    expect(await kvDocument(h)).toEqual({ name: "Pushed With Wrangler" });
  });

  it("adopts an outside write that arrives just before a PUT, keeping it as the previous version", async () => {
    const call = adminWorker();
    const h = host("oob-put");
    await call(doc(h), put({ name: "One" }));
    await kv.put(h, JSON.stringify({ name: "Outside" }));
    expect((await call(doc(h), put({ name: "Two" }))).status).toBe(200);
    expect((await versions(call, h)).map((v) => v.origin)).toEqual(["put", "adopted", "put"]);
    await call(`${doc(h)}/rollback`, rollback());
    expect(await kvDocument(h)).toEqual({ name: "Outside" });
  });

  it("adopts an out-of-band delete as a deleted version", async () => {
    const call = adminWorker();
    const h = host("oob-delete");
    await call(doc(h), put({ name: "Was Here" }));
    await kv.delete(h);
    expect((await current(call, h)).status).toBe(404);
    expect((await call(`${doc(h)}/rollback`, rollback())).status).toBe(200);
    expect(await kvDocument(h)).toEqual({ name: "Was Here" });
  });

  it("on first sight adopts KV's document and the old admin API's previous:<key> before it", async () => {
    const call = adminWorker();
    const h = host("legacy");
    await kv.put(`previous:${h}`, JSON.stringify({ name: "Legacy Previous" }));
    await kv.put(h, JSON.stringify({ name: "Legacy Current" }));
    expect(await current(call, h)).toMatchObject({ status: 200, etag: expect.stringMatching(/^"2-/), body: { name: "Legacy Current" } });
    expect((await versions(call, h)).map((v) => v.origin)).toEqual(["adopted", "adopted"]);
    await call(`${doc(h)}/rollback`, rollback());
    expect(await kvDocument(h)).toEqual({ name: "Legacy Previous" });
    await call(`${doc(h)}/rollback`, rollback());
    expect(await kvDocument(h)).toEqual({ name: "Legacy Current" });
    // The old API's DELETE left previous:<key> and no document: a rollback restores it.
    const g = host("legacy-deleted");
    await kv.put(`previous:${g}`, JSON.stringify({ name: "Deleted Before" }));
    expect((await current(call, g)).status).toBe(404);
    expect((await call(`${doc(g)}/rollback`, rollback())).status).toBe(200);
    expect(await kvDocument(g)).toEqual({ name: "Deleted Before" });
  });
});
