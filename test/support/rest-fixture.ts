// The two SDK scenarios the REST mappers are held to (test/fixtures/rest-sdk.json
// over REST, test/fixtures/bridge-sdk.json over JSON-RPC), and where the two
// differ by what the SDK's REST clients and ProtoJSON do, not by the mappers.
import type { RpcCall } from "../../src/bridge";
import { isJsonObject } from "../../src/json";
import type { RestVersion } from "../../src/rest";
import bridgeFixture from "../fixtures/bridge-sdk.json";
import restFixture from "../fixtures/rest-sdk.json";

export interface RestExchange {
  request: { method: string; path: string; query: string; body?: unknown };
  response: { status: number; body?: unknown; events?: { event?: string; data: unknown }[] };
  jsonrpc?: { request: RpcCall; response: unknown };
}
export interface RestStep {
  name: string;
  v03?: RestExchange | null;
  v1?: RestExchange | null;
}
export type Generation = "v03" | "v1";
export const VERSION: Record<Generation, RestVersion> = { v03: "0.3", v1: "1.0" };

/** `{{id-N}}` in the scenario's requests is the id the fixtures write id-N. */
const withIds = (value: unknown): unknown => JSON.parse(JSON.stringify(value).replace(/\{\{(id-\d)\}\}/g, "$1"));

/**
 * ProtoJSON omits a field at its default (false, "", an empty list) and reads
 * an absent one as that default: the SDK's proto serializers leave them out,
 * the mappers hand on what the JSON-RPC answer holds. Equal once both omit them.
 */
export function withoutDefaults(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutDefaults);
  if (!isJsonObject(value)) return value;
  const kept = Object.entries(value).filter(([, item]) => item !== false && item !== "" && !(Array.isArray(item) && item.length === 0));
  return Object.fromEntries(kept.map(([key, item]) => [key, withoutDefaults(item)]));
}

/**
 * The scenario's JSON-RPC call as the SDK's REST client sends it, which is
 * what the mapper can make of its request. 0.3: the proto has no field for a
 * file's `name` or a part's `metadata`, so they never leave the client; and
 * the client (a 1.0 client writing 0.3) writes 1.0's default wait as
 * `blocking: true` into every send configuration. 1.0: ProtoJSON leaves `returnImmediately: false` out.
 */
export function asTheSdkClientSends(generation: Generation, call: RpcCall): unknown {
  const sent = JSON.parse(JSON.stringify(withIds(call)), (key, value) => {
    if (generation === "v1") return key === "returnImmediately" && value === false ? undefined : value;
    if (key === "file" && isJsonObject(value)) return { ...value, name: undefined };
    if (isJsonObject(value) && ["text", "file", "data"].includes(String(value.kind))) return { ...value, metadata: undefined };
    return value;
  });
  if (generation === "v03" && isJsonObject(sent.params?.configuration)) sent.params.configuration.blocking ??= true;
  return sent;
}

/** The REST event as the fixture writes it (`event` only when set, `data` parsed). */
export function parsedEvent(lines: string): { event?: string; data: unknown } {
  const event = /^event: (.*)$/m.exec(lines)?.[1];
  const data = JSON.parse(/^data: (.*)$/m.exec(lines)?.[1] ?? "null");
  return event ? { event, data } : { data };
}

export const scenario = restFixture.steps as RestStep[];
export const extraSteps = restFixture.extra as RestStep[];
export const jsonRpcSteps: { name: string; request: Record<Generation, RpcCall>; response: Record<Generation, unknown> }[] = bridgeFixture;
