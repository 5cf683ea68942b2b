// Which A2A version a JSON-RPC request speaks (A2A 1.0 §3.6), and the refusal
// of a version the edge does not serve (§9.5 VersionNotSupportedError, -32009).
import { type Failure, failure } from "../errors/failures";

/** 0.3 methods are `category/action` (0.3 §3.5.1); 1.0 methods are PascalCase (1.0 §9.1). */
function generationOf(method: string): string {
  return method.includes("/") || !/^[A-Z]/.test(method) ? "0.3" : "1.0";
}

/**
 * `Major.Minor` of the request: the `A2A-Version` header (or query parameter)
 * when present, a patch part ignored; an empty one means 0.3 (§3.6); without
 * one, the generation the method name belongs to. An unreadable header is
 * returned as given, so that it is refused as unsupported.
 */
export function requestVersion(header: string | null, method: string): string {
  if (header === null) return generationOf(method);
  const value = header.trim();
  if (value === "") return "0.3";
  const match = /^(\d{1,4})\.(\d{1,4})(?:\.\d{1,4})?$/.exec(value);
  return match ? `${Number(match[1])}.${Number(match[2])}` : value.slice(0, 16);
}

/** Undefined when `version` is served; else -32009 naming the supported versions (never the unreadable value). */
export function unservedVersion(version: string, served: readonly string[]): Failure | undefined {
  if (served.includes(version)) return undefined;
  return failure("VERSION_NOT_SUPPORTED", `this agent serves ${served.join(", ")}`, {
    metadata: { requestedVersion: /^\d+\.\d+$/.test(version) ? version : "unreadable", supportedVersions: served.join(",") },
  });
}
