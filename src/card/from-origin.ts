// Cards that come from the origin agent (its own card in passthrough mode, its
// extended card through the proxy) carry its private address. Pure functions
// that make them public: interface URLs become the public RPC URL, any other
// mention of a private origin becomes the public base, and origin signatures
// (which covered the private URLs) are dropped. And the reader that turns an
// origin's card into a card-source document (passthrough mode).

import type { HybridAgentCard } from "../a2a/hybrid";
import { presentFields } from "../a2a/presence";
import * as v1 from "../a2a/v1";
import * as v03 from "../a2a/v03";
import { type JsonObject, jsonObject, memberOf } from "../json";
import { interfaceUrls, originsOf } from "./advertised";
import { type Intake, readCardInput } from "./intake";
import type { ParseResult } from "./source";

export { originsOf } from "./advertised";

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function replaceOrigins(value: unknown, privateOrigins: readonly string[], publicBase: string): unknown {
  if (typeof value === "string") {
    let out = value;
    // Scheme and host are case-insensitive (RFC 3986 §6.2.2.1): HTTP://Origin.Internal is the same origin.
    for (const origin of privateOrigins) out = out.replace(new RegExp(escapeRegExp(origin), "gi"), publicBase);
    return out;
  }
  if (Array.isArray(value)) return value.map((v) => replaceOrigins(v, privateOrigins, publicBase));
  if (typeof value === "object" && value !== null) {
    const out: JsonObject = {};
    for (const [k, v] of Object.entries(value)) out[k] = replaceOrigins(v, privateOrigins, publicBase);
    return out;
  }
  return value;
}

/** The same value with the private origins replaced inside its strings: strings stay strings, so its type stays. */
function withPublicOrigins<T>(value: T, privateOrigins: readonly string[], publicBase: string): T {
  // Only string contents change (see replaceOrigins), never the shape: the result is still a T.
  return replaceOrigins(value, privateOrigins, publicBase) as T;
}

/** The interface members rewritten to the public RPC URL: only JSON-RPC ones survive (the edge fronts JSON-RPC only). */
function publicInterfaces(card: JsonObject, privateOrigins: readonly string[], publicBase: string, publicRpcUrl: string) {
  const supported = memberOf<v1.AgentCard>(card, "supportedInterfaces");
  const hasUrl = ("url" satisfies keyof v03.AgentCard) in card;
  return presentFields({
    supportedInterfaces: Array.isArray(supported)
      ? supported.flatMap((value) => {
          const entry = jsonObject(value);
          const fronted = entry && memberOf<v1.AgentInterface>(entry, "protocolBinding") === v1.JSONRPC_BINDING;
          return fronted ? [{ ...withPublicOrigins(entry, privateOrigins, publicBase), url: publicRpcUrl }] : [];
        })
      : undefined,
    url: hasUrl ? publicRpcUrl : undefined,
    preferredTransport: hasUrl ? v03.JSONRPC_TRANSPORT : undefined,
    additionalInterfaces: Array.isArray(memberOf<v03.AgentCard>(card, "additionalInterfaces"))
      ? [{ url: publicRpcUrl, transport: v03.JSONRPC_TRANSPORT }]
      : undefined,
  } satisfies Partial<Record<keyof (v1.AgentCard & HybridAgentCard), unknown>>);
}

/**
 * The edge's own card built from an origin's card: its interfaces are the edge's already (every binding
 * it serves); any other mention of a private origin (documentation, icon, provider) becomes the public base.
 */
export function withPublicBase<Card>(card: Card, privateOrigins: readonly string[], publicBase: string): Card {
  return withPublicOrigins(
    card,
    privateOrigins.filter((o) => !publicBase.startsWith(o)),
    publicBase,
  );
}

/**
 * The card as the public should see it. Typed cards (the worker's own, built
 * from an origin's card) keep their type; the extended card from the origin
 * is untrusted JSON and stays a JsonObject (it is rewritten, never trusted).
 */
export function publicizeCard<Card extends JsonObject>(
  card: Card,
  knownPrivateOrigins: readonly string[],
  publicBase: string,
  publicRpcUrl: string,
): Card {
  const privateOrigins = [...new Set([...knownPrivateOrigins, ...originsOf(interfaceUrls(card))])].filter((o) => !publicBase.startsWith(o));
  const out = withPublicOrigins(card, privateOrigins, publicBase); // a copy
  Reflect.deleteProperty(out, "signatures" satisfies keyof v1.AgentCard);
  return { ...out, ...publicInterfaces(card, privateOrigins, publicBase, publicRpcUrl) };
}

// ---- origin card -> card-source document (passthrough mode) ----

/** What the origin's card says, read as any imported card is (card intake): it is a card whatever it looks like. */
export type OriginCardSource = Intake;

export function sourceFromCard(value: unknown): ParseResult<OriginCardSource> {
  return readCardInput(value, { as: "card" });
}
