// Where the SDK's two generations and the bridge may differ by decision
// (test/fixtures/bridge-sdk.json, captured from @a2a-js/sdk 1.3): shared by the
// bridge's unit tests and the tests of the bridge in the worker.
import type { ProtocolGeneration } from "../../src/bridge";
import { isJsonObject } from "../../src/json";

/**
 * ProtoJSON leaves a false bool out and reads it back as false; 0.3 reads an
 * absent `append`/`lastChunk` as false too. So a false flag is the same
 * whether written or not, and the two sides differ here by who wrote what:
 * the SDK writes `false` in 0.3 from its in-memory default and omits it in
 * 1.0; the bridge hands on what it was given.
 */
export function withoutFalseFlags(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutFalseFlags);
  if (!isJsonObject(value)) return value;
  const kept = Object.entries(value).filter(([key, item]) => !((key === "append" || key === "lastChunk") && item === false));
  return Object.fromEntries(kept.map(([key, item]) => [key, withoutFalseFlags(item)]));
}

/**
 * Where the bridge answers otherwise than the SDK, by decision: 0.3 -> 1.0
 * DeleteTaskPushNotificationConfig returns google.protobuf.Empty, `{}` in
 * ProtoJSON, where the SDK's 1.0 handler answers null.
 */
export function asTheBridgeAnswers(envelope: unknown, to: ProtocolGeneration, method: string): unknown {
  if (!isJsonObject(envelope)) return envelope;
  if (to === "1.0" && method === "DeleteTaskPushNotificationConfig" && envelope.result === null) return { ...envelope, result: {} };
  return envelope;
}
