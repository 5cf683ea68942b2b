// The live feed inside workerd, with its real Durable Object (CARD_FEEDS, SQLite storage, hibernatable
// WebSockets): the pure parts (feed names, events, `since`, tickets, the FEED_PATH rules), and a
// subscriber's socket receiving the admin API's PUT, rollback and DELETE, resuming with `?since=`,
// refused without the read token, with a reused or foreign ticket, and bounded; an event written through
// `npm run dev`'s address names the card at that address, with the ETag served there. Through `wrangler dev`
// with a real client: test/node/feed.test.ts.
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { parseConfig } from "../../src/config";
import type { CardFeed } from "../../src/feed/card-feed";
import { type FeedChange, feedEvent, feedHostOf, KEPT_EVENTS, parseSince } from "../../src/feed/feed-events";
import { checkTicket, issueTicket, TICKET_LIFETIME_S } from "../../src/feed/tickets";
import { type AdminCall, adminWorker, kv, put, useHosts, type Written } from "../support/admin";
import { type Captured, captureConsole } from "../support/console";
import { until } from "../support/wait";
import { CARD, fakeOrigin } from "../support/worker";

const FEED_TOKEN = "feed-token-0123456789abcdef";
const { host, used } = useHosts();
/** A fresh hostname with a document in KV (written by hand, as `wrangler kv key put` does): a host with a feed. */
const served = async (name: string) => {
  const h = host(name);
  await kv.put(h, JSON.stringify({ name: "Served" }));
  return h;
};
let logs: Captured;
beforeEach(() => {
  logs = captureConsole();
});

type Message = Record<string, unknown> & { type: string };

/** A subscriber: its socket and every message it received, parsed. */
async function subscribe(
  call: AdminCall,
  feed: string,
  query = "",
  auth: string | null = `Bearer ${FEED_TOKEN}`,
  edge = "https://edge.example.com",
) {
  const response = await call(`${edge}/_feed/${feed}${query}`, { headers: { upgrade: "websocket" } }, auth);
  if (response.status !== 101) throw new Error(`no WebSocket: ${response.status} ${await response.text()}`);
  const socket = response.webSocket as WebSocket;
  const messages: Message[] = [];
  socket.addEventListener("message", (event) => {
    if (String(event.data).startsWith("{")) messages.push(JSON.parse(String(event.data)) as Message);
  });
  socket.accept();
  const ready = () => messages.find((m) => m.type === "feed.ready");
  await until(ready, "feed.ready");
  return { socket, messages, events: () => messages.filter((m) => m.type.startsWith("agent-card.")) };
}

const written = async (response: Response) => {
  expect(response.status).toBe(200);
  return (await response.json()) as Written;
};

