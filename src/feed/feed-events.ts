// What the live feed (docs/feed.md) says to a subscriber: one event per
// admin change of a document, numbered per feed, and the two control messages
// around a (re)connection. Pure data and parsing: the Durable Object
// (card-feed.ts) stores and sends these, the admin API (admin-api.ts) hands
// over the change. Plain data: it crosses the Durable Object RPC boundary.
import type { DocumentAction } from "../admin/document-versions";

/** RFC 9110 §11.6.1: a 401 names the scheme it wants (RFC 6750 §3). */
export const FEED_CHALLENGE = { "www-authenticate": 'Bearer realm="agent-card-edge feed"' };

/** Events kept per feed for reconnections (`?since=`); older ones are gone (a `feed.truncated` says so). */
export const KEPT_EVENTS = 1000;

/**
 * The feed a document key belongs to: the part before the first "/" (`agents.example.com` for
 * `agents.example.com/travel`), so a host's feed carries its own key and every key under it;
 * `default` is a feed of its own.
 */
export function feedHostOf(key: string): string {
  const slash = key.indexOf("/");
  return slash < 0 ? key : key.slice(0, slash);
}

/** One admin change, as the admin API describes it once the new card is computed. */
export interface FeedChange {
  /** The document key: `default`, `<hostname>` or `<hostname>/<path>`. */
  agent: string;
  action: DocumentAction;
  /** The write left no document under the key (a DELETE, or a rollback to a deletion). */
  deleted: boolean;
  /** ETag of the hybrid card now served for the key (what a client's If-None-Match compares). */
  etag: string;
  /** The document version's ETag (what the admin API's If-Match compares). */
  documentEtag: string;
  /** The document log's version number: orders two changes of one key that reach the feed out of order. */
  documentVersion: number;
  cardUrl: string;
}

export interface FeedEvent {
  type: "agent-card.updated" | "agent-card.deleted";
  /** Per feed, 1, 2, 3 ...: what a reconnection passes as `?since=`. */
  version: number;
  agent: string;
  action: DocumentAction;
  etag: string;
  documentEtag: string;
  cardUrl: string;
  /** ISO 8601 time the feed took the change. */
  at: string;
}

export function feedEvent(change: FeedChange, version: number, atMs: number): FeedEvent {
  return {
    type: change.deleted ? "agent-card.deleted" : "agent-card.updated",
    version,
    agent: change.agent,
    action: change.action,
    etag: change.etag,
    documentEtag: change.documentEtag,
    cardUrl: change.cardUrl,
    at: new Date(atMs).toISOString(),
  };
}

/** Sent after the replay of a connection: the feed's version now; live events follow. */
export interface FeedReady {
  type: "feed.ready";
  feed: string;
  version: number;
}

/** Sent first when `since` is older than the kept events: the changes after `since` and before `oldest` are lost. */
export interface FeedTruncated {
  type: "feed.truncated";
  since: number;
  oldest: number;
}

/**
 * `?since=`: absent (undefined: live events only), a version (digits, at most 2^53 - 1), or
 * malformed (null: a 400). A leading sign, exponent or fraction is malformed, never rounded.
 */
export function parseSince(text: string | null): number | undefined | null {
  if (text === null) return undefined;
  if (!/^\d{1,16}$/.test(text)) return null;
  const since = Number(text);
  return Number.isSafeInteger(since) ? since : null;
}
