// Card intake, one way for every source (bundled skills.json, KV and admin
// documents, the origin's own card, `npm run card -- --source`): a card-source
// document is read strictly by its schema (an unknown member is a typo), an
// A2A card of any generation leniently (card-reader.ts), and both end as one
// validated card-source document with the list of what was repaired.
import { exceedsDepth, isJsonObject, type JsonObject, MAX_JSON_DEPTH, readJsonText, reservedKeyPath } from "../json";
import type { Issue } from "../validation";
import { interfaceUrls, jsonRpcVersions, originsOf } from "./advertised";
import { DERIVED_MEMBERS, readCard } from "./card-reader";
import type { Repair } from "./repairs";
import { type CardSource, type ParseResult, parseCardSource } from "./source";

export type InputKind = "document" | "card";

export interface Intake {
  source: CardSource;
  kind: InputKind;
  /** Empty for a document: only cards are repaired. */
  repairs: readonly Repair[];
  /** `Major.Minor` of the card's JSON-RPC interfaces, preferred first (what an origin speaks, passthrough mode). */
  protocolVersions: string[];
  /** Origins the card advertised for itself: private when it is an origin's, never published. */
  advertisedOrigins: string[];
}

/** Members only an A2A card has: one of them makes the input a card (read leniently), never a document. */
const CARD_ONLY_MEMBERS: readonly string[] = DERIVED_MEMBERS;

export function isCard(value: JsonObject): boolean {
  return CARD_ONLY_MEMBERS.some((member) => member in value);
}

/** Every issue said as the input's own path; a card's are what makes it unpublishable. */
function refused(issues: Issue[]): ParseResult<Intake> {
  return { ok: false, issues };
}

/**
 * Reads a parsed JSON value. `as: "card"` reads it as a card even without a card-only member (an
 * origin's own card is one, whatever it looks like). Never throws.
 */
export function readCardInput(value: unknown, options: { as?: InputKind } = {}): ParseResult<Intake> {
  if (exceedsDepth(value)) return refused([{ path: "", message: `nested deeper than ${MAX_JSON_DEPTH} levels` }]);
  const reserved = reservedKeyPath(value);
  if (reserved !== undefined)
    return refused([{ path: reserved, message: "__proto__, constructor and prototype are not allowed as names" }]);
  if (!isJsonObject(value)) return refused([{ path: "", message: "expected object: a card-source document or an A2A card" }]);
  const kind = options.as ?? (isCard(value) ? "card" : "document");
  if (kind === "document") {
    const parsed = parseCardSource(value);
    if (!parsed.ok) return parsed;
    return { ok: true, value: { source: parsed.value, kind, repairs: [], protocolVersions: [], advertisedOrigins: [] } };
  }
  const read = readCard(value);
  if (read.issues.length > 0) return refused(read.issues);
  const parsed = parseCardSource(read.document);
  if (!parsed.ok) return parsed;
  return {
    ok: true,
    value: {
      source: parsed.value,
      kind,
      repairs: read.repairs,
      protocolVersions: jsonRpcVersions(value),
      advertisedOrigins: originsOf(interfaceUrls(value)),
    },
  };
}

/** Reads JSON text (KV value, request body, file). Never throws. */
export function readCardInputText(text: string, options: { as?: InputKind } = {}): ParseResult<Intake> {
  const json = readJsonText(text);
  if ("error" in json) return refused([{ path: "", message: json.error }]);
  try {
    return readCardInput(json.value, options);
  } catch (error) {
    // Never expected (depth is bounded first); a pathological input must still never escape as a throw.
    return refused([{ path: "", message: `could not be read (${(error as Error).name})` }]);
  }
}
