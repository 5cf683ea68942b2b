// What any origin answered, whatever its binding, before anything reads it:
// only JSON and SSE replies go on (and a REST origin's 204 No Content); a
// redirect, a 5xx or another media type becomes a failure of the edge's own
// (the origin's body, which may name its address or its internals, is
// dropped). One rule for every origin kind: README "Operations".
import { type Failure, failure } from "../errors/failures";
import { log } from "../log";
import type { OriginReply } from "../proxy/send";

type ReplyKind = "json" | "stream";

export interface ClassifiedReply extends OriginReply {
  kind: ReplyKind;
}

export function mediaType(contentType: string | null): string {
  return contentType?.split(";")[0]?.trim().toLowerCase() ?? "";
}

function isJson(type: string): boolean {
  return type === "application/json" || (type.startsWith("application/") && type.endsWith("+json"));
}

export function classifyReply(reply: OriginReply, method: string): ClassifiedReply | Failure {
  const { response, origin } = reply;
  const refuse = (kind: string, result: Failure): Failure => {
    log("error", "origin_failed", { kind, method, origin, status: response.status });
    void response.body?.cancel();
    return result;
  };
  const status = response.status;
  if (status >= 500) return refuse("origin_status", failure("ORIGIN_ERROR", `origin agent failed (HTTP ${status})`));
  // A redirect would send the client to a private address (its Location is never passed on).
  if (status >= 300 && status < 400)
    return refuse("redirect", failure("ORIGIN_INVALID_RESPONSE", `origin agent redirected (HTTP ${status})`));
  const type = mediaType(response.headers.get("content-type"));
  if (type === "text/event-stream") return { ...reply, kind: "stream" };
  // A REST origin's DeletePushNotificationConfig answers 204 without a body (A2A 1.0 §11.3, google.protobuf.Empty).
  if (status === 204) return { ...reply, kind: "json" };
  if (isJson(type)) return { ...reply, kind: "json" };
  const refused = failure("ORIGIN_INVALID_RESPONSE", `origin agent returned a non-JSON response (HTTP ${status})`);
  // An origin's own 4xx keeps its status (the client's request was refused), with the edge's body.
  return refuse("invalid_response", status >= 400 ? { ...refused, status } : refused);
}
