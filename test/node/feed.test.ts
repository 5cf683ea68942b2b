// The live feed end to end: the worker as deployed (the built bundle in workerd: its CardFeed Durable Object, hibernatable
// WebSockets and all) and real WebSocket clients (Node's own, the WHATWG API a browser has) receiving
// the admin API's PUT, rollback and DELETE; a client that disconnects and reconnects with `?since=` gets
// every event it missed, once, in order; a browser's way in (a ticket from the admin API, single use);
// refusals seen as the handshake's HTTP status (node:http, which shows it); `npm run skills:push` with
// ADMIN_URL going through the admin API (so the feed hears of it); `npm run feed`, the subscriber of the
// one-machine guide (docs/feed.md); a second worker with FEED_PUBLIC=true.
import { randomUUID } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { logEvents } from "../support/console";
import { type Served, startWorker } from "../support/e2e";
import { ROOT, run, start } from "../support/processes";
import { until, within } from "../support/wait";

const ADMIN_TOKEN = "admin-token-feed-0123456789";
const FEED_TOKEN = "feed-token-e2e-0123456789abcdef";
const CARD = "/.well-known/agent-card.json";

interface Dev {
  base: string;
  dev: Served;
  stop: () => Promise<void>;
}

async function startFeedWorker(vars: Record<string, string>): Promise<Dev> {
  const { dev, base } = await startWorker({ ADMIN_TOKEN, ...vars }, { documents: SEEDED });
  return { dev, base, stop: dev.stop };
}

/** Node's WebSocket (undici's) also takes `{headers}`, a server-side client's way to send the token; the DOM type knows only protocols. */
const NodeWebSocket = WebSocket as unknown as new (url: string, init: { headers: Record<string, string> }) => WebSocket;

type Message = Record<string, unknown> & { type: string; version?: number };

/** A subscriber on a real WebSocket: every message it got, parsed; open once the feed said it is ready. */
async function subscribe(dev: Dev, feed: string, query = "", headers: Record<string, string> = { authorization: `Bearer ${FEED_TOKEN}` }) {
  const socket = new NodeWebSocket(`${dev.base.replace(/^http/, "ws")}/_feed/${feed}${query}`, { headers });
  const messages: Message[] = [];
  socket.addEventListener("message", (event) => messages.push(JSON.parse(String(event.data)) as Message));
  const closed = new Promise<CloseEvent>((resolve) => socket.addEventListener("close", resolve));
  await until(() => messages.some((m) => m.type === "feed.ready") || socket.readyState === WebSocket.CLOSED, "the feed's ready message");
  if (socket.readyState === WebSocket.CLOSED) throw new Error(`no subscription to ${feed}${query}`);
  // The feed answers the client's Close frame (RFC 6455 §5.5.1): a clean close, not 1006 after the client's own timeout.
  const close = async () => {
    socket.close(1000);
    const { code, wasClean } = await closed;
    expect({ code, wasClean }).toEqual({ code: 1000, wasClean: true });
  };
  return { messages, events: () => messages.filter((m) => m.type.startsWith("agent-card.")), close };
}

/** The handshake's HTTP status, as node:http sees it (101, or the refusal). */
function handshakeStatus(dev: Dev, path: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const upgrade = {
      connection: "Upgrade",
      upgrade: "websocket",
      "sec-websocket-version": "13",
      "sec-websocket-key": btoa(randomUUID().slice(0, 16)),
    };
    const req = request(`${dev.base}${path}`, { headers: { ...upgrade, ...headers } });
    req.on("upgrade", (response, socket) => {
      socket.destroy();
      resolve(response.statusCode ?? 0);
    });
    req.on("response", (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    req.on("error", reject);
    req.end();
  });
}

