// The live feed of one host (docs/feed.md): a SQLite-backed Durable Object,
// one per feed name (idFromName: `default` or a hostname). The admin API
// publishes each change here (publish, over RPC); the object numbers it, keeps
// the last KEPT_EVENTS and sends it to every subscriber. Subscribers are
// WebSockets accepted through the Hibernation API (ctx.acceptWebSocket): while
// nothing changes the object is evicted from memory and the sockets stay open
// at no duration cost; a publish wakes it and getWebSockets() hands them back.
import { DurableObject } from "cloudflare:workers";
import { failure } from "../errors/failures";
import { httpFailureResponse } from "../errors/responses";
import { log } from "../log";
import { FEED_CHALLENGE, type FeedChange, type FeedReady, type FeedTruncated, feedEvent, KEPT_EVENTS } from "./feed-events";

/** Subscribers per feed; one more is answered 503 before the upgrade. */
const MAX_SUBSCRIBERS = 1000;
/** The feed only sends; a client message longer than this closes the socket with 1009 (RFC 6455 §7.4.1). */
const MAX_CLIENT_MESSAGE_BYTES = 256;

// events: the last KEPT_EVENTS, by the feed's version (1, 2, 3 ...), each as the JSON sent. agents: per
// document key of this feed, the newest document version published. tickets: each ticket admitted, by its
// nonce, until it expires (seconds since the epoch). Comments out of the SQL: they would be bundle bytes.
const SCHEMA = [
  "CREATE TABLE IF NOT EXISTS events (version INTEGER PRIMARY KEY, body TEXT NOT NULL)",
  "CREATE TABLE IF NOT EXISTS agents (agent TEXT PRIMARY KEY, document_version INTEGER NOT NULL)",
  "CREATE TABLE IF NOT EXISTS tickets (nonce TEXT PRIMARY KEY, expires_at INTEGER NOT NULL)",
];

type EventRow = { version: number; body: string };

/** What the worker's feed route (feed-routes.ts) passes on, in the URL of its request to this object. */
export interface Subscription {
  feed: string;
  since: number | undefined;
  ticket: { nonce: string; expiresAt: number } | undefined;
}

export function subscriptionUrl(s: Subscription): string {
  const params = new URLSearchParams({ feed: s.feed });
  if (s.since !== undefined) params.set("since", String(s.since));
  if (s.ticket) {
    params.set("nonce", s.ticket.nonce);
    params.set("expires", String(s.ticket.expiresAt));
  }
  return `https://card-feed.internal/subscribe?${params}`;
}

function subscriptionOf(url: URL): Subscription {
  const since = url.searchParams.get("since");
  const nonce = url.searchParams.get("nonce");
  return {
    feed: url.searchParams.get("feed") ?? "",
    since: since === null ? undefined : Number(since),
    ticket: nonce === null ? undefined : { nonce, expiresAt: Number(url.searchParams.get("expires")) },
  };
}

/** Close codes that only describe a closure, or are reserved, and are never sent in a Close frame (RFC 6455 §7.4.1). */
const UNSENT_CLOSE_CODES = new Set([1004, 1005, 1006, 1015]);

const refused = (reason: "BAD_REQUEST" | "UNAUTHENTICATED" | "UNAVAILABLE", message: string) =>
  // RFC 9110 §11.6.1: a 401 names the scheme it wants.
  httpFailureResponse(failure(reason, message, reason === "UNAUTHENTICATED" ? { headers: FEED_CHALLENGE } : {}));

