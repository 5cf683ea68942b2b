// POST <rpc path>: validate at the edge, then stream to the origin agent.
// Every answer the edge makes itself is a JSON-RPC envelope with the request's
// id (null when it could not be read) and a fixed message: no stack, no origin
// address. One structured log line per failure.
import { joinUrl } from "../card/build-card";
import { originsOf, publicizeCard } from "../card/from-origin";
import { errorResponse } from "../errors";
import { readBody, type KeepAlive } from "../http/body";
import { isServedHost, publicBaseUrl, publicHostname } from "../http/public-base";
import type { RequestTarget } from "../http/request-url";
import { log } from "../log";
import { rpcError, rpcErrorBody, type RpcErrorObject, type RpcId } from "../rpc/errors";
import { validateRpcRequest } from "../rpc/validate";
import { requestVersion, versionNotSupported } from "../rpc/version";
import { exceedsDepth } from "../json";
import { searchParam } from "../http/request-url";
import { JWKS_PATH, type Runtime } from "../runtime";
import { signCard } from "../sign/sign";
import { clientResponseHeaders, originRequestHeaders, rpcCorsHeaders } from "./headers";
import { withClientQuery, type RequestLocation } from "./origins";

/** A2A 1.0 GetExtendedAgentCard and 0.3 agent/getAuthenticatedExtendedCard return a card with origin URLs. */
const EXTENDED_CARD_METHODS = new Set(["GetExtendedAgentCard", "agent/getAuthenticatedExtendedCard"]);
const MAX_EXTENDED_CARD_BYTES = 4 * 1024 * 1024;

function envelope(status: number, id: RpcId, error: RpcErrorObject, cors: Headers): Response {
  const headers = new Headers(cors);
  headers.set("content-type", "application/json");
  return new Response(rpcErrorBody(id, error), { status, headers });
}

function isJson(contentType: string | null): boolean {
  const type = contentType?.split(";")[0]?.trim().toLowerCase() ?? "";
  return type === "application/json" || (type.startsWith("application/") && type.endsWith("+json"));
}

function isEventStream(contentType: string | null): boolean {
  return contentType?.split(";")[0]?.trim().toLowerCase() === "text/event-stream";
}

