// What the Worker and a TaskStream (task-stream.ts) say to each other over RPC: plain data, a Response
// (an answer that is no stream) or the byte stream of a client's events.
import type { Call, OriginCodec } from "../call/call";
import type { Failure } from "../errors/failures";

/** Who may read a log: the agent's document key (host and agent path), the tenant ("" for none), the caller. */
export interface StreamOwner {
  agent: string;
  tenant: string;
  /** `<scheme>:<subject>` as the edge authenticated the caller. */
  caller: string;
}

/** What the Worker hands over: the admitted call's origin request, ready for each candidate (failover). */
export interface HoldRequest {
  owner: StreamOwner;
  /** The call in the origin's generation (without its bytes), as the origin's codec decodes its events. */
  origin: Omit<Call, "bytes">;
  originBinding: OriginCodec["binding"];
  /** The route's candidates in order, each with its URL (the client's query merged) and its headers (its assertion). */
  attempts: { candidate: string; headers: [string, string][] }[];
  /** The route's binding by env name (ORIGIN, ORIGIN_VPC, a DOCUMENT_VPC_SERVICES entry); none: fetch. */
  through?: string;
  body: Uint8Array;
  httpMethod: string;
  search: string;
}

export type HoldAnswer =
  | { kind: "failure"; failure: Failure; origins: string[] }
  /** Not a stream (a JSON error, a 4xx): the Worker's reply path takes it as any reply. */
  | { kind: "reply"; response: Response; origins: string[] }
  | { kind: "held"; stream: ReadableStream<Uint8Array>; headers: [string, string][]; origins: string[]; id: string };

export interface AttachRequest extends StreamOwner {
  task: string;
  /** The last event the client has. */
  after: number;
}

export interface Attached {
  stream: ReadableStream<Uint8Array>;
  replayed: number;
  /** The origin call the log's events answer: their generation and method, as the bridge translates them. */
  kept: Pick<Call, "generation" | "method">;
}

/** How a log ended: `done` is the origin's own end; the others reach a client as its generation's error event. */
export type StreamEnd = "done" | "broken" | "unreadable" | "bound" | "lost" | "behind";
