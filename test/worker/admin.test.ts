import { beforeEach, describe, expect, it, vi } from "vitest";
import telex from "../fixtures/cards/telex-sample.json";
import bundled from "../fixtures/sample-card.json";
import { cardName, kv, put, TOKEN, useHosts, type Written, adminWorker as worker } from "../support/admin";
import { type Captured, captureConsole } from "../support/console";
import { CARD, fakeOrigin } from "../support/worker";

const { host, used } = useHosts();
// Every write logs what changed (key and action, never the document): taken here, asserted where it matters.
let logs: Captured;
beforeEach(() => {
  logs = captureConsole();
});

describe("admin API", () => {
  it("does not exist without ADMIN_TOKEN", async () => {
    const call = worker({ ADMIN_TOKEN: undefined });
    expect((await call("https://a.example.com/_admin/hosts")).status).toBe(404);
  });

  it("requires the bearer token, compared as SHA-256 digests in constant time", async () => {
    const call = worker();
    const digest = vi.spyOn(crypto.subtle, "digest");
    // The last: as long as the token, one character off (a length check alone would take it).
    const nearMiss = `Bearer ${TOKEN.slice(0, -1)}${TOKEN.endsWith("x") ? "y" : "x"}`;
    for (const auth of [null, "Bearer wrong-token-0123456789ab", `Basic ${btoa(`x:${TOKEN}`)}`, TOKEN, nearMiss]) {
      const response = await call("https://a.example.com/_admin/hosts", {}, auth);
      expect(response.status).toBe(401);
      expect(response.headers.get("www-authenticate")).toMatch(/^Bearer/);
      expect(await response.text()).not.toContain(TOKEN);
    }
    expect(digest).toHaveBeenCalled();
    expect((await call("https://a.example.com/_admin/hosts")).status).toBe(200);
    expect((await call("https://a.example.com/_admin/hosts", {}, `bearer ${TOKEN}`)).status).toBe(200); // RFC 9110 §11.1
  });

  it("PUT validates, writes, answers with the version's ETag and the cards' ETags, and the card changes at once", async () => {
    const call = worker();
    const h = host("put");
    const response = await call(`https://x.example.com/_admin/documents/${h}`, put({ name: "Pushed Agent" }));
    expect(response.status).toBe(200);
    const body = (await response.json()) as Written;
    expect(body).toMatchObject({ key: h, action: "put" });
    expect(Object.keys(body.cardEtags).sort()).toEqual(["hybrid", "legacy", "v0.3", "v1"]);
    expect(body.etag).toMatch(/^"1-[0-9a-f]{12}"$/);
    expect(response.headers.get("etag")).toBe(body.etag);
    const card = await call(`https://${h}${CARD}`, {}, null);
    expect(card.headers.get("etag")).toBe(body.cardEtags.hybrid);
    expect(((await card.json()) as { name: string }).name).toBe("Pushed Agent");
    expect(JSON.parse((await kv.get(h))!)).toEqual({ name: "Pushed Agent" });
    const read = await call(`https://x.example.com/_admin/documents/${h}`);
    expect(read.headers.get("etag")).toBe(body.etag);
    expect(await read.json()).toEqual({ name: "Pushed Agent" });
    expect(logs.events()).toEqual([{ level: "info", event: "admin_document_changed", key: h, action: "put", repairs: 0 }]);
    expect(logs.lines.join("\n")).not.toContain("Pushed Agent");
  });

  it("PUT accepts an A2A card (the Telex sample), stores it as given, answers and GETs with the repairs the published card carries", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const call = worker();
    const h = host("card");
    const response = await call(`https://x.example.com/_admin/documents/${h}`, put(telex));
    expect(response.status).toBe(200);
    const body = (await response.json()) as Written & { kind: string; repairs: { rule: string; path: string }[] };
    expect(body.kind).toBe("card");
    expect(body.repairs.map((r) => r.rule).sort()).toEqual(["derived-field", "example-object", "skill-tags"]);
    expect(response.headers.get("card-repaired")).toBe("3; rules=derived-field,skill-tags,example-object");
    expect(JSON.parse((await kv.get(h))!)).toEqual(telex);
    const card = await call(`https://${h}${CARD}`, {}, null);
    expect(card.headers.get("card-repaired")).toBe(response.headers.get("card-repaired"));
    expect(card.headers.get("etag")).toBe(body.cardEtags.hybrid);
    const read = await call(`https://x.example.com/_admin/documents/${h}`);
    expect(await read.json()).toEqual(telex);
    expect(read.headers.get("card-repaired")).toBe(response.headers.get("card-repaired"));
    const repairs = (await (await call(`https://x.example.com/_admin/documents/${h}/repairs`)).json()) as any;
    expect(repairs).toMatchObject({ key: h, publishable: true, kind: "card", repairs: body.repairs });
    const page = await (await call(`https://${h}/`, { headers: { accept: "text/html" } }, null)).text();
    expect(page).toContain("The card was repaired to publish it (3)");
  });

  it("PUT refuses an invalid document with 422 and the zod issues, writing nothing", async () => {
    const call = worker();
    const h = host("invalid");
    await kv.put(h, JSON.stringify({ name: "Before" }));
    for (const doc of [{ name: "", skills: [{ name: "A" }, { name: "A" }] }, "{ not json", { descripton: "typo" }]) {
      const response = await call(`https://x.example.com/_admin/documents/${h}`, put(doc));
      expect(response.status).toBe(422);
      const { error } = (await response.json()) as { error: { code: number; details: { path: string; message: string }[] } };
      expect(error.code).toBe(422);
      expect(error.details.length).toBeGreaterThan(0);
    }
    expect(JSON.parse((await kv.get(h))!)).toEqual({ name: "Before" });
    // Nothing written: the log holds only what it adopted from KV (on its first read).
    const { versions } = (await (await call(`https://x.example.com/_admin/documents/${h}/versions`)).json()) as {
      versions: { origin: string }[];
    };
    expect(versions.map((v) => v.origin)).toEqual(["adopted"]);
  });

  it("keeps the previous version: DELETE falls back, rollback restores, a second rollback redoes", async () => {
    const call = worker();
    const h = host("history");
    await call(`https://x.example.com/_admin/documents/${h}`, put({ name: "V1" }));
    await call(`https://x.example.com/_admin/documents/${h}`, put({ name: "V2" }));
    expect(await cardName(call, h)).toBe("V2");
    expect((await call(`https://x.example.com/_admin/documents/${h}/rollback`, { method: "POST" })).status).toBe(200);
    expect(await cardName(call, h)).toBe("V1");
    await call(`https://x.example.com/_admin/documents/${h}/rollback`, { method: "POST" });
    expect(await cardName(call, h)).toBe("V2");
    expect((await call(`https://x.example.com/_admin/documents/${h}`, { method: "DELETE" })).status).toBe(200);
    expect(await cardName(call, h)).toBe(bundled.name);
    expect((await call(`https://x.example.com/_admin/documents/${h}`)).status).toBe(404);
    expect((await call(`https://x.example.com/_admin/documents/${h}`, { method: "DELETE" })).status).toBe(404);
    await call(`https://x.example.com/_admin/documents/${h}/rollback`, { method: "POST" });
    expect(await cardName(call, h)).toBe("V2");
  });

  it("answers 404 for a rollback without history and 400 for a key that is not a hostname", async () => {
    const call = worker();
    expect((await call(`https://x.example.com/_admin/documents/${host("none")}/rollback`, { method: "POST" })).status).toBe(404);
    for (const key of ["not a host", "previous:x", "a_b.example.com", "-bad.example.com"]) {
      expect((await call(`https://x.example.com/_admin/documents/${encodeURIComponent(key)}`, put({}))).status).toBe(400);
    }
  });

  it("describes the document it wrote, not the requesting host's", async () => {
    const call = worker();
    const own = host("own");
    await call(`https://x.example.com/_admin/documents/${own}`, put({ name: "Own" }));
    // PUT default through a host that has its own document: the ETags are of the default card.
    used.push("default");
    const response = await call(`https://${own}/_admin/documents/default`, put({ name: "New Default" }));
    const { cardEtags } = (await response.json()) as Written;
    const served = await call(`https://${own}${CARD}`, {}, null);
    expect(((await served.json()) as { name: string }).name).toBe("Own");
    expect(cardEtags.hybrid).not.toBe(served.headers.get("etag"));
  });

  it("refuses documents for hosts outside HOST_ALLOWLIST", async () => {
    const call = worker({ HOST_ALLOWLIST: "agents.example.com" });
    const response = await call("https://x.example.com/_admin/documents/elsewhere.example.com", put({ name: "Nope" }));
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("HOST_ALLOWLIST");
    expect(await kv.get("elsewhere.example.com")).toBeNull();
  });

  it("lists the configured hosts and the allowlist", async () => {
    const h = host("listed");
    const call = worker({ HOST_ALLOWLIST: `b.example.com,a.example.com,${h}` });
    await kv.put(`previous:${h}`, JSON.stringify({ name: "Old" })); // the old admin API's internal key
    await call(`https://x.example.com/_admin/documents/${h}`, put({ name: "Listed" }));
    const body = (await (await call("https://x.example.com/_admin/hosts")).json()) as { hosts: string[]; allowlist: string[] };
    expect(body.hosts).toContain(h);
    expect(body.hosts.some((k) => k.startsWith("previous:"))).toBe(false);
    expect(body.allowlist).toEqual(["a.example.com", "b.example.com", h].sort());
  });

  it("notifies every registry webhook with the new card, retrying a failing one up to 3 times", async () => {
    vi.spyOn(console, "log").mockImplementation(() => {});
    vi.spyOn(console, "warn").mockImplementation(() => {});
    let flakyCalls = 0;
    const registries = fakeOrigin((req) => {
      if (new URL(req.url).host === "flaky.registry.example") return new Response("busy", { status: flakyCalls++ < 1 ? 503 : 200 });
      if (new URL(req.url).host === "gone.registry.example") return new Response("no", { status: 410 });
      return new Response("ok");
    });
    const call = worker(
      { REGISTRY_WEBHOOKS: "https://registry.example/hook,https://flaky.registry.example/h,https://gone.registry.example/h" },
      registries,
    );
    const h = host("hooked");
    await call(`https://x.example.com/_admin/documents/${h}`, put({ name: "Hooked Agent" }));
    const hosts = registries.requests.map((r) => new URL(r.url).host).sort();
    expect(hosts).toEqual(["flaky.registry.example", "flaky.registry.example", "gone.registry.example", "registry.example"]);
    const event = JSON.parse(new TextDecoder().decode(registries.bodies[0]));
    expect(event).toMatchObject({
      type: "agent-card.updated",
      host: h,
      action: "put",
      card: { name: "Hooked Agent", url: `https://${h}/` },
    });
  });
});