export async function proxyRpc(request: Request, target: RequestTarget, runtime: Runtime, where: RequestLocation, keepAlive?: KeepAlive): Promise<Response> {
  const { config } = runtime;
  const cors = rpcCorsHeaders(request.headers.get("origin"), config);

  // A declared length over the cap is refused before reading anything; every
  // body is still counted as it arrives (a declared length may not be what is sent).
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > config.maxBodyBytes) {
    return envelope(413, null, rpcError("INVALID_REQUEST", `body larger than ${config.maxBodyBytes} bytes`, "PAYLOAD_TOO_LARGE"), cors);
  }
  if (request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase() !== "application/json") {
    return envelope(415, null, rpcError("INVALID_REQUEST", "Content-Type must be application/json", "UNSUPPORTED_MEDIA_TYPE"), cors);
  }
  const read = await readBody(request.body, { maxBytes: config.maxBodyBytes, timeoutMs: config.bodyTimeoutMs });
  if (!read.ok) {
    if (read.reason === "too_large") {
      return envelope(413, null, rpcError("INVALID_REQUEST", `body larger than ${config.maxBodyBytes} bytes`, "PAYLOAD_TOO_LARGE"), cors);
    }
    log("warn", "request_body_failed", { reason: read.reason });
    return envelope(408, null, rpcError("INVALID_REQUEST", read.reason === "timeout" ? "the request body did not arrive in time" : "the request body was cut off", "REQUEST_TIMEOUT"), cors);
  }
  const body = read.bytes;
  const rpc = validateRpcRequest(body, config.methodAllowlist);
  // JSON-RPC errors travel with HTTP 200, as the A2A SDKs send and expect them.
  if (!rpc.ok) return envelope(200, rpc.id, rpc.error, cors);
  const version = requestVersion(request.headers.get("a2a-version") ?? searchParam(target, "A2A-Version"), rpc.method);
  const served = runtime.servedVersions();
  if (!served.includes(version)) return envelope(200, rpc.id, versionNotSupported(version, served), cors);

  const base = publicBaseUrl(target, request.headers, config);
  const publicUrl = new URL(base);
  const hostname = publicHostname(base, target);
  if (!isServedHost(config, hostname)) return errorResponse(404, "Not found");
  // Multi-agent mode: the host's document may name its own origin, if the operator allows it.
  const named = runtime.documentOrigin(await runtime.store.lookup(hostname, keepAlive), hostname);
  const candidates = named ? [named] : runtime.origin.candidates(where);
  const privateOrigins = named ? [...runtime.origin.privateOrigins, ...originsOf([named])] : runtime.origin.privateOrigins;
  if (candidates.length === 0) {
    log("error", "origin_failed", { kind: "not_configured", method: rpc.method });
    return envelope(503, rpc.id, rpcError("INTERNAL_ERROR", "no origin agent is configured", "ORIGIN_NOT_CONFIGURED"), cors);
  }

  const headers = originRequestHeaders(request.headers, config, {
    scheme: publicUrl.protocol.slice(0, -1),
    host: publicUrl.host,
    clientIp: request.headers.get("cf-connecting-ip") ?? undefined,
  });

  // One deadline for the whole attempt (failover included), up to the origin's response headers.
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), config.originTimeoutMs);
  let response: Response | undefined;
  let answeredBy = "";
  try {
    for (const [attempt, candidate] of candidates.entries()) {
      answeredBy = runtime.origin.label(candidate);
      try {
        response = await runtime.origin.send(withClientQuery(candidate, target.search), {
          method: "POST",
          headers,
          body: rpc.bytes,
          redirect: "manual",
          signal: deadline.signal,
        });
        break;
      } catch (error) {
        if (deadline.signal.aborted) {
          log("error", "origin_failed", { kind: "timeout", method: rpc.method, origin: answeredBy, timeoutMs: config.originTimeoutMs });
          return envelope(504, rpc.id, rpcError("INTERNAL_ERROR", "origin agent timed out", "ORIGIN_TIMEOUT"), cors);
        }
        log("warn", "origin_failed", { kind: "unreachable", method: rpc.method, origin: answeredBy, attempt: attempt + 1, of: candidates.length, error: (error as Error).name });
      }
    }
  } finally {
    clearTimeout(timer);
  }
  if (!response) {
    return envelope(502, rpc.id, rpcError("INTERNAL_ERROR", "origin agent unreachable", "ORIGIN_UNREACHABLE"), cors);
  }

  const contentType = response.headers.get("content-type");
  const bad = (kind: string, status: number, detail: string, reason: string) => {
    log("error", "origin_failed", { kind, method: rpc.method, origin: answeredBy, status: response!.status });
    void response!.body?.cancel();
    return envelope(status, rpc.id, rpcError("INTERNAL_ERROR", detail, reason), cors);
  };
  if (response.status >= 500) return bad("origin_status", 502, `origin agent failed (HTTP ${response.status})`, "ORIGIN_ERROR");
  // A redirect would send the client to a private address (its Location is never passed on).
  if (response.status >= 300 && response.status < 400) return bad("redirect", 502, `origin agent redirected (HTTP ${response.status})`, "ORIGIN_INVALID_RESPONSE");
  const stream = isEventStream(contentType);
  if (!stream && !isJson(contentType)) {
    const status = response.status >= 400 ? response.status : 502;
    return bad("invalid_response", status, `origin agent returned a non-JSON response (HTTP ${response.status})`, "ORIGIN_INVALID_RESPONSE");
  }

  const privateHosts = privateOrigins.map((origin) => new URL(origin).host);
  const responseHeaders = clientResponseHeaders(response.headers, runtime.secretFragments, privateHosts, cors);
  if (!stream && response.ok && EXTENDED_CARD_METHODS.has(rpc.method)) {
    const read = await readBody(response.body, { maxBytes: MAX_EXTENDED_CARD_BYTES, timeoutMs: config.originTimeoutMs, excess: "cancel" });
    const text = read.ok ? read.bytes : null;
    let reply: { result?: unknown } | undefined;
    try {
      reply = text === null ? undefined : JSON.parse(new TextDecoder().decode(text));
    } catch {
      reply = undefined;
    }
    if (!reply || typeof reply !== "object" || exceedsDepth(reply)) {
      log("error", "origin_failed", { kind: "invalid_response", method: rpc.method, origin: answeredBy, status: response.status });
      return envelope(502, rpc.id, rpcError("INTERNAL_ERROR", "origin agent returned an unreadable card", "ORIGIN_INVALID_RESPONSE"), cors);
    }
    if (reply.result && typeof reply.result === "object" && !Array.isArray(reply.result)) {
      const card = publicizeCard(reply.result as Record<string, unknown>, privateOrigins, base, joinUrl(base, config.rpcPath));
      // Re-signed at the edge, like the public card: the origin's signatures covered its private URLs.
      const signer = runtime.signer();
      reply.result = signer ? await signCard(card, await signer, joinUrl(base, JWKS_PATH)) : card;
    }
    return new Response(JSON.stringify(reply), { status: response.status, headers: responseHeaders });
  }
  if (stream && response.body) {
    const body = endStreamCleanly(response.body, rpc.id, () =>
      log("error", "origin_failed", { kind: "stream_broken", method: rpc.method, origin: answeredBy }),
    );
    return new Response(body, { status: response.status, headers: responseHeaders });
  }
  // Every other JSON reply passes through as it arrives: no buffering.
  return new Response(response.body, { status: response.status, headers: responseHeaders });
}

/**
 * SSE passes through chunk by chunk, unbuffered. If the origin's stream breaks
 * (the origin died, the connection dropped), the client gets an SSE error event
 * with the request id and a clean end of stream instead of a torn connection
 * (a2a-js framing: `event: error`). A client that goes away cancels the origin.
 */
function endStreamCleanly(origin: ReadableStream<Uint8Array>, id: RpcId, onBreak: () => void): ReadableStream<Uint8Array> {
  const reader = origin.getReader();
  const encoder = new TextEncoder();
  let cancelled = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch {
        if (cancelled) return; // the client left: not an origin fault
        onBreak();
        const error = rpcError("INTERNAL_ERROR", "origin agent stream ended abruptly", "ORIGIN_STREAM_BROKEN");
        // A blank line first ends any event the origin left half-written.
        controller.enqueue(encoder.encode(`\n\nevent: error\ndata: ${rpcErrorBody(id, error)}\n\n`));
        controller.close();
        return;
      }
      if (cancelled) return;
      if (chunk.done) controller.close();
      else controller.enqueue(chunk.value);
    },
    cancel(reason) {
      cancelled = true;
      return reader.cancel(reason);
    },
  });
}
