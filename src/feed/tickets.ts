// Feed tickets: a browser's WebSocket cannot carry an Authorization header
// (the WHATWG WebSocket API has no header argument; RFC 6455 §4.1 leaves the
// handshake's extra fields to the client), so a backend that holds the admin
// token asks for a ticket and hands it to the browser, which passes it as
// `?ticket=`. A ticket names one feed, lives 60 s and is HMAC-SHA-256
// (RFC 2104) signed with a key derived from FEED_TOKEN: the edge keeps no
// state to issue one. Its random nonce makes it single use: the feed's Durable
// Object records each nonce it admitted until the ticket expires.
import { base64url } from "../sign/sign";

export const TICKET_LIFETIME_S = 60;
/** Longer text is no ticket of ours (the format below is ~80 characters). */
const MAX_TICKET_CHARS = 200;
/** Domain separation: a MAC made for tickets is never valid for anything else FEED_TOKEN might key. */
const LABEL = "agent-card-edge feed ticket v1";

const encoder = new TextEncoder();

export interface AdmittedTicket {
  nonce: string;
  /** Seconds since the epoch. */
  expiresAt: number;
}

async function mac(secret: string, feed: string, expiresAt: number, nonce: string): Promise<string> {
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const signed = await crypto.subtle.sign("HMAC", key, encoder.encode([LABEL, feed, expiresAt, nonce].join("\n")));
  return base64url(new Uint8Array(signed));
}

/** A ticket for `feed`: `<expires (s)>.<nonce>.<mac>`, all URL-safe (RFC 4648 §5). */
export async function issueTicket(secret: string, feed: string, nowMs: number): Promise<{ ticket: string; expiresAt: number }> {
  const expiresAt = Math.floor(nowMs / 1000) + TICKET_LIFETIME_S;
  const nonce = base64url(crypto.getRandomValues(new Uint8Array(16)));
  return { ticket: `${expiresAt}.${nonce}.${await mac(secret, feed, expiresAt, nonce)}`, expiresAt };
}

/** The ticket's nonce and expiry if it is ours, for `feed`, and not expired; otherwise null. */
export async function checkTicket(secret: string, feed: string, ticket: string, nowMs: number): Promise<AdmittedTicket | null> {
  if (ticket.length > MAX_TICKET_CHARS) return null;
  const [expires, nonce, presented, ...rest] = ticket.split(".");
  if (rest.length > 0 || !expires || !nonce || !presented || !/^\d{1,12}$/.test(expires)) return null;
  const expiresAt = Number(expires);
  const now = Math.floor(nowMs / 1000);
  if (expiresAt <= now || expiresAt > now + TICKET_LIFETIME_S) return null;
  const expected = encoder.encode(await mac(secret, feed, expiresAt, nonce));
  const given = encoder.encode(presented);
  // Constant time over equal lengths (the length of a MAC is no secret).
  if (given.byteLength !== expected.byteLength || !crypto.subtle.timingSafeEqual(given, expected)) return null;
  return { nonce, expiresAt };
}