describe("the feed's pure parts", () => {
  it("names the feed of a key by the part before the first /", () => {
    expect(feedHostOf("agents.example.com")).toBe("agents.example.com");
    expect(feedHostOf("agents.example.com/travel")).toBe("agents.example.com");
    expect(feedHostOf("agents.example.com/travel/eu")).toBe("agents.example.com");
    expect(feedHostOf("default")).toBe("default");
  });

  it("reads since as a whole number only", () => {
    expect(parseSince(null)).toBeUndefined();
    expect(parseSince("0")).toBe(0);
    expect(parseSince("42")).toBe(42);
    for (const bad of ["", "-1", "+1", "1e3", "1.5", "0x10", " 1", "99999999999999999"]) expect(parseSince(bad), bad).toBeNull();
  });

  it("makes an updated or a deleted event carrying the agent, the card's ETag and URL", () => {
    const change: FeedChange = {
      agent: "a.example.com/travel",
      action: "rollback",
      deleted: false,
      etag: '"abc"',
      documentEtag: '"3-0a1b2c3d4e5f"',
      documentVersion: 3,
      cardUrl: `https://a.example.com/travel${CARD}`,
    };
    expect(feedEvent(change, 7, 0)).toEqual({
      type: "agent-card.updated",
      version: 7,
      agent: "a.example.com/travel",
      action: "rollback",
      etag: '"abc"',
      documentEtag: '"3-0a1b2c3d4e5f"',
      cardUrl: `https://a.example.com/travel${CARD}`,
      at: "1970-01-01T00:00:00.000Z",
    });
    expect(feedEvent({ ...change, deleted: true, action: "delete" }, 8, 0).type).toBe("agent-card.deleted");
  });

  it("takes a ticket of its own, for its feed, within its lifetime, once signed", async () => {
    const now = Date.UTC(2026, 0, 1);
    const { ticket, expiresAt } = await issueTicket(FEED_TOKEN, "a.example.com", now);
    expect(ticket).toMatch(/^\d+\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}$/);
    expect(expiresAt).toBe(now / 1000 + TICKET_LIFETIME_S);
    expect(await checkTicket(FEED_TOKEN, "a.example.com", ticket, now)).toMatchObject({ expiresAt });
    expect(await checkTicket(FEED_TOKEN, "a.example.com", ticket, now + (TICKET_LIFETIME_S - 1) * 1000)).not.toBeNull();
    expect(await checkTicket(FEED_TOKEN, "a.example.com", ticket, now + TICKET_LIFETIME_S * 1000)).toBeNull();
    expect(await checkTicket(FEED_TOKEN, "b.example.com", ticket, now)).toBeNull();
    expect(await checkTicket("another-token-0123456789", "a.example.com", ticket, now)).toBeNull();
    const [exp, nonce, mac] = ticket.split(".");
    const flipped = `${mac?.slice(0, -1)}${mac?.endsWith("A") ? "B" : "A"}`;
    for (const forged of [
      `${exp}.${nonce}.${flipped}`,
      `${Number(exp) + 1}.${nonce}.${mac}`,
      `${exp}.x${nonce}.${mac}`,
      `${ticket}.x`,
      "x".repeat(300),
    ]) {
      expect(await checkTicket(FEED_TOKEN, "a.example.com", forged, now), forged).toBeNull();
    }
  });

  it("keeps FEED_PATH apart from the other paths, only when the feed is on", () => {
    const issues = (vars: Record<string, string>) => {
      const parsed = parseConfig(vars);
      return parsed.ok ? [] : parsed.issues.map((issue) => issue.path);
    };
    const on = { FEED_TOKEN };
    expect(issues(on)).toEqual([]);
    for (const FEED_PATH of ["/", "/_admin", "/_admin/feed", "/_push", "/.well-known/feed", "/rest/x"]) {
      expect(issues({ ...on, FEED_PATH, REST_PATH: "/rest" }), FEED_PATH).toEqual(["FEED_PATH"]);
    }
    expect(issues({ ...on, RPC_PATH: "/_feed" })).toEqual(["FEED_PATH"]);
    expect(issues({ FEED_PUBLIC: "true", FEED_PATH: "/_admin" })).toEqual(["FEED_PATH"]);
    expect(issues({ FEED_PATH: "/_admin" })).toEqual([]);
    expect(issues({ FEED_TOKEN: "short" })).toEqual(["FEED_TOKEN"]);
  });
});

