// What each card intake repair rule does, in words: `npm run card -- --check`
// prints them, the table of docs/card-data.md says the same, the tests hold both to the
// rules the reader applies. Not imported by the worker (bundle size).
import type { RepairRule } from "./repairs";

/** Every repair rule, with what it does (the table of docs/card-data.md says the same). */
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
  "unsafe-url-scheme":
    "a URL whose scheme a card never publishes (only https and http; an extension's URI may also be a urn) is left out: javascript:, data:, file: ...",
  "unknown-field": "a member no A2A version defines is left out of the published card",
} as const satisfies Record<RepairRule, string>;
