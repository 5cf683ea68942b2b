// What a card says about where its agent lives: the endpoint URLs it names
// (private addresses the edge must never publish) and the JSON-RPC versions its
// interfaces speak. Read from untrusted cards of any generation and dialect.
import type * as v1 from "../a2a/v1";
import type * as v03 from "../a2a/v03";
import { type JsonObject, memberOf } from "../json";

const listOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** `scheme://host[:port]` of every absolute http(s) URL given; invalid ones are skipped. */
export function originsOf(urls: readonly (string | undefined)[]): string[] {
  const origins = new Set<string>();
  for (const url of urls) {
    if (!url) continue;
    try {
      const parsed = new URL(url);
      if (parsed.protocol === "http:" || parsed.protocol === "https:") origins.add(parsed.origin);
    } catch {
      /* not a URL: nothing to hide */
    }
  }
  return [...origins];
}

/** Every endpoint URL a 1.0, 0.3 or hybrid card names (1.0 interfaces, 0.3 `url` and interfaces). */
export function interfaceUrls(card: JsonObject): string[] {
  return [
    memberOf<v03.AgentCard>(card, "url"),
    ...listOf(memberOf<v1.AgentCard>(card, "supportedInterfaces")).map((i) => memberOf<v1.AgentInterface>(i, "url")),
    ...listOf(memberOf<v03.AgentCard>(card, "additionalInterfaces")).map((i) => memberOf<v03.AgentInterface>(i, "url")),
  ].filter((u): u is string => typeof u === "string");
}

/** JSON-RPC by any of its spellings (1.0 `protocolBinding`, Molecule's `protocol`, lc_a2a's `transport: "jsonrpc"`). */
function isJsonRpc(entry: unknown): boolean {
  const binding = memberOf<v1.AgentInterface>(entry, "protocolBinding") ?? memberOf<{ protocol: unknown }>(entry, "protocol");
  const named = binding ?? memberOf<v03.AgentInterface>(entry, "transport");
  return typeof named === "string" && named.replace(/[^a-z]/gi, "").toUpperCase() === "JSONRPC";
}

/** `Major.Minor` of a version such as "1.0.1" (A2A 1.0 §3.6: the patch is never considered). */
const majorMinor = (version: unknown) => (typeof version === "string" ? /^(\d+\.\d+)(\.\d+)?$/.exec(version)?.[1] : undefined);

/** `Major.Minor` of the card's JSON-RPC interfaces, deduplicated, preferred first; a card without any is 0.3. */
export function jsonRpcVersions(card: JsonObject): string[] {
  const versions = listOf(memberOf<v1.AgentCard>(card, "supportedInterfaces")).flatMap((entry) => {
    const version = majorMinor(memberOf<v1.AgentInterface>(entry, "protocolVersion"));
    return isJsonRpc(entry) && version ? [version] : [];
  });
  return versions.length > 0 ? [...new Set(versions)] : ["0.3"];
}
