// API keys (`apiKey` schemes): the key where the scheme says (`in` header,
// query or cookie; `name`), hashed and compared in constant time against
// AUTH_API_KEYS (SHA-256 per caller, so the secret holds no usable key).
import type { ApiKeyHashes } from "../config/json-values";
import { type RequestTarget, searchParam } from "../http/request-target";

/** What authentication reads of a request (an EdgeRequest is one): the auth code never depends on the runtime. */
export interface PresentedRequest {
  request: Request;
  target: RequestTarget;
  /** Public host[:port], the realm of a challenge. */
  publicHost: string;
}

export interface ApiKeyPlace {
  in: "header" | "query" | "cookie";
  name: string;
}

function cookie(header: string | null, name: string): string | null {
  for (const part of header?.split(";") ?? []) {
    const at = part.indexOf("=");
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return null;
}

/** The key as the client sent it, or null. */
export function presentedKey(edge: PresentedRequest, place: ApiKeyPlace): string | null {
  if (place.in === "header") return edge.request.headers.get(place.name);
  if (place.in === "query") return searchParam(edge.target, place.name);
  return cookie(edge.request.headers.get("cookie"), place.name);
}

/** The caller whose key this is; every stored hash is compared, in constant time each. */
export async function callerOfKey(key: string, hashes: ApiKeyHashes): Promise<string | undefined> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(key));
  let caller: string | undefined;
  for (const [name, hash] of hashes) {
    if (crypto.subtle.timingSafeEqual(digest, hash) && caller === undefined) caller = name;
  }
  return caller;
}