describe("many agents on one worker", () => {
  it("answers 404 for a host outside HOST_ALLOWLIST, on the card and on the RPC path", async () => {
    const call = worker({ HOST_ALLOWLIST: "agents.example.com", ORIGIN_URL: "http://10.0.0.1/" });
    expect((await call(`https://agents.example.com${CARD}`, {}, null)).status).toBe(200);
    expect((await call(`https://other.example.com${CARD}`, {}, null)).status).toBe(404);
    const rpc = { method: "POST", headers: { "content-type": "application/json" }, body: '{"jsonrpc":"2.0","id":1,"method":"GetTask"}' };
    expect((await call("https://other.example.com/", rpc, null)).status).toBe(404);
  });

  it("sends a host's RPC to the origin its document names, when DOCUMENT_ORIGINS lists it", async () => {
    const origin = fakeOrigin(() => Response.json({ jsonrpc: "2.0", id: 1, result: {} }));
    const call = worker({ ORIGIN_URL: "http://10.0.0.1/", DOCUMENT_ORIGINS: "http://10.0.0.2:7000", EDGE_AUTH: "off" }, origin);
    const a = host("agent-a");
    await call(`https://x.example.com/_admin/documents/${a}`, put({ name: "A", originUrl: "http://10.0.0.2:7000/a2a" }));
    const rpc = { method: "POST", headers: { "content-type": "application/json" }, body: '{"jsonrpc":"2.0","id":1,"method":"GetTask"}' };
    await call(`https://${a}/`, rpc, null);
    await call("https://b.example.com/", rpc, null);
    expect(origin.requests.map((r) => r.url)).toEqual(["http://10.0.0.2:7000/a2a", "http://10.0.0.1/"]);
    // The document's origin never appears in its card.
    expect(await (await call(`https://${a}${CARD}`, {}, null)).text()).not.toContain("10.0.0.2");
  });

  it("ignores (and logs once) a document origin outside DOCUMENT_ORIGINS: a document cannot steal ORIGIN_HEADERS", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const origin = fakeOrigin(() => Response.json({ jsonrpc: "2.0", id: 1, result: {} }));
    const call = worker({ ORIGIN_URL: "http://10.0.0.1/", ORIGIN_HEADERS: '{"Authorization":"Bearer origin-only"}' }, origin);
    const h = host("thief");
    await call(`https://x.example.com/_admin/documents/${h}`, put({ name: "Thief", originUrl: "https://attacker.example/" }));
    const rpc = { method: "POST", headers: { "content-type": "application/json" }, body: '{"jsonrpc":"2.0","id":1,"method":"GetTask"}' };
    await call(`https://${h}/`, rpc, null);
    await call(`https://${h}/`, rpc, null);
    expect(origin.requests.map((r) => new URL(r.url).host)).toEqual(["10.0.0.1", "10.0.0.1"]);
    const refused = warn.mock.calls.map((c) => JSON.parse(c[0] as string)).filter((l) => l.event === "document_origin_refused");
    expect(refused).toEqual([expect.objectContaining({ host: h, origin: "attacker.example" })]);
  });
});
