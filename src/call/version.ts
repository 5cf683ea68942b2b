// Which A2A version a call speaks (A2A 1.0 §3.6), and the refusal
// of a version the edge does not serve (§9.5 VersionNotSupportedError, -32009).
import type { ProtocolGeneration } from "../a2a/correspondence";
import { type Failure, failure } from "../errors/failures";
import type { EdgeRequest } from "../http/edge-request";
import { searchParam } from "../http/request-target";
import { cutText } from "../log";

/** 0.x versions share 0.3's wire format (slash methods, `kind`); 1.x share 1.0's (SPEC-NOTES §1.4). */
export function generationOf(version: string): ProtocolGeneration {
  return version.startsWith("0.") ? "0.3" : "1.0";
}

/** The caller's `A2A-Version`: the header, else the query parameter (A2A 1.0 §3.6); null when neither is sent. */
export function versionHeaderOf(edge: EdgeRequest): string | null {
  return edge.request.headers.get("a2a-version") ?? searchParam(edge.target, "A2A-Version");
}

/** 0.3 methods are `category/action` (0.3 §3.5.1); 1.0 methods are PascalCase (1.0 §9.1). */
function generationOfMethod(method: string): string {
  return method.includes("/") || !/^[A-Z]/.test(method) ? "0.3" : "1.0";
}

/** What the edge keeps of a version it cannot read (what its record and log lines show, marked as cut: log.ts). */
const MAX_UNREADABLE_VERSION_CHARS = 16;

/**
 * `Major.Minor` of the request: the `A2A-Version` header (or query parameter)
 * when present, a patch part ignored; an empty one means 0.3 (§3.6); without
 * one, the generation the method name belongs to. An unreadable header is
 * returned as given (cut to its first 16 characters, marked), so that it is
 * refused as unsupported.
 */
export function requestVersion(header: string | null, method: string): string {
  if (header === null) return generationOfMethod(method);
  const value = header.trim();
  if (value === "") return "0.3";
  const match = /^(\d{1,4})\.(\d{1,4})(?:\.\d{1,4})?$/.exec(value);
  return match ? `${Number(match[1])}.${Number(match[2])}` : cutText(value, MAX_UNREADABLE_VERSION_CHARS);
}

/** Undefined when `version` is served; else -32009 naming the supported versions (never the unreadable value). */
export function unservedVersion(version: string, served: readonly string[]): Failure | undefined {
  if (served.includes(version)) return undefined;
  return failure("VERSION_NOT_SUPPORTED", `this agent serves ${served.join(", ")}`, {
    metadata: { requestedVersion: /^\d+\.\d+$/.test(version) ? version : "unreadable", supportedVersions: served.join(",") },
  });
}