describe("the feed through the worker", () => {
  const feedWorker = (vars: Record<string, unknown> = { FEED_TOKEN }) => adminWorker(vars);

  it("sends PUT, rollback and DELETE as they happen, and a reconnection with since= gets what it missed", async () => {
    const call = feedWorker();
    const h = await served("feed");
    const first = await subscribe(call, h);
    expect(first.messages).toEqual([{ type: "feed.ready", feed: h, version: 0 }]);
    const one = await written(await call(`https://admin.example.com/_admin/documents/${h}`, put({ name: "One" })));
    const two = await written(await call(`https://admin.example.com/_admin/documents/${h}`, put({ name: "Two" })));
    await until(() => first.events().length === 2, "two put events");
    first.socket.close(1000, "away");
    const back = await written(await call(`https://admin.example.com/_admin/documents/${h}/rollback`, { method: "POST" }));
    const gone = await written(await call(`https://admin.example.com/_admin/documents/${h}`, { method: "DELETE" }));
    const again = await subscribe(call, h, `?since=${first.events().at(-1)?.version}`);
    const cardUrl = `https://${h}${CARD}`;
    const all = [...first.events(), ...again.events()];
    expect(all.map(({ at, ...event }) => event)).toEqual([
      { type: "agent-card.updated", version: 1, agent: h, action: "put", etag: one.cardEtags.hybrid, documentEtag: one.etag, cardUrl },
      { type: "agent-card.updated", version: 2, agent: h, action: "put", etag: two.cardEtags.hybrid, documentEtag: two.etag, cardUrl },
      {
        type: "agent-card.updated",
        version: 3,
        agent: h,
        action: "rollback",
        etag: back.cardEtags.hybrid,
        documentEtag: back.etag,
        cardUrl,
      },
      { type: "agent-card.deleted", version: 4, agent: h, action: "delete", etag: gone.cardEtags.hybrid, documentEtag: gone.etag, cardUrl },
    ]);
    expect(back.cardEtags.hybrid).toBe(one.cardEtags.hybrid);
    expect(again.messages.at(-1)).toEqual({ type: "feed.ready", feed: h, version: 4 });
    // Live after the replay.
    await written(await call(`https://admin.example.com/_admin/documents/${h}`, put({ name: "Three" })));
    await until(() => again.events().length === 3, "the live event after the replay");
    expect(again.events().at(-1)).toMatchObject({ version: 5, action: "put" });
    expect(logs.events("feed_published").map((e) => e.version)).toEqual([1, 2, 3, 4, 5]);
    expect(logs.events("feed_subscribed")).toMatchObject([
      { feed: h, since: null, replayed: 0 },
      { feed: h, since: 2, replayed: 2 },
    ]);
    expect(logs.lines.join("\n")).not.toContain(FEED_TOKEN);
    again.socket.close(1000);
  });

  // `npm run dev` (.dev.vars.example): the edge at http://127.0.0.1:8787, which also serves localhost:8787. An event
  // names the card as that server serves it: its cardUrl answers 304 to If-None-Match with the event's etag
  // (RFC 9110 §13.1.2), where `https://127.0.0.1/travel` would be no URL of the dev server, with another card.
  it("names the card at the dev server's own URL and ETag when the admin request came to that server", async () => {
    const registries = fakeOrigin(() => new Response("ok"));
    const hook = "https://registry.example/hook";
    const call = adminWorker(
      { FEED_TOKEN, HOST_ALLOWLIST: "127.0.0.1:8787,localhost:8787,other.example.com", REGISTRY_WEBHOOKS: hook },
      registries,
    );
    const edge = "http://127.0.0.1:8787";
    const path = `/travel-${crypto.randomUUID().slice(0, 8)}`;
    const agents = { own: `127.0.0.1${path}`, served: `localhost${path}`, elsewhere: `other.example.com${path}` };
    used.push(...Object.values(agents));
    const subs = await Promise.all(
      ["127.0.0.1", "localhost", "other.example.com"].map((feed) => subscribe(call, feed, "", undefined, edge)),
    );
    const announced = async (agent: string) => {
      const body = await written(await call(`${edge}/_admin/documents/${agent}`, put({ name: "Travel" })));
      const heard = () => subs.flatMap((sub) => sub.events()).find((e) => e.agent === agent);
      const event: Message = await until(heard, `the event of ${agent}`).then((found) => found ?? { type: "none" });
      expect(event.etag).toBe(body.cardEtags.hybrid);
      return event;
    };
    const own = await announced(agents.own);
    expect(own.cardUrl).toBe(`${edge}${path}${CARD}`);
    // A host HOST_ALLOWLIST names on the admin request's port: that host:port, as the dev server serves it there.
    const served = await announced(agents.served);
    expect(served.cardUrl).toBe(`http://localhost:8787${path}${CARD}`);
    for (const event of [own, served]) {
      const card = await call(String(event.cardUrl), { headers: { "if-none-match": String(event.etag) } }, null);
      expect(card.status, String(event.cardUrl)).toBe(304);
    }
    // A host named without this port: the host as deployed, as before.
    expect((await announced(agents.elsewhere)).cardUrl).toBe(`https://${agents.elsewhere}${CARD}`);
    // The registries hear of the same card: its ETag, and its URL under the path agent's base.
    const hooked = registries.bodies.map(
      (body) => JSON.parse(new TextDecoder().decode(body)) as { host: string; etag: string; card: { url: string } },
    );
    expect(hooked.find((change) => change.host === agents.own)).toMatchObject({ etag: own.etag, card: { url: `${edge}${path}/` } });
    for (const agent of Object.values(agents)) await written(await call(`${edge}/_admin/documents/${agent}`, { method: "DELETE" }));
    for (const sub of subs) sub.socket.close(1000);
  });

  it("is off (404) without FEED_TOKEN or FEED_PUBLIC, and open to anyone with FEED_PUBLIC", async () => {
    const h = await served("public");
    const off = await feedWorker({})(`https://edge.example.com/_feed/${h}`, { headers: { upgrade: "websocket" } }, null);
    expect(off.status).toBe(404);
    const call = feedWorker({ FEED_PUBLIC: "true" });
    const open = await subscribe(call, h, "", null);
    await written(await call(`https://admin.example.com/_admin/documents/${h}`, put({ name: "Open" })));
    await until(() => open.events().length === 1, "the public event");
    expect(logs.events("feed_admitted")).toMatchObject([{ feed: h, by: "public" }]);
    open.socket.close(1000);
  });

  it("refuses a missing or wrong token (401), a bad since or a plain GET (400), a since ahead of the feed (400)", async () => {
    const call = feedWorker();
    const h = await served("refused");
    const ws = { headers: { upgrade: "websocket" } };
    for (const auth of [null, "Bearer wrong-token-0123456789abcdef", `Bearer ${FEED_TOKEN}x`, `Basic ${btoa(`x:${FEED_TOKEN}`)}`]) {
      const response = await call(`https://edge.example.com/_feed/${h}`, ws, auth);
      expect(response.status, String(auth)).toBe(401);
      expect(response.headers.get("www-authenticate")).toMatch(/^Bearer realm=/);
      expect(await response.text()).not.toContain(FEED_TOKEN);
    }
    expect(logs.events("feed_refused")).toHaveLength(4);
    const bearer = `Bearer ${FEED_TOKEN}`;
    for (const since of ["-1", "abc", "1.0"]) {
      expect((await call(`https://edge.example.com/_feed/${h}?since=${since}`, ws, bearer)).status, since).toBe(400);
    }
    expect((await call(`https://edge.example.com/_feed/${h}`, {}, bearer)).status).toBe(400);
    const ahead = await call(`https://edge.example.com/_feed/${h}?since=1`, ws, bearer);
    expect(ahead.status).toBe(400);
    expect(await ahead.text()).toContain("since is ahead of the feed (its latest version is 0)");
    expect((await call("https://edge.example.com/_feed/not_a_host", ws, bearer)).status).toBe(400);
    const allowlisted = feedWorker({ FEED_TOKEN, HOST_ALLOWLIST: "only.example.com" });
    expect((await allowlisted(`https://edge.example.com/_feed/${h}`, ws, bearer)).status).toBe(404);
  });

  it("answers 404 to a request on a host outside HOST_ALLOWLIST, as every route does, whatever feed it names", async () => {
    const h = host("allowed");
    const elsewhere = host("elsewhere");
    const call = feedWorker({ FEED_TOKEN, HOST_ALLOWLIST: h });
    const ws = { headers: { upgrade: "websocket" } };
    const bearer = `Bearer ${FEED_TOKEN}`;
    expect((await call(`https://${elsewhere}${CARD}`, {}, null)).status).toBe(404);
    expect((await call(`https://${elsewhere}/_feed/${h}`, ws, bearer)).status).toBe(404);
    expect((await call(`https://${h}/_feed/${elsewhere}`, ws, bearer)).status).toBe(404);
    const own = await subscribe(call, h, "", undefined, `https://${h}`);
    expect(own.messages).toEqual([{ type: "feed.ready", feed: h, version: 0 }]);
    own.socket.close(1000);
  });

  it("has no feed for a hostname the edge has no document for (404), and has one once a document is stored", async () => {
    const ws = { headers: { upgrade: "websocket" } };
    const open = feedWorker({ FEED_PUBLIC: "true" });
    const h = host("unserved");
    expect((await open(`https://edge.example.com/_feed/${h}`, ws, null)).status).toBe(404);
    expect((await feedWorker()(`https://edge.example.com/_feed/${h}`, ws, `Bearer ${FEED_TOKEN}`)).status).toBe(404);
    // Stored through the admin API: the feed exists, with the write's event.
    await written(await open(`https://admin.example.com/_admin/documents/${h}`, put({ name: "Now Served" })));
    const sub = await subscribe(open, h, "?since=0", null);
    expect(sub.events().map((e) => e.action)).toEqual(["put"]);
    sub.socket.close(1000);
    // Deleted: the host keeps its feed (its last good copy is kept), so a subscriber away then still hears of it.
    await written(await open(`https://admin.example.com/_admin/documents/${h}`, { method: "DELETE" }));
    const back = await subscribe(feedWorker({ FEED_PUBLIC: "true" }), h, "?since=1", null);
    expect(back.events().map((e) => e.type)).toEqual(["agent-card.deleted"]);
    back.socket.close(1000);
    // A host with agents by path only (its index names them), and one whose document was written to KV by hand.
    const paths = host("paths");
    used.push(`${paths}/travel`);
    expect((await open(`https://edge.example.com/_feed/${paths}`, ws, null)).status).toBe(404);
    await written(await open(`https://admin.example.com/_admin/documents/${paths}/travel`, put({ name: "Travel" })));
    const byHand = await served("by-hand");
    for (const feed of [paths, byHand]) (await subscribe(feedWorker({ FEED_PUBLIC: "true" }), feed, "", null)).socket.close(1000);
  });

  it("keeps FEED_PATH from agents by path: a write there is refused (400), a request there is the feed's", async () => {
    const h = await served("feed-path");
    used.push(`${h}/feed`);
    const call = feedWorker({ FEED_TOKEN, FEED_PATH: "/feed" });
    for (const path of ["feed", "feed/eu"]) {
      const refused = await call(`https://admin.example.com/_admin/documents/${h}/${path}`, put({ name: "Feed" }));
      expect(refused.status, path).toBe(400);
      expect(await refused.text()).toContain(`the agent path /${path} collides with /feed, which the edge answers itself`);
    }
    // An agent stored at /feed while the feed was at the default /_feed: the host's feed still answers at /feed/<host>.
    await written(await feedWorker()(`https://admin.example.com/_admin/documents/${h}/feed`, put({ name: "Before" })));
    const response = await call(`https://${h}/feed/${h}`, { headers: { upgrade: "websocket" } }, `Bearer ${FEED_TOKEN}`);
    expect(response.status).toBe(101);
    response.webSocket?.accept();
    response.webSocket?.close(1000);
  });

  it("takes a ticket from the admin API once, for its feed only", async () => {
    const call = feedWorker();
    const h = await served("ticket");
    const other = host("other");
    const issued = await call("https://admin.example.com/_admin/feed-tickets", { method: "POST", body: JSON.stringify({ feed: h }) });
    expect(issued.status).toBe(200);
    expect(issued.headers.get("cache-control")).toBe("no-store");
    const { ticket, feed } = (await issued.json()) as { ticket: string; feed: string };
    expect(feed).toBe(h);
    const ws = { headers: { upgrade: "websocket" } };
    expect((await call(`https://edge.example.com/_feed/${other}?ticket=${ticket}`, ws, null)).status).toBe(401);
    const admitted = await subscribe(call, h, `?ticket=${ticket}`, null);
    const reused = await call(`https://edge.example.com/_feed/${h}?ticket=${ticket}`, ws, null);
    expect(reused.status).toBe(401);
    expect(reused.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect(logs.events("feed_refused").map((e) => e.reason)).toEqual(["unauthenticated", "ticket_reused"]);
    // The ticket is no admin credential, and tickets need the admin token.
    expect((await call("https://admin.example.com/_admin/hosts", {}, `Bearer ${ticket}`)).status).toBe(401);
    const anonymous = await call(
      "https://admin.example.com/_admin/feed-tickets",
      { method: "POST", body: JSON.stringify({ feed: h }) },
      null,
    );
    expect(anonymous.status).toBe(401);
    expect((await call("https://admin.example.com/_admin/feed-tickets", { method: "POST", body: "{}" })).status).toBe(400);
    expect(JSON.stringify(logs.lines)).not.toContain(ticket);
    admitted.socket.close(1000);
  });
});

describe("the feed's Durable Object", () => {
  const change = (agent: string, documentVersion: number): FeedChange => ({
    agent,
    action: "put",
    deleted: false,
    etag: `"e${documentVersion}"`,
    documentEtag: `"${documentVersion}-x"`,
    documentVersion,
    cardUrl: `https://${agent}${CARD}`,
  });
  const feeds = env.CARD_FEEDS as DurableObjectNamespace<CardFeed>;

  it(`keeps the last ${KEPT_EVENTS} events, says what a too-old since lost, and drops a change older than one already sent`, async () => {
    const h = await served("kept");
    const stub = feeds.get(feeds.idFromName(h));
    await runInDurableObject(stub, (feed: CardFeed) => {
      for (let v = 1; v <= KEPT_EVENTS + 5; v++) feed.publish(h, change(v % 2 ? h : `${h}/travel`, v));
      expect(feed.publish(h, change(h, 3))).toBeNull();
    });
    expect(logs.events("feed_change_superseded")).toHaveLength(1);
    const replay = await subscribe(adminWorker({ FEED_TOKEN }), h, "?since=2");
    expect(replay.messages[0]).toEqual({ type: "feed.truncated", since: 2, oldest: 6 });
    expect(replay.events().map((e) => e.version)).toEqual(Array.from({ length: KEPT_EVENTS }, (_, i) => i + 6));
    expect(replay.events().slice(-2)).toMatchObject([
      { agent: `${h}/travel`, version: KEPT_EVENTS + 4, etag: `"e${KEPT_EVENTS + 4}"` },
      { agent: h, version: KEPT_EVENTS + 5, etag: `"e${KEPT_EVENTS + 5}"` },
    ]);
    replay.socket.close(1000);
  });

  it("takes 1000 subscribers per feed and answers the next one 503, until one leaves", { timeout: 120_000 }, async () => {
    const h = await served("full");
    const stub = feeds.get(feeds.idFromName(h));
    const url = `https://card-feed.internal/subscribe?feed=${h}`;
    const sockets = await Promise.all(
      Array.from({ length: 1000 }, async () => {
        const response = await stub.fetch(url, { headers: { upgrade: "websocket" } });
        expect(response.status).toBe(101);
        const socket = response.webSocket as WebSocket;
        socket.accept();
        return socket;
      }),
    );
    const full = await subscribe(adminWorker({ FEED_TOKEN }), h).catch((error: Error) => error.message);
    expect(full).toMatch(/^no WebSocket: 503 .*as many subscribers as it takes/);
    expect(logs.events("feed_refused")).toMatchObject([{ feed: h, reason: "full", subscribers: 1000 }]);
    const leaving = sockets.pop() as WebSocket;
    const left = new Promise((resolve) => leaving.addEventListener("close", resolve));
    leaving.close(1000);
    await left;
    const last = await until(() => subscribe(adminWorker({ FEED_TOKEN }), h).catch(() => undefined), "a place for one more");
    for (const socket of [...sockets]) socket.close(1000);
    last?.socket.close(1000);
  });

  // RFC 6455 §5.5.1: unanswered, the subscriber would wait out its closing timeout and see 1006 (abnormal closure).
  // The test's bound lets that failure show its close code: workerd gives up on the handshake after 10 s.
  it("answers a subscriber's Close frame with its own, echoing code and reason (none if none)", { timeout: 60_000 }, async () => {
    const call = adminWorker({ FEED_TOKEN });
    const h = await served("leave");
    for (const [code, reason] of [
      [1000, ""],
      [4001, "going away"],
      [undefined, ""],
    ] as const) {
      const sub = await subscribe(call, h);
      const closed = new Promise<CloseEvent>((resolve) => sub.socket.addEventListener("close", resolve));
      sub.socket.close(code, reason || undefined);
      expect(await closed, String(code)).toMatchObject({ code: code ?? 1005, reason, wasClean: true });
    }
  });

  it("closes a socket that sends anything but ping (1003), or too much (1009); ping is answered pong", async () => {
    const call = adminWorker({ FEED_TOKEN });
    const h = await served("talk");
    for (const [sent, code] of [
      ["hello", 1003],
      ["x".repeat(1000), 1009],
    ] as const) {
      const sub = await subscribe(call, h);
      const closed = new Promise<number>((resolve) => sub.socket.addEventListener("close", (event) => resolve(event.code)));
      const pong = new Promise((resolve) => sub.socket.addEventListener("message", (event) => event.data === "pong" && resolve(true)));
      sub.socket.send("ping");
      expect(await pong).toBe(true);
      sub.socket.send(sent);
      expect(await closed).toBe(code);
    }
  });
});
