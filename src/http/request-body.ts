// The first policy of every call, whatever its binding: the body, read within
// MAX_BODY_BYTES (counted in bytes actually read) and BODY_TIMEOUT_MS, under
// the binding's content types. Both client codecs read through here.
import type { Config } from "../config";
import { type Failure, failure } from "../errors/failures";
import { log } from "../log";
import { readMessageBody } from "./body";
import type { Deadlines } from "./deadlines";

function mediaType(contentType: string | null): string {
  return contentType?.split(";")[0]?.trim().toLowerCase() ?? "";
}

export async function readCallBody(
  request: Request,
  config: Pick<Config, "maxBodyBytes" | "bodyTimeoutMs">,
  deadlines: Deadlines,
  /** REST (HTTP+JSON) takes application/a2a+json too (A2A 1.0 §14.1). */
  mediaTypes: readonly string[] = ["application/json"],
): Promise<Uint8Array | Failure> {
  const tooLarge = () => failure("PAYLOAD_TOO_LARGE", `body larger than ${config.maxBodyBytes} bytes`);
  // A declared length over the cap is refused before reading anything; every body is still counted as it arrives.
  if (Number(request.headers.get("content-length") ?? "0") > config.maxBodyBytes) return tooLarge();
  // A2A 0.3 §3.2.1, 1.0 §9.1: JSON-RPC requests are application/json.
  if (!mediaTypes.includes(mediaType(request.headers.get("content-type")))) {
    return failure("UNSUPPORTED_MEDIA_TYPE", `Content-Type must be ${mediaTypes.join(" or ")}`);
  }
  const read = await readMessageBody(request, { maxBytes: config.maxBodyBytes, timeoutMs: config.bodyTimeoutMs, deadlines });
  if (read.ok) return read.bytes;
  if (read.reason === "too_large") return tooLarge();
  log("warn", "request_body_failed", { reason: read.reason });
  return failure("REQUEST_TIMEOUT", read.reason === "timeout" ? "the request body did not arrive in time" : "the request body was cut off");
}
