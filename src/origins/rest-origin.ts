// An origin that speaks HTTP+JSON only (ORIGIN_BINDING=http+json): the call,
// in the origin's version, goes as that version's REST request under
// ORIGIN_REST_URL (the mapping is pure: src/rest/origin-mapping.ts), and its
// answer (a status and a body, or SSE events) is read once under canonical
// names (src/messages/) and decoded into the outcome a JSON-RPC origin would
// have given. Every id that becomes a path segment is
// checked twice: one segment when the path is written, and the URL built is
// still under the base (an encoding that a runtime normalizes cannot escape).
import type { Call, OriginCodec } from "../call/call";
import { failure } from "../errors/failures";
import { joinUrl } from "../http/urls";
import { readRestBody } from "../messages/calls";
import { jsonRpcToRest, restEventToJsonRpc, restResponseToJsonRpc } from "../rest";

const encoder = new TextEncoder();

/**
 * `path` under the origin's REST base, checked after the URL is built (not only by encoding the ids):
 * the same origin, and a path that stays below the base's own path.
 */
export function underBase(base: string, path: string): string | undefined {
  const root = new URL(base);
  const url = new URL(joinUrl(base, path));
  const prefix = root.pathname.endsWith("/") ? root.pathname : `${root.pathname}/`;
  return url.origin === root.origin && url.pathname.startsWith(prefix) ? url.href : undefined;
}

export const restOrigin: OriginCodec = {
  binding: "http+json",
  encode(call: Call, config) {
    const rest = jsonRpcToRest({ method: call.method, params: call.params }, call.generation);
    const base = config.originRestUrl;
    if (!call.operation || !rest || base === undefined)
      return failure("METHOD_NOT_FOUND", `${call.method} has no REST route in A2A ${call.version}`);
    if ("invalid" in rest) return failure("INVALID_PARAMS", rest.invalid);
    const url = underBase(base, rest.path);
    if (url === undefined) return failure("INVALID_PARAMS", "the call's ids do not name a path under the origin");
    const hasBody = rest.body !== undefined;
    const body = hasBody ? encoder.encode(JSON.stringify(rest.body)) : new Uint8Array();
    return {
      httpMethod: rest.method,
      url,
      audience: base,
      query: rest.query,
      body,
      ...(hasBody ? { contentType: "application/json" } : {}),
    };
  },
  decode(call, status, body) {
    if (!call.operation) return undefined;
    const read = status >= 200 && status <= 299 ? readRestBody(call.generation, call.operation, "response", body) : { value: body };
    return "refused" in read ? undefined : restResponseToJsonRpc(call.operation, call.generation, status, read.value, call.id);
  },
  decodeEvent(call, event, data) {
    const read = event === "error" || !call.operation ? { value: data } : readRestBody(call.generation, call.operation, "response", data);
    return "refused" in read ? undefined : restEventToJsonRpc(call.generation, event, read.value, call.id);
  },
};
