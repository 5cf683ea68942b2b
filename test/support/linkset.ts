// What RFC 9264 (Linkset) requires of an application/linkset+json document, for the catalog tests.

/**
 * RFC 9264 §4.2 (application/linkset+json): one member `linkset`, an array of link context objects; each has an
 * optional `anchor` (a URI) and link relation members whose values are arrays of target objects, each with an
 * `href` (a URI); `title` and `type` are strings, `hreflang` an array, other target attributes arrays of strings.
 */
export function linksetErrors(document: unknown): string[] {
  const errors: string[] = [];
  const isUri = (value: unknown) => typeof value === "string" && URL.canParse(value);
  const object = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
  if (!object(document) || Object.keys(document).join() !== "linkset" || !Array.isArray(document.linkset)) return ["not {linkset: [...]}"];
  document.linkset.forEach((context, i) => {
    if (!object(context)) {
      errors.push(`linkset[${i}] is not an object`);
      return;
    }
    for (const [relation, targets] of Object.entries(context)) {
      if (relation === "anchor") {
        if (!isUri(targets)) errors.push(`linkset[${i}].anchor is not a URI`);
        continue;
      }
      if (!Array.isArray(targets) || targets.length === 0) {
        errors.push(`linkset[${i}].${relation} is not an array of targets`);
        continue;
      }
      targets.forEach((target, j) => {
        const at = `linkset[${i}].${relation}[${j}]`;
        if (!object(target) || !isUri(target.href)) {
          errors.push(`${at} has no href URI`);
          return;
        }
        for (const [attribute, value] of Object.entries(target)) {
          if (attribute === "href") continue;
          const ok = ["title", "type"].includes(attribute) ? typeof value === "string" : Array.isArray(value);
          if (!ok) errors.push(`${at}.${attribute} has the wrong form`);
        }
      });
    }
  });
  return errors;
}
