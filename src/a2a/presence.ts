// Field presence in cards: an optional field is absent when unset, never null
// or undefined (DESIGN "Defaults"), and an empty list or map is unset, as
// ProtoJSON omits it (A2A 1.0 §8.4.1 signs that form). The @a2a-js/sdk
// `cleanEmpty` rule is another one, kept apart in sign/a2a-js-payload.ts.

/** `T` with each member that may be undefined made optional instead (distributes over unions). */
export type Present<T> = T extends unknown
  ? { [K in keyof T as undefined extends T[K] ? never : K]: T[K] } & {
      [K in keyof T as undefined extends T[K] ? K : never]?: Exclude<T[K], undefined>;
    }
  : never;

/**
 * A copy of `fields` without its undefined members; the input is left as it is.
 * Object.fromEntries defines own properties: a key such as `__proto__` stays a
 * key, never a prototype.
 */
export function presentFields<T extends object>(fields: T): Present<T> {
  // The filter removes exactly the undefined members, which is what Present<T> describes.
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Present<T>;
}

/** The list, or undefined when it is absent or empty (§5.7: required lists are never empty; optional ones are left out). */
export const nonEmptyList = <T>(items: readonly T[] | undefined): readonly T[] | undefined =>
  items && items.length > 0 ? items : undefined;

export const nonEmptyMap = <T>(record: Readonly<Record<string, T>> | undefined): Readonly<Record<string, T>> | undefined =>
  record && Object.keys(record).length > 0 ? record : undefined;

/** Object.fromEntries defines own properties: a key such as `__proto__` stays a key, never a prototype. */
export function mapValues<T, U>(record: Readonly<Record<string, T>>, fn: (value: T) => U): Record<string, U> {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, fn(value)]));
}