export class CardFeed extends DurableObject<Env> {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    for (const statement of SCHEMA) ctx.storage.sql.exec(statement);
    // Keep-alive pings are answered by the runtime without waking the object.
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair("ping", "pong"));
  }

  /** Numbers, keeps and sends one change; null when a newer change of the same key was published first. */
  publish(feed: string, change: FeedChange): number | null {
    const sql = this.ctx.storage.sql;
    const known = sql.exec<{ v: number }>("SELECT document_version AS v FROM agents WHERE agent = ?", change.agent).toArray()[0];
    if (known && known.v >= change.documentVersion) {
      log("info", "feed_change_superseded", { feed, agent: change.agent });
      return null;
    }
    const version = this.#latest() + 1;
    const body = JSON.stringify(feedEvent(change, version, Date.now()));
    this.ctx.storage.transactionSync(() => {
      sql.exec("INSERT INTO events (version, body) VALUES (?, ?)", version, body);
      sql.exec("DELETE FROM events WHERE version <= ?", version - KEPT_EVENTS);
      sql.exec(
        "INSERT INTO agents (agent, document_version) VALUES (?, ?) ON CONFLICT (agent) DO UPDATE SET document_version = excluded.document_version",
        change.agent,
        change.documentVersion,
      );
    });
    const sockets = this.ctx.getWebSockets();
    for (const socket of sockets) this.#send(socket, body);
    log("info", "feed_published", { feed, agent: change.agent, version, subscribers: sockets.length });
    return version;
  }

  /** A subscription (the worker checked the caller and the query): the replay after `since`, then live events. */
  override fetch(request: Request): Response {
    const subscription = subscriptionOf(new URL(request.url));
    const { feed, since, ticket } = subscription;
    if (ticket && !this.#admitOnce(ticket)) {
      log("warn", "feed_refused", { feed, reason: "ticket_reused" });
      return refused("UNAUTHENTICATED", "The ticket was used already; ask the admin API for a new one");
    }
    const subscribers = this.ctx.getWebSockets().length;
    if (subscribers >= MAX_SUBSCRIBERS) {
      log("warn", "feed_refused", { feed, reason: "full", subscribers });
      return refused("UNAVAILABLE", "The feed has as many subscribers as it takes; try again later");
    }
    const latest = this.#latest();
    if (since !== undefined && since > latest) {
      return refused("BAD_REQUEST", `since is ahead of the feed (its latest version is ${latest})`);
    }
    const { 0: client, 1: server } = new WebSocketPair();
    this.ctx.acceptWebSocket(server);
    const replayed = since === undefined ? 0 : this.#replay(server, since);
    this.#send(server, JSON.stringify({ type: "feed.ready", feed, version: latest } satisfies FeedReady));
    log("info", "feed_subscribed", { feed, since: since ?? null, replayed, subscribers: subscribers + 1 });
    return new Response(null, { status: 101, webSocket: client });
  }

  /** The feed only sends: any message but the auto-answered "ping" ends the subscription (RFC 6455 §7.4.1). */
  override webSocketMessage(socket: WebSocket, message: string | ArrayBuffer): void {
    const bytes = typeof message === "string" ? new TextEncoder().encode(message).byteLength : message.byteLength;
    if (bytes > MAX_CLIENT_MESSAGE_BYTES) socket.close(1009, "message too big");
    else socket.close(1003, "the feed takes no messages");
  }

  /**
   * A client's Close frame is answered with one (RFC 6455 §5.5.1), echoing its status code; nothing is kept per
   * socket. The runtime answers it only for a socket taken with accept() (compatibility flag
   * web_socket_auto_reply_to_close), never for one taken through the Hibernation API: unanswered, the client
   * would wait out its own closing timeout and see 1006 (abnormal closure) instead of its clean close.
   */
  override webSocketClose(socket: WebSocket, code: number, reason: string): void {
    // 1005 (the client gave no code) and 1006 (it left without a Close frame) are answered without a code.
    if (code >= 1000 && code <= 4999 && !UNSENT_CLOSE_CODES.has(code)) socket.close(code, reason);
    else socket.close();
  }

  /** Kept events after `since`, oldest first, preceded by a `feed.truncated` when some were dropped. */
  #replay(socket: WebSocket, since: number): number {
    const rows = this.ctx.storage.sql
      .exec<EventRow>("SELECT version, body FROM events WHERE version > ? ORDER BY version", since)
      .toArray();
    const oldest = rows[0]?.version;
    if (oldest !== undefined && oldest > since + 1) {
      this.#send(socket, JSON.stringify({ type: "feed.truncated", since, oldest } satisfies FeedTruncated));
    }
    for (const row of rows) this.#send(socket, row.body);
    return rows.length;
  }

  /** Records a ticket's nonce; false if it was admitted before. Expired nonces are dropped (their tickets fail anyway). */
  #admitOnce(ticket: { nonce: string; expiresAt: number }): boolean {
    const sql = this.ctx.storage.sql;
    sql.exec("DELETE FROM tickets WHERE expires_at < ?", Math.floor(Date.now() / 1000));
    if (sql.exec("SELECT 1 FROM tickets WHERE nonce = ?", ticket.nonce).toArray().length > 0) return false;
    sql.exec("INSERT INTO tickets (nonce, expires_at) VALUES (?, ?)", ticket.nonce, ticket.expiresAt);
    return true;
  }

  #latest(): number {
    return this.ctx.storage.sql.exec<{ v: number | null }>("SELECT MAX(version) AS v FROM events").one().v ?? 0;
  }

  /** A socket closing or closed takes no more; the others still get the event. */
  #send(socket: WebSocket, body: string): void {
    try {
      socket.send(body);
    } catch {
      /* closed under us: it leaves getWebSockets() with its close */
    }
  }
}
