// The feed's doors (docs/feed.md). `GET <FEED_PATH>/<feed>` (feed: `default`
// or a hostname) is the WebSocket handshake of a subscriber: checked here
// (the feed's name, the read token or a ticket, whether the feed exists,
// `since`, the handshake), then handed to the feed's Durable Object
// (card-feed.ts), which accepts the socket.
// `POST <ADMIN_PATH>/feed-tickets` (behind the admin token) issues a ticket
// for a browser, which cannot send the token (tickets.ts).
import type { Context } from "hono";
import { DEFAULT_KEY, isDocumentKey } from "../card/store";
import { EdgeError } from "../errors/failures";
import { type KeepAlive, readMessageBody } from "../http/body";
import type { EdgeRequest } from "../http/edge-request";
import { normalizeHost } from "../http/request-target";
import { memberOf, parseJson } from "../json";
import { log } from "../log";
import type { Runtime } from "../runtime";
import { type CardFeed, subscriptionUrl } from "./card-feed";
import { FEED_CHALLENGE, parseSince } from "./feed-events";
import { type AdmittedTicket, checkTicket, issueTicket } from "./tickets";

type FeedContext = Context<{ Bindings: Env }>;

const encoder = new TextEncoder();

/** `default` or a hostname in its one form (as document keys are); a host outside HOST_ALLOWLIST has no feed. */
function feedName(raw: unknown, runtime: Runtime): string {
  const feed = typeof raw === "string" ? (raw === DEFAULT_KEY ? raw : normalizeHost(raw)) : "";
  if (!isDocumentKey(feed)) throw new EdgeError("BAD_REQUEST", 'The feed must be "default" or a hostname such as agents.example.com');
  const allowlist = runtime.config.hostAllowlist;
  if (allowlist && feed !== DEFAULT_KEY && !allowlist.has(feed)) throw new EdgeError("NOT_FOUND");
  return feed;
}

/** Equal secrets, compared as SHA-256 digests in constant time (the digest length is no secret). */
async function sameSecret(presented: string, secret: string): Promise<boolean> {
  const [a, b] = await Promise.all([presented, secret].map((text) => crypto.subtle.digest("SHA-256", encoder.encode(text))));
  return a !== undefined && b !== undefined && crypto.subtle.timingSafeEqual(a, b);
}

/** How the subscriber got in (null: it did not): the feed is public, the read token (RFC 6750 §2.1), or a ticket. */
async function admission(c: FeedContext, runtime: Runtime, feed: string): Promise<{ by: string; ticket?: AdmittedTicket } | null> {
  const { feedPublic, feedToken } = runtime.config;
  if (feedPublic) return { by: "public" };
  if (feedToken === undefined) return null;
  const bearer = /^bearer +(\S+)$/i.exec(c.req.header("authorization") ?? "")?.[1];
  if (bearer !== undefined) return (await sameSecret(bearer, feedToken)) ? { by: "token" } : null;
  const presented = c.req.query("ticket");
  const ticket = presented === undefined ? null : await checkTicket(feedToken, feed, presented, Date.now());
  return ticket ? { by: "ticket", ticket } : null;
}

/**
 * Whether the feed exists: `default`, a host of HOST_ALLOWLIST (feedName refused any other), or without one a
 * hostname the edge has a document for: stored now, kept as its last good copy (a host whose document was
 * deleted keeps its feed, so that a subscriber away then still hears of it), or agents by path (its index has
 * changed at least once). Read from KV as the card and the agent look-up read it, before any Durable Object
 * is touched: otherwise each hostname a client makes up would get an object of its own.
 */
async function feedExists(runtime: Runtime, feed: string, keepAlive: KeepAlive): Promise<boolean> {
  if (feed === DEFAULT_KEY || runtime.config.hostAllowlist) return true;
  const { store } = runtime.cards;
  if (await store.holds(feed, keepAlive)) return true;
  if ((await runtime.agents.of(feed, keepAlive)).version > 0) return true;
  return (await store.lastGood.recall(feed)) !== undefined;
}

/**
 * GET <FEED_PATH>/<feed>: a subscriber's WebSocket handshake (RFC 6455 §4.2.1), answered by the feed's Durable
 * Object. `edge` is the request admitted as every route admits it (a host outside HOST_ALLOWLIST got 404).
 */
export async function subscribe(c: FeedContext, edge: EdgeRequest): Promise<Response> {
  const { runtime } = edge;
  const feed = feedName(c.req.param("feed"), runtime);
  const admitted = await admission(c, runtime, feed);
  if (!admitted) {
    log("warn", "feed_refused", { feed, reason: "unauthenticated" });
    throw new EdgeError("UNAUTHENTICATED", "A valid feed token (Authorization: Bearer) or ticket (?ticket=) is required", {
      headers: FEED_CHALLENGE,
    });
  }
  if (!(await feedExists(runtime, feed, edge.keepAlive)))
    throw new EdgeError("NOT_FOUND", "No feed: the edge has no document for this hostname");
  const since = parseSince(c.req.query("since") ?? null);
  if (since === null) throw new EdgeError("BAD_REQUEST", "since must be a feed version: a whole number, 0 for every kept event");
  // RFC 6455 §4.2.1: a request that is no WebSocket handshake is answered with an HTTP error such as 400.
  if (c.req.header("upgrade")?.toLowerCase() !== "websocket") {
    throw new EdgeError("BAD_REQUEST", "The feed is a WebSocket (RFC 6455): send a handshake with Upgrade: websocket");
  }
  const feeds = c.env.CARD_FEEDS as DurableObjectNamespace<CardFeed> | undefined;
  if (typeof feeds?.idFromName !== "function") throw new EdgeError("UNAVAILABLE", "The CARD_FEEDS Durable Object is not bound");
  const url = subscriptionUrl({ feed, since, ticket: admitted.ticket });
  log("info", "feed_admitted", { feed, by: admitted.by });
  return feeds.get(feeds.idFromName(feed)).fetch(new Request(url, { headers: { upgrade: "websocket" } }));
}

/** POST <ADMIN_PATH>/feed-tickets `{"feed": "<feed>"}`: a ticket for one subscription to that feed within 60 s. */
export async function issueFeedTicket(c: FeedContext, runtime: Runtime): Promise<Response> {
  const { feedToken, bodyTimeoutMs } = runtime.config;
  if (feedToken === undefined) throw new EdgeError("NOT_FOUND", "Tickets need FEED_TOKEN (the feed is public or off)");
  const read = await readMessageBody(c.req.raw, { maxBytes: 1024, timeoutMs: bodyTimeoutMs });
  if (!read.ok) throw new EdgeError(read.reason === "too_large" ? "PAYLOAD_TOO_LARGE" : "BAD_REQUEST", 'Send {"feed": "<hostname>"}');
  const feed = feedName(memberOf<{ feed: string }>(parseJson(new TextDecoder().decode(read.bytes)), "feed"), runtime);
  const { ticket, expiresAt } = await issueTicket(feedToken, feed, Date.now());
  log("info", "feed_ticket_issued", { feed });
  return c.json({ feed, ticket, expiresAt: new Date(expiresAt * 1000).toISOString() }, 200, { "cache-control": "no-store" });
}
