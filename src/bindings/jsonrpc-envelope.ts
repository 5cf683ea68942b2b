// The JSON-RPC 2.0 request envelope, validated (A2A 0.3 §3.2.1, 1.0 §9): pure,
// on the exact bytes the client sent. Valid requests are forwarded as those
// bytes (minus a UTF-8 BOM) while every reading of them is the edge's (the
// params are read next, src/messages/); invalid ones never reach the origin.
// Only bytes with one meaning pass: a duplicate key, or an envelope member in
// another case (`Method`, which Go's encoding/json takes for `method`), could
// be read differently by the origin. Other members are no part of JSON-RPC 2.0
// (§4): dropped, and the envelope is then re-serialized.
import { type Failure, failure } from "../errors/failures";
import type { RpcId } from "../errors/responses";
import { scanJsonText } from "../json";
import { foldName } from "../messages/reader";

/** A call that passed the edge: what it asks and, when they say only that, the bytes to forward. */
interface RpcCall {
  id: RpcId;
  method: string;
  params: unknown;
  bytes?: Uint8Array;
}

const MEMBERS: ReadonlySet<string> = new Set(["jsonrpc", "id", "method", "params"]);

/** The envelope member a member of another case would be read as, or undefined; `unknown` says whether any other member is there. */
function envelopeMembers(request: Record<string, unknown>): { otherCase?: string; unknown: boolean } {
  let unknown = false;
  for (const key of Object.keys(request)) {
    if (MEMBERS.has(key)) continue;
    if (MEMBERS.has(foldName(key))) return { otherCase: key, unknown };
    unknown = true;
  }
  return { unknown };
}

export type RpcValidation = { ok: true; call: RpcCall } | { ok: false; id: RpcId; failure: Failure };

const BOM = [0xef, 0xbb, 0xbf];

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

function isValidId(id: unknown): id is RpcId {
  return id === null || typeof id === "string" || (typeof id === "number" && Number.isFinite(id));
}

export function validateRpcRequest(body: Uint8Array): RpcValidation {
  let text: string;
  let value: unknown;
  try {
    text = utf8.decode(body);
  } catch {
    return { ok: false, id: null, failure: failure("PARSE_ERROR", "body is not UTF-8") };
  }
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, id: null, failure: failure("PARSE_ERROR") };
  }
  if (Array.isArray(value)) {
    return { ok: false, id: null, failure: failure("INVALID_REQUEST", "batch requests are not supported") };
  }
  if (typeof value !== "object" || value === null) {
    return { ok: false, id: null, failure: failure("INVALID_REQUEST", "expected a JSON-RPC request object") };
  }
  const request = value as Record<string, unknown>;
  const id = isValidId(request.id) ? request.id : null;
  const invalid = (detail: string): RpcValidation => ({ ok: false, id, failure: failure("INVALID_REQUEST", detail) });
  if (request.jsonrpc !== "2.0") return invalid('"jsonrpc" must be "2.0"');
  if (!("id" in request)) return invalid('"id" is required (A2A has no notifications)');
  if (!isValidId(request.id)) return invalid('"id" must be a string, a number or null');
  if (typeof request.method !== "string" || request.method === "") return invalid('"method" must be a non-empty string');
  if ("params" in request && (typeof request.params !== "object" || request.params === null)) {
    return invalid('"params" must be an object or an array');
  }
  const scan = scanJsonText(text);
  if (scan.duplicateKey) return invalid("an object names the same key twice");
  const members = envelopeMembers(request);
  if (members.otherCase !== undefined) return invalid(`"${members.otherCase}" is ${foldName(members.otherCase)} in another case`);
  const call = { id, method: request.method, params: request.params };
  // The bytes go on only as the edge read them: no member dropped, every number as JSON.stringify writes it.
  if (members.unknown || scan.fractionOrExponent) return { ok: true, call };
  // RFC 8259 §8.1: a BOM is not part of JSON text; the decoder dropped it, so does the forwarded copy.
  const bytes = BOM.every((byte, i) => body[i] === byte) ? body.subarray(3) : body;
  return { ok: true, call: { ...call, bytes } };
}
