// RFC 9110 §13.1 preconditions for the admin API's writes: `If-Match` and
// `If-None-Match`, compared with the ETag of the key's current version. Pure;
// the worker parses the fields, the Durable Object evaluates them while it
// holds the key, so the check and the write are one step.

/** `*`, or the entity-tags listed: the opaque tag (with its quotes) and whether it was weak (`W/`). */
export type EntityTags = "*" | { tag: string; weak: boolean }[];

/** The key's state a precondition is evaluated against. */
export interface CurrentState {
  /** ETag of the current version; null when the key has never held a version. */
  etag: string | null;
  /** A document exists (the current version is not a deletion). */
  exists: boolean;
}

const ENTITY_TAG = /^(W\/)?"[\x21\x23-\x7e\x80-\xff]*"$/;

/** The field's entity-tags, `*`, or null when the field is malformed. An absent field is undefined. */
export function parseEntityTags(field: string | undefined): EntityTags | null | undefined {
  if (field === undefined) return undefined;
  if (field.trim() === "*") return "*";
  const tags: { tag: string; weak: boolean }[] = [];
  for (const element of field.split(",")) {
    const tag = element.trim();
    if (tag === "") continue; // RFC 9110 §5.6.1: empty list elements are ignored
    if (!ENTITY_TAG.test(tag)) return null;
    tags.push(tag.startsWith("W/") ? { tag: tag.slice(2), weak: true } : { tag, weak: false });
  }
  return tags;
}

/**
 * Why the write must not happen (for a 412), or null when it may.
 * If-Match: `*` passes when a document exists; a list passes when it names the
 * current version's ETag (strong comparison: a weak tag never matches; a
 * deletion is a version too, so the ETag a DELETE answered still matches while
 * the key stays deleted). If-None-Match: `*` fails when a document exists; a
 * list fails when it names the current version's ETag (weak comparison).
 * If-Match is evaluated first (§13.2.2).
 */
export function preconditionFailure(
  current: CurrentState,
  ifMatch: EntityTags | undefined,
  ifNoneMatch: EntityTags | undefined,
): string | null {
  if (ifMatch !== undefined) {
    if (ifMatch === "*") {
      if (!current.exists) return "If-Match: * requires an existing document, and there is none";
    } else if (!ifMatch.some((t) => !t.weak && t.tag === current.etag)) {
      return "If-Match does not name the current version; GET the document for its ETag";
    }
  }
  if (ifNoneMatch !== undefined) {
    if (ifNoneMatch === "*") {
      if (current.exists) return "If-None-Match: * forbids replacing the existing document";
    } else if (ifNoneMatch.some((t) => t.tag === current.etag)) {
      return "If-None-Match names the current version";
    }
  }
  return null;
}
