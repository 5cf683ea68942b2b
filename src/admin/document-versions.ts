// What the admin API and its per-key document log (document-log.ts) say to
// each other: the write requests, the versions with their ETags, the refusals.
// Plain data: it crosses the Durable Object RPC boundary.
import type { EntityTags } from "./preconditions";

/** The largest document the admin API accepts or keeps, in UTF-8 bytes. */
export const MAX_DOCUMENT_BYTES = 1024 * 1024;
/** Where the admin API before this log kept a key's previous version; adopted once, never written. */
export const LEGACY_PREVIOUS_PREFIX = "previous:";

export type DocumentAction = "put" | "delete" | "rollback";
/** How a version came to be: through the admin API, or adopted from KV (written outside it). */
export type VersionOrigin = DocumentAction | "adopted";

export interface Preconditions {
  ifMatch?: EntityTags | undefined;
  ifNoneMatch?: EntityTags | undefined;
}

export type WriteRequest = { key: string; preconditions: Preconditions } & (
  | { action: "put"; text: string }
  | { action: "delete" | "rollback" }
);

/** A version: `text` null means the key was deleted in it. */
export interface Version {
  version: number;
  etag: string;
  text: string | null;
}

export type LogRefusal = { ok: false; status: 404 | 409 | 412 | 503; message: string };
export type Outcome = ({ ok: true } & Version) | LogRefusal;

export interface VersionSummary {
  version: number;
  etag: string;
  origin: VersionOrigin;
  deleted: boolean;
  bytes: number;
  createdAt: string;
}
