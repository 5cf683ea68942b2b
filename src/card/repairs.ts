// What reading an existing Agent Card changed to publish a valid one: one
// named rule per kind of change, each occurrence with the path it applied to.
// The rule names are the vocabulary of the log line, the page, the
// Card-Repairs header, `npm run card -- --check` and the admin API answers.

/** Every repair rule by name; what each does is in repair-rules.ts (for the CLI and docs/card-data.md, kept out of the worker bundle). */
export type RepairRule =
  | "derived-field"
  | "media-type"
  | "example-object"
  | "capability-strings"
  | "provider-string"
  | "snake-case"
  | "authentication"
  | "missing-required"
  | "derived-skill"
  | "skill-id"
  | "skill-tags"
  | "duplicate-skill"
  | "invalid-value"
  | "unsafe-url-scheme"
  | "unknown-field";

export interface Repair {
  rule: RepairRule;
  /** Dotted path into the input, "" for the input itself. */
  path: string;
  message: string;
}

/** `rule path` per repair, `; `-separated: the log line's and the CLI's form. */
export function repairsToText(repairs: readonly Repair[]): string {
  return repairs.map((r) => (r.path ? `${r.rule} ${r.path}: ${r.message}` : `${r.rule}: ${r.message}`)).join("; ");
}

/** A2A 1.0 §5.7 modes are media types; what peers write instead, mapped to the type it means. */
const MEDIA_TYPES: Readonly<Record<string, string>> = {
  text: "text/plain",
  plain: "text/plain",
  string: "text/plain",
  markdown: "text/markdown",
  md: "text/markdown",
  html: "text/html",
  csv: "text/csv",
  json: "application/json",
  data: "application/json",
  xml: "application/xml",
  yaml: "application/yaml",
  pdf: "application/pdf",
  file: "application/octet-stream",
  binary: "application/octet-stream",
  image: "image/*",
  audio: "audio/*",
  video: "video/*",
};

/** RFC 6838 type/subtype (the card-source schema's form); a range such as image/* included. */
const MEDIA_TYPE = /^[\w.+-]+\/[\w.+*-]+(\s*;.*)?$/;

/** The media type a mode means, or undefined when it names none. */
export function mediaTypeOf(mode: string): string | undefined {
  if (MEDIA_TYPE.test(mode)) return mode;
  return MEDIA_TYPES[mode.trim().toLowerCase()];
}

/** Capability strings (lc_a2a and others) by the flag they set, compared without case or punctuation. */
const CAPABILITY_FLAGS: Readonly<Record<string, "streaming" | "pushNotifications" | "stateTransitionHistory" | "extendedAgentCard">> = {
  streaming: "streaming",
  streamingsse: "streaming",
  sse: "streaming",
  stream: "streaming",
  pushnotifications: "pushNotifications",
  pushnotification: "pushNotifications",
  push: "pushNotifications",
  statetransitionhistory: "stateTransitionHistory",
  extendedagentcard: "extendedAgentCard",
  authenticatedextendedcard: "extendedAgentCard",
};

export function capabilityFlagOf(capability: string) {
  return CAPABILITY_FLAGS[capability.toLowerCase().replace(/[^a-z]/g, "")];
}
