// What reading an existing Agent Card changed to publish a valid one: one
// named rule per kind of change, each occurrence with the path it applied to.
// The rule names are the vocabulary of the log line, the page, the
// Card-Repairs header, `npm run card -- --check` and the admin API answers.

/** Every repair rule, with what it does (the README's table says the same). */
export const REPAIR_RULES = {
  "derived-field": "a field the edge derives itself (URLs, interfaces, protocol versions, old signatures) is a hint: replaced",
  "media-type": "a bare mode such as `text` becomes the media type both versions' schemas describe (`text/plain`)",
  "example-object": "a skill example given as an object becomes the string both versions require (its input text)",
  "capability-strings": "capabilities given as a list of strings become the capability flags they name",
  "provider-string": "a provider given as a plain string becomes `{organization}` (its url: documentationUrl, else the public base)",
  "snake-case": "a member spelled in the proto's snake_case (`default_input_modes`) is read as its JSON name",
  authentication: "the old `authentication` scheme names become security schemes and requirements",
  "missing-required": "a member every version requires is absent: the document default is published",
  "derived-skill": "no skill at all: one skill derived from the agent's own name and description (A2A 1.0 §5.7)",
  "skill-id": "a skill id that is absent or not one token is derived from the skill's name or id ([A-Za-z0-9_-])",
  "skill-tags": 'a skill without tags gets `["general"]` (tags are required and never empty)',
  "duplicate-skill": "a second skill with the same name is renamed `Name (2)`",
  "invalid-value": "an optional member of the wrong type or form is left out",
  "unknown-field": "a member no A2A version defines is left out of the published card",
} as const;

export type RepairRule = keyof typeof REPAIR_RULES;

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
