// The SSE event id of a kept stream's event (HTML §9.2.6: `id:`, sent back by a reconnecting client as
// Last-Event-ID): the id of the Durable Object that keeps the stream, a dot, the event's number in it
// (1, 2, ...). The id names the log, so re-attaching needs no lookup by task; what it may read is checked
// there (task, host, agent, tenant, caller). A2A has no event cursor yet (a2aproject/A2A #1986 proposes
// per-task sequence numbers): this is the web's own, and a client keeps it as an opaque string.

/** A Durable Object id is 64 hex digits; an event number fits in 9 digits (STREAM_RESUME_MAX_EVENTS is at most 100,000). */
const EVENT_ID = /^([0-9a-f]{64})\.([1-9][0-9]{0,8})$/;

/** The query equivalent of Last-Event-ID, for clients that cannot set a header (a new EventSource). */
const LAST_EVENT_ID_PARAM = "lastEventId";

export interface EventCursor {
  stream: string;
  /** The last event the client has: the log resumes after it. */
  after: number;
}

export function eventId(stream: string, seq: number): string {
  return `${stream}.${seq}`;
}

/** The cursor a client sent, from Last-Event-ID or else `?lastEventId=`; undefined for none or one not of this edge. */
export function cursorOf(headers: Headers, search: string): EventCursor | undefined {
  let value = headers.get("last-event-id");
  if (value === null && search.includes(LAST_EVENT_ID_PARAM)) value = new URLSearchParams(search).get(LAST_EVENT_ID_PARAM);
  const match = value === null ? null : EVENT_ID.exec(value.trim());
  return match ? { stream: match[1] as string, after: Number(match[2]) } : undefined;
}

/** The client's query without the cursor: it is the edge's, not the origin's. */
export function withoutCursor(search: string): string {
  if (!search.includes(LAST_EVENT_ID_PARAM)) return search;
  const params = new URLSearchParams(search);
  params.delete(LAST_EVENT_ID_PARAM);
  const rest = params.toString();
  return rest === "" ? "" : `?${rest}`;
}
