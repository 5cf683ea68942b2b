// The skills of an imported card, read leniently into the card-source form
// (see card-reader.ts): every change is a named repair.
import { securityRequirementsV03 } from "../a2a/correspondence";
import { presentFields } from "../a2a/presence";
import type * as v1 from "../a2a/v1";
import type * as v03 from "../a2a/v03";
import { type JsonObject, memberOf } from "../json";
import { join, knownMembers, listOf, objectOf, type Reading, readModes, text } from "./reading";
import { skillIdFromName } from "./skills";

const SKILL_MEMBERS = [
  "id",
  "name",
  "description",
  "tags",
  "examples",
  "inputModes",
  "outputModes",
  "security",
  "securityRequirements",
] as const satisfies readonly (keyof v1.AgentSkill | keyof v03.AgentSkill)[];

const SKILL_ID = /^[A-Za-z0-9_-]+$/;
const MAX_EXAMPLE_CHARS = 500;

/** An example object's prompt: its input's text parts (Telex `{input: {parts}, output}`), else its JSON. */
function exampleText(example: JsonObject): string {
  const input = example.input ?? example.prompt ?? example.text;
  if (typeof input === "string") return input;
  const parts = listOf(memberOf<{ parts: unknown }>(input, "parts")) ?? listOf(example.parts) ?? [];
  const texts = parts.map((part) => memberOf<{ text: unknown }>(part, "text")).filter((t): t is string => typeof t === "string");
  return (texts.length > 0 ? texts.join(" ") : JSON.stringify(example)).slice(0, MAX_EXAMPLE_CHARS);
}

function readExamples(value: unknown, path: string, reading: Reading): string[] | undefined {
  const list = listOf(value);
  if (value !== undefined && !list) reading.repair("invalid-value", path, "not a list of strings: left out");
  if (!list) return undefined;
  let objects = 0;
  const out = list.flatMap((example) => {
    if (typeof example === "string") return [example];
    const object = objectOf(example);
    if (object) {
      objects++;
      return [exampleText(object)];
    }
    return typeof example === "number" || typeof example === "boolean" ? [String(example)] : [];
  });
  if (objects > 0) reading.repair("example-object", path, `${objects} example object(s) read as their input text`);
  return out.length > 0 ? out : undefined;
}

function readTags(value: unknown, path: string, reading: Reading): string[] | undefined {
  const tags = (listOf(value) ?? []).filter((tag): tag is string => text(tag) !== undefined);
  if (tags.length === 0) reading.repair("skill-tags", path, 'absent or empty: ["general"]');
  return tags.length > 0 ? [...new Set(tags)] : undefined;
}

/** The id as published: a valid, unused token; else undefined (derived from the name when the card is built). */
function readId(value: unknown, path: string, taken: Set<string>, reading: Reading): string | undefined {
  if (value === undefined || text(value) === undefined) {
    reading.repair("skill-id", path, "absent: derived from the skill's name");
    return undefined;
  }
  let id = String(value);
  if (!SKILL_ID.test(id)) {
    id = skillIdFromName(id);
    reading.repair("skill-id", path, `not one [A-Za-z0-9_-] token: ${id}`);
  }
  if (taken.has(id)) {
    reading.repair("duplicate-skill", path, `id ${id} is taken: derived from the skill's name`);
    return undefined;
  }
  taken.add(id);
  return id;
}

interface Taken {
  names: Set<string>;
  ids: Set<string>;
}

function uniqueName(name: string, path: string, taken: Taken, reading: Reading): string {
  let unique = name;
  for (let n = 2; taken.names.has(unique); n++) unique = `${name} (${n})`;
  if (unique !== name) reading.repair("duplicate-skill", path, `a second skill named ${name}: ${unique}`);
  taken.names.add(unique);
  return unique;
}

function readSkill(value: unknown, path: string, taken: Taken, reading: Reading): JsonObject | undefined {
  const raw = objectOf(value);
  if (!raw) {
    reading.repair("invalid-value", path, "not a skill object: left out");
    return undefined;
  }
  const skill = knownMembers(raw, SKILL_MEMBERS, path, reading);
  let name = text(skill.name);
  if (name === undefined) {
    name = text(skill.id) ?? "skill";
    reading.repair("missing-required", join(path, "name"), `absent: ${name}`);
  }
  if (typeof skill.description !== "string") reading.repair("missing-required", join(path, "description"), "absent: the skill's name");
  return presentFields({
    id: readId(skill.id, join(path, "id"), taken.ids, reading),
    name: uniqueName(name, join(path, "name"), taken, reading),
    description: typeof skill.description === "string" ? skill.description : undefined,
    tags: readTags(skill.tags, join(path, "tags"), reading),
    examples: readExamples(skill.examples, join(path, "examples"), reading),
    inputModes: readModes(skill.inputModes, join(path, "inputModes"), reading),
    outputModes: readModes(skill.outputModes, join(path, "outputModes"), reading),
    security: securityRequirementsV03(skill.securityRequirements, skill.security),
  });
}

/** The card's skills; none at all is one skill derived from the agent (A2A 1.0 §5.7: required lists are never empty). */
export function readSkills(value: unknown, agent: { name: string; description: string | undefined }, reading: Reading): JsonObject[] {
  const list = listOf(value);
  if (value !== undefined && !list) reading.repair("invalid-value", "skills", "not a list: left out");
  const taken: Taken = { names: new Set(), ids: new Set() };
  const skills = (list ?? []).flatMap((skill, i): JsonObject[] => {
    const read = readSkill(skill, join("skills", i), taken, reading);
    return read ? [read] : [];
  });
  if (skills.length > 0) return skills;
  reading.repair("derived-skill", "skills", `no skill: one named ${agent.name}, from the agent's name and description`);
  return [{ name: agent.name, description: text(agent.description) ?? agent.name }];
}
