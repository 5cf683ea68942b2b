// What the admin API reads of a request: its bearer token, its preconditions and its document's text.
import type { Context, MiddlewareHandler } from "hono";
import { callerOfKey } from "../auth/api-keys";
import { EdgeError, failure } from "../errors/failures";
import { httpFailureResponse } from "../errors/responses";
import { readMessageBody } from "../http/body";
import type { Runtime } from "../runtime";
import { MAX_DOCUMENT_BYTES, type Preconditions } from "./document-versions";
import { parseEntityTags } from "./preconditions";

type AdminEnv = { Bindings: Env };

/** If-Match / If-None-Match as the log evaluates them; a malformed field is a 400. */
export function preconditionsOf(c: Context<AdminEnv>): Preconditions {
  const ifMatch = parseEntityTags(c.req.header("if-match"));
  const ifNoneMatch = parseEntityTags(c.req.header("if-none-match"));
  if (ifMatch === null) throw new EdgeError("BAD_REQUEST", 'If-Match must be * or a list of entity-tags such as "3-0a1b2c3d4e5f"');
  if (ifNoneMatch === null) throw new EdgeError("BAD_REQUEST", 'If-None-Match must be * or a list of entity-tags such as "3-0a1b2c3d4e5f"');
  return { ifMatch, ifNoneMatch };
}

/** The body as text: at most 1 MiB counted in bytes read (whatever Content-Length says), within BODY_TIMEOUT_MS, strict UTF-8. */
export async function documentText(c: Context<AdminEnv>, runtime: Runtime): Promise<string> {
  const read = await readMessageBody(c.req.raw, { maxBytes: MAX_DOCUMENT_BYTES, timeoutMs: runtime.config.bodyTimeoutMs });
  if (!read.ok) {
    if (read.reason === "too_large") throw new EdgeError("PAYLOAD_TOO_LARGE", "The document is larger than 1 MiB");
    if (read.reason === "timeout") throw new EdgeError("REQUEST_TIMEOUT", "The document did not arrive in time");
    throw new EdgeError("BAD_REQUEST", "The request body could not be read");
  }
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(read.bytes);
  } catch {
    throw new EdgeError("BAD_REQUEST", "The document is not valid UTF-8; nothing was written");
  }
}

/**
 * RFC 6750 bearer token, any case of "Bearer" (RFC 9110 §11.1), compared as SHA-256 digests in constant
 * time by the edge's own API-key comparison (auth/api-keys.ts): hono/bearer-auth did the same for 0.7 KiB
 * gzip of the bundle (measured with the REST binding).
 */
export function adminAuth(token: string): MiddlewareHandler<AdminEnv> {
  const stored = crypto.subtle.digest("SHA-256", new TextEncoder().encode(token)).then((d) => new Map([["admin", new Uint8Array(d)]]));
  const challenge = { "www-authenticate": 'Bearer realm="agent-card-edge admin"' };
  return async (c, next) => {
    const presented = /^bearer +(\S+)$/i.exec(c.req.header("authorization") ?? "")?.[1];
    if (presented !== undefined && (await callerOfKey(presented, await stored)) !== undefined) return next();
    return httpFailureResponse(failure("UNAUTHENTICATED", "A valid admin bearer token is required", { headers: challenge }));
  };
}
