// POST <base>/_push/<ref>: where the origin sends the notifications of a relayed config (PUSH_RELAY=on).
// The origin proves it is the origin with the per-config token the edge gave it in the config (as
// X-A2A-Notification-Token, which A2A's agents send with a config's `token`; origin-signed JWTs are not
// read). The body is bounded and must be JSON; the host's relay (relay-store.ts) checks the token, the
// task, translates and queues it. Every refusal is logged and answered with no detail an origin-less
// sender could learn from: an unknown ref and a wrong token get the same 401.
import { type FailureReason, failure } from "../errors/failures";
import { httpFailureResponse } from "../errors/responses";
import { readMessageBody } from "../http/body";
import type { EdgeRequest } from "../http/edge-request";
import { exceedsDepth, parseJson } from "../json";
import { log } from "../log";
import { tokenHash } from "./relay-stage";
import type { AcceptOutcome } from "./relay-store";

/** A row of the relay keeps a notification as text: under SQLite-backed Durable Objects' 2 MB row limit. */
const NOTIFICATION_MAX_BYTES = 1024 * 1024;
const REF = /^[A-Za-z0-9_-]{22}$/;

const REASONS: Record<Exclude<AcceptOutcome["status"], 202>, FailureReason> = {
  400: "BAD_REQUEST",
  401: "UNAUTHENTICATED",
  403: "PERMISSION_DENIED",
  404: "UNAUTHENTICATED",
  503: "UNAVAILABLE",
};

function refused(status: keyof typeof REASONS | 413, reason: string): Response {
  log("warn", "push_notification_refused", { reason });
  return httpFailureResponse(failure(status === 413 ? "PAYLOAD_TOO_LARGE" : REASONS[status]));
}

export async function handleRelayPost(edge: EdgeRequest, ref: string): Promise<Response> {
  const { config, pushRelays } = edge.runtime;
  if (!pushRelays) return httpFailureResponse(failure("UNAVAILABLE", "PUSH_RELAY is on but the PUSH_RELAYS Durable Object is not bound"));
  const token = edge.request.headers.get("x-a2a-notification-token");
  if (!REF.test(ref)) return refused(404, "unknown_ref");
  if (!token) return refused(401, "no_token");
  const maxBytes = Math.min(config.originReplyMaxBytes, NOTIFICATION_MAX_BYTES);
  const read = await readMessageBody(edge.request, { maxBytes, timeoutMs: config.bodyTimeoutMs });
  if (!read.ok) return read.reason === "too_large" ? refused(413, "too_large") : refused(400, read.reason);
  const notification = parseJson(new TextDecoder().decode(read.bytes));
  if (notification === undefined || exceedsDepth(notification)) return refused(400, "not_json");
  const relay = pushRelays.get(pushRelays.idFromName(edge.publicHost));
  const retry = { attempts: config.pushRelayAttempts, firstRetryMs: config.pushRelayRetryMs };
  const outcome = await relay.accept(ref, await tokenHash(token), notification, retry);
  if (outcome.status !== 202) return refused(outcome.status, outcome.reason);
  return new Response(null, { status: 202 });
}