const admin = async (dev: Dev, path: string, init: RequestInit = {}) => {
  const response = await fetch(`${dev.base}/_admin${path}`, {
    ...init,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as { etag: string; cardEtags: Record<string, string>; ticket: string };
};
const putDocument = (dev: Dev, key: string, name: string) =>
  admin(dev, `/documents/${key}`, { method: "PUT", body: JSON.stringify({ name }) });
const hostname = (name: string) => `${name}-${randomUUID().slice(0, 8)}.example.com`;
/** The hosts the tests subscribe to, each with a document in SKILLS from the start: a feed exists only for a host the edge has a document for. */
const HOSTS = {
  feed: hostname("feed"),
  ticket: hostname("ticket"),
  skillsPush: hostname("skills-push"),
  npmFeed: hostname("npm-feed"),
  devVars: hostname("dev-vars"),
  public: hostname("public"),
};
const SEEDED = Object.fromEntries(Object.values(HOSTS).map((h) => [h, { name: "Seeded" }]));

describe("the live feed through the edge, with real WebSocket clients", () => {
  let feedDev: Dev;
  let publicDev: Dev;

  beforeAll(async () => {
    [feedDev, publicDev] = await Promise.all([startFeedWorker({ FEED_TOKEN }), startFeedWorker({ FEED_PUBLIC: "true" })]);
  });
  afterAll(() => Promise.all([feedDev?.stop(), publicDev?.stop()]));

  it("sends PUT, rollback and DELETE; a client that reconnects with since= misses nothing and gets nothing twice", async () => {
    const h = HOSTS.feed;
    const first = await subscribe(feedDev, h);
    const one = await putDocument(feedDev, h, "One");
    await until(() => first.events().length === 1, "the first PUT's event");
    await first.close();
    // While nobody listens: three changes.
    const two = await putDocument(feedDev, h, "Two");
    const back = await admin(feedDev, `/documents/${h}/rollback`, { method: "POST" });
    const gone = await admin(feedDev, `/documents/${h}`, { method: "DELETE" });
    const again = await subscribe(feedDev, h, `?since=${first.events()[0]?.version}`);
    expect(again.messages.at(-1)).toEqual({ type: "feed.ready", feed: h, version: 4 });
    const three = await putDocument(feedDev, h, "Three");
    await until(() => again.events().length === 4, "the replay and the live event");
    const events = [...first.events(), ...again.events()];
    const cardUrl = `https://${h}${CARD}`;
    expect(events.map(({ type, version, agent, action, etag, cardUrl }) => ({ type, version, agent, action, etag, cardUrl }))).toEqual([
      { type: "agent-card.updated", version: 1, agent: h, action: "put", etag: one.cardEtags.hybrid, cardUrl },
      { type: "agent-card.updated", version: 2, agent: h, action: "put", etag: two.cardEtags.hybrid, cardUrl },
      { type: "agent-card.updated", version: 3, agent: h, action: "rollback", etag: back.cardEtags.hybrid, cardUrl },
      { type: "agent-card.deleted", version: 4, agent: h, action: "delete", etag: gone.cardEtags.hybrid, cardUrl },
      { type: "agent-card.updated", version: 5, agent: h, action: "put", etag: three.cardEtags.hybrid, cardUrl },
    ]);
    for (const event of events) expect(Date.parse(String(event.at))).not.toBeNaN();
    expect(events[3]?.documentEtag).toBe(gone.etag);
    await again.close();
    expect(logEvents(feedDev.dev.output(), "feed_subscribed")).toEqual(
      expect.arrayContaining([expect.objectContaining({ feed: h, since: 1, replayed: 3 })]),
    );
  });

  it("lets a browser in with a ticket from the admin API, once; refuses no token, a wrong one and a reused ticket (401)", async () => {
    const h = HOSTS.ticket;
    const { ticket } = await admin(feedDev, "/feed-tickets", { method: "POST", body: JSON.stringify({ feed: h }) });
    const browser = await subscribe(feedDev, h, `?ticket=${encodeURIComponent(ticket)}`, {});
    await putDocument(feedDev, h, "Ticketed");
    await until(() => browser.events().length === 1, "the ticket holder's event");
    await browser.close();
    expect(await handshakeStatus(feedDev, `/_feed/${h}?ticket=${encodeURIComponent(ticket)}`)).toBe(401);
    expect(await handshakeStatus(feedDev, `/_feed/${h}`)).toBe(401);
    expect(await handshakeStatus(feedDev, `/_feed/${h}`, { authorization: "Bearer wrong-token-0123456789abcdef" })).toBe(401);
    expect(await handshakeStatus(feedDev, `/_feed/${h}?since=x`, { authorization: `Bearer ${FEED_TOKEN}` })).toBe(400);
    expect(await handshakeStatus(feedDev, `/_feed/${h}`, { authorization: `Bearer ${FEED_TOKEN}` })).toBe(101);
    // wrangler dev prints the worker's lines as they come: wait for the three, then look at them.
    const refusals = () => logEvents(feedDev.dev.output(), "feed_refused").filter((e) => e.feed === h);
    await until(() => refusals().length >= 3, "three feed_refused lines");
    expect(refusals().map((e) => e.reason)).toEqual(["ticket_reused", "unauthenticated", "unauthenticated"]);
    expect(feedDev.dev.output()).not.toContain(FEED_TOKEN);
    expect(feedDev.dev.output()).not.toContain(ticket);
  });

  it("hears of npm run skills:push with ADMIN_URL: it goes through the admin API", async () => {
    const h = HOSTS.skillsPush;
    const sub = await subscribe(feedDev, h);
    const file = join(mkdtempSync(join(tmpdir(), "feed-push-")), "skills.json");
    writeFileSync(file, JSON.stringify({ name: "Pushed" }));
    const pushed = await run("node_modules/.bin/tsx", ["scripts/skills-push.ts", "--host", h, "--file", file], {
      ADMIN_URL: `${feedDev.base}/_admin`,
      ADMIN_TOKEN,
    });
    expect(pushed.code, pushed.stderr).toBe(0);
    expect(pushed.stderr).toContain("through the admin API");
    expect(pushed.stdout + pushed.stderr).not.toContain(ADMIN_TOKEN);
    await until(() => sub.events().length === 1, "the skills:push event");
    expect(sub.events()[0]).toMatchObject({ type: "agent-card.updated", agent: h, action: "put", version: 1 });
    // An agent by path: the key keeps its path on its way through the admin API (and into the host's feed).
    const agent = await run("node_modules/.bin/tsx", ["scripts/skills-push.ts", "--host", `${h}/travel`, "--file", file], {
      ADMIN_URL: `${feedDev.base}/_admin`,
      ADMIN_TOKEN,
    });
    expect(agent.code, agent.stderr).toBe(0);
    await until(() => sub.events().length === 2, "the path agent's event");
    expect(sub.events()[1]).toMatchObject({ agent: `${h}/travel`, action: "put", version: 2 });
    expect(String(sub.events()[1]?.cardUrl)).toMatch(/\/travel\/\.well-known\/agent-card\.json$/);
    await sub.close();
  });

  // `npm run feed` (scripts/feed.ts) is the subscriber of docs/feed.md on one machine: it runs on the project's Node.
  it("npm run feed prints each event as a line, says why the feed refuses it, and stops on Ctrl-C (130)", async () => {
    const h = HOSTS.npmFeed;
    const feed = start("npm", ["run", "feed", "--", "--edge", feedDev.base, "--feed", h], { FEED_TOKEN });
    try {
      await until(() => feed.output().includes('feed: {"type":"feed.ready"') || feed.child.exitCode !== null, "npm run feed's ready line");
      expect(feed.output()).toContain(`feed: connected to ${feedDev.base.replace(/^http/, "ws")}/_feed/${h}: the card changes of ${h}`);
      const put = await putDocument(feedDev, `${h}/travel`, "Travel");
      const line = await until(() => feed.output().match(/^feed: (\{"type":"agent-card\.updated".*)$/m)?.[1], "the event's line");
      expect(JSON.parse(line ?? "")).toMatchObject({ agent: `${h}/travel`, action: "put", etag: put.cardEtags.hybrid, version: 1 });
      const exited = new Promise((resolve) => feed.child.once("exit", (code, signal) => resolve(code ?? signal)));
      process.kill(-(feed.child.pid as number), "SIGINT");
      expect(await within(exited, "npm run feed to stop after SIGINT", 30_000)).toBe(130);
      expect(feed.output()).toContain("feed: SIGINT, stopping");
      expect(feed.output()).not.toContain(FEED_TOKEN);
    } finally {
      await feed.stop();
    }
    const refused = await run("npm", ["run", "feed", "--", "--edge", feedDev.base, "--feed", h], {
      FEED_TOKEN: "wrong-token-0123456789abcdef",
    });
    expect(refused.code, refused.stderr).toBe(1);
    expect(refused.stderr).toContain(`feed: ${feedDev.base.replace(/^http/, "ws")}/_feed/${h}: refused: 401 `);
    expect(refused.stdout + refused.stderr).not.toContain("wrong-token-0123456789abcdef");
  });

  it("npm run feed takes FEED_TOKEN from .dev.vars, and says how to give it one when there is none (exit 2)", async () => {
    // In a directory of its own: this checkout's .dev.vars is the developer's (npm runs scripts in the package root).
    const dir = mkdtempSync(join(tmpdir(), "feed-cwd-"));
    const feedTs = [`${ROOT}node_modules/.bin/tsx`, `${ROOT}scripts/feed.ts`] as const;
    const none = await run(feedTs[0], [feedTs[1]], { FEED_TOKEN: undefined }, dir);
    expect(none.code, none.stderr).toBe(2);
    expect(none.stderr.split("\n")[0]).toBe(
      "feed: no read token: set FEED_TOKEN, or add FEED_TOKEN=... to .dev.vars (see .dev.vars.example, docs/feed.md)",
    );
    writeFileSync(join(dir, ".dev.vars"), `ORIGIN_URL=http://127.0.0.1:9999/\nFEED_TOKEN=${FEED_TOKEN}\n`);
    const h = HOSTS.devVars;
    const feed = start(feedTs[0], [feedTs[1], "--edge", feedDev.base, "--feed", h], { FEED_TOKEN: undefined }, dir);
    try {
      await until(() => feed.output().includes('feed: {"type":"feed.ready"') || feed.child.exitCode !== null, "the ready line");
      expect(feed.output()).toContain(`{"type":"feed.ready","feed":"${h}","version":0}`);
    } finally {
      await feed.stop();
    }
  });

  it("opens the feed to anyone with FEED_PUBLIC=true, and issues no tickets then (none are needed)", async () => {
    const h = HOSTS.public;
    const open = await subscribe(publicDev, h, "", {});
    const put = await putDocument(publicDev, h, "Public");
    await until(() => open.events().length === 1, "the public event");
    expect(open.events()[0]).toMatchObject({ agent: h, etag: put.cardEtags.hybrid });
    await open.close();
    expect(logEvents(publicDev.dev.output(), "feed_admitted")).toEqual(
      expect.arrayContaining([expect.objectContaining({ feed: h, by: "public" })]),
    );
    // A hostname the edge has no document for has no feed, open or not.
    expect(await handshakeStatus(publicDev, `/_feed/${hostname("unserved")}`)).toBe(404);
    // No ticket without FEED_TOKEN (a public feed needs none).
    const tickets = await fetch(`${publicDev.base}/_admin/feed-tickets`, {
      method: "POST",
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      body: JSON.stringify({ feed: h }),
    });
    expect(tickets.status).toBe(404);
  });
});
