// JSON-RPC errors between 0.3 and 1.0. Codes mean the same in both (SPEC-NOTES
// §3.4) and the message is the origin's own: both pass as they are. Only
// `data` differs: free-form in 0.3; in 1.0 a list of ProtoJSON `Any`, where
// an A2A error SHOULD carry a google.rpc.ErrorInfo whose `reason` names it
// (1.0 §9.5, §10.6).
import { ERROR_DOMAIN, ERROR_INFO_TYPE } from "../a2a/v1";
import { isJsonObject, type JsonObject } from "../json";

/**
 * ErrorInfo reasons of the A2A errors both versions define, -32001 ... -32007
 * in order (src/a2a/v1.ts A2A_ERRORS; test/worker/bridge-errors.test.ts holds
 * this list to that table). -32008 and -32009 are 1.0's alone: a 0.3 origin
 * has no way to mean them, and a 0.3 caller gets their ErrorInfo as data.
 */
export const REASONS = [
  "TASK_NOT_FOUND",
  "TASK_NOT_CANCELABLE",
  "PUSH_NOTIFICATION_NOT_SUPPORTED",
  "UNSUPPORTED_OPERATION",
  "CONTENT_TYPE_NOT_SUPPORTED",
  "INVALID_AGENT_RESPONSE",
  "EXTENDED_AGENT_CARD_NOT_CONFIGURED",
];
const reasonOf = (code: unknown): string | undefined => (typeof code === "number" ? REASONS[-32001 - code] : undefined);

/**
 * 0.3 data of any other form rides in 1.0 as a ProtoJSON `Any` of the well-known
 * google.protobuf.Value (`{"@type": ..., "value": <the JSON>}`, proto3 JSON
 * mapping), so it reaches a 1.0 caller unchanged and comes back out of it.
 */
const VALUE_TYPE = "type.googleapis.com/google.protobuf.Value";

const typeOf = (detail: unknown): unknown => (isJsonObject(detail) ? detail["@type"] : undefined);

/** Already a 1.0 details list (a 0.3 origin on a dual-version SDK may send one). */
const isAnyList = (data: unknown): data is unknown[] =>
  Array.isArray(data) && data.length > 0 && data.every((detail) => typeof typeOf(detail) === "string");

/** The ErrorInfo a code alone implies: it tells a 0.3 caller nothing the code does not. */
function isImpliedErrorInfo(detail: unknown, reason: string | undefined): boolean {
  if (!isJsonObject(detail) || reason === undefined) return false;
  const { "@type": type, reason: named, domain, ...more } = detail;
  return type === ERROR_INFO_TYPE && named === reason && domain === ERROR_DOMAIN && Object.keys(more).length === 0;
}

/** 0.3 `data` -> 1.0 details: the ErrorInfo of an A2A code first (unless the origin sent one), then the data. */
function detailsV1(code: unknown, data: unknown): unknown[] | undefined {
  const details = data === undefined ? [] : isAnyList(data) ? [...data] : [{ "@type": VALUE_TYPE, value: data }];
  const reason = reasonOf(code);
  if (reason !== undefined && !details.some((detail) => typeOf(detail) === ERROR_INFO_TYPE)) {
    details.unshift({ "@type": ERROR_INFO_TYPE, reason, domain: ERROR_DOMAIN });
  }
  return details.length > 0 ? details : undefined;
}

/** 1.0 details -> 0.3 `data`: what the code does not already say, unwrapped when it is one Value. */
function dataV03(code: unknown, data: unknown): unknown {
  if (!Array.isArray(data)) return data;
  const reason = reasonOf(code);
  const rest = data.filter((detail) => !isImpliedErrorInfo(detail, reason));
  const [only] = rest;
  if (rest.length === 1 && isJsonObject(only) && only["@type"] === VALUE_TYPE && Object.hasOwn(only, "value")) return only.value;
  return rest.length > 0 ? rest : undefined;
}

/** A JSON-RPC error object from one version to the other; anything but an object is handed on. */
export function errorFor(error: unknown, to: "0.3" | "1.0"): unknown {
  if (!isJsonObject(error)) return error;
  const { data, ...rest }: JsonObject = error;
  const translated = to === "1.0" ? detailsV1(rest.code, data) : dataV03(rest.code, data);
  return translated === undefined ? rest : { ...rest, data: translated };
}
