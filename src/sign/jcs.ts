// RFC 8785 JSON Canonicalization Scheme for JSON values (what A2A 1.0 §8.4.1
// signs). ECMAScript's JSON.stringify already serializes strings and numbers
// as JCS requires (RFC 8785 §3.2.2); keys sort by UTF-16 code units (§3.2.3).
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const record = value as Record<string, unknown>;
  return `{${Object.keys(record)
    .filter((key) => record[key] !== undefined)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`)
    .join(",")}}`;
}
