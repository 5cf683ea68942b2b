// Skill selection and ids, shared by every card variant.
import type { SkillSource } from "./source";

export type PreparedSkill = SkillSource & { id: string; description: string };

/** Code-unit order: identical in every runtime, unlike localeCompare (ICU-dependent). */
function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Peers concatenate skill ids into tool names, so an id derived from a name is
 * reduced to one `[A-Za-z0-9_-]` token: accents are folded, every other run of
 * characters becomes `_`.
 */
export function skillIdFromName(name: string): string {
  const folded = name.normalize("NFKD").replace(/[\u0300-\u036f]/g, "");
  const token = folded.replace(/[^A-Za-z0-9_-]+/g, "_").replace(/^_+|_+$/g, "");
  return token === "" ? "skill" : token;
}

/**
 * Sorted by name, narrowed by the allowlist (names; unknown names are ignored),
 * with a unique id for every skill: explicit ids win, derived ids that collide
 * get a numeric suffix.
 */
export function prepareSkills(skills: readonly SkillSource[], allowlist?: readonly string[]): PreparedSkill[] {
  const allowed = allowlist && allowlist.length > 0 ? new Set(allowlist) : undefined;
  const selected = skills.filter((skill) => !allowed || allowed.has(skill.name)).sort((a, b) => compareCodeUnits(a.name, b.name));
  const taken = new Set(selected.flatMap((skill) => (skill.id === undefined ? [] : [skill.id])));
  return selected.map((skill) => {
    let id = skill.id;
    if (id === undefined) {
      const base = skillIdFromName(skill.name);
      id = base;
      for (let n = 2; taken.has(id); n++) id = `${base}_${n}`;
      taken.add(id);
    }
    return { ...skill, id, description: skill.description ?? skill.name };
  });
}
