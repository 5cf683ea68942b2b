// Spellings of one field, for the differential suite (test/worker/one-reading.test.ts): every way a
// member can name a field that some conformant reader accepts (JSON name, proto/snake name), and the ways
// two readers take different values from one object (a name in another case, which Go's encoding/json
// folds; both spellings; a key written twice; a member no table names), each with values a policy must
// refuse beside values it admits. Pure: generators and their values, labelled for the share counters.
import fc from "fast-check";
import { type Json, Num } from "./ordered-json";

/** A value, and the labels it counts under (`bad value`: a value some policy must keep from the origin). */
export interface Piece {
  value: Json;
  labels: readonly string[];
}

/** Members of an object, in order (repeats kept), and their labels. */
export interface Members {
  entries: readonly (readonly [string, Json])[];
  labels: readonly string[];
}

/** Webhook URLs the push guard admits: the origin may take one, or its WHATWG serialization. */
export const GOOD_URLS = [
  "https://hooks.example.com/a2a/1",
  "https://hooks.example.com/a2a/2?task=1",
  "https://HOOKS.Example.com:443/a2a/3",
  "https://8.8.8.8/hook",
] as const;

/** URLs the guard refuses (push/url-guard.ts): private and loopback literals, and the forms readers disagree on. */
const BAD_URLS = [
  "https://127.0.0.1/",
  "https://10.0.0.5/admin",
  "https://[::1]/",
  "https://hooks.example.com\\@127.0.0.1/",
  "https://hooks.example.com/a\tb",
  "https://hooks.exa\r\nmple.com/",
  "https://%31%32%37.0.0.1/",
  "https://hooks%2eexample.com/pct",
  "https://hooks.example.com\u0085/x",
  "http://hooks.example.com/",
  "https://agents.example.com/rpc",
];

const GOOD_TOKENS = ["tok-1", "Bearer abc.def", "s3cr3t=="];
/** Header-bound values the guard refuses: CR LF, NUL, DEL, NEL (U+0085) and another C1 control. */
const BAD_TOKENS = ["tok\r\nX-Injected: 1", "tok\u0000", "tok\u007f", "tok\u0085x", "tok\u009b"];

const constant = (...choices: Json[]): fc.Arbitrary<Piece> => fc.constantFrom(...choices).map((value) => ({ value, labels: [] }));

/** Good values at `goodWeight` to 1 against bad ones. */
function mix(good: readonly Json[], bad: readonly Json[], goodWeight: number): fc.Arbitrary<Piece> {
  return fc.oneof(
    { weight: goodWeight, arbitrary: fc.constantFrom(...good).map((value) => ({ value, labels: [] })) },
    { weight: 1, arbitrary: fc.constantFrom(...bad).map((value) => ({ value, labels: ["bad value"] })) },
  );
}

/**
 * The value pools; `tricky` cases take more bad values. historyLength: numbers, decimal strings (ProtoJSON
 * and pydantic read them), integers written as `3.0` or `1e1` (JSON numbers of integer value, which Go's
 * encoding/json refuses for an int field), and what no integer reader takes.
 */
export const values = (tricky: boolean) => ({
  url: mix(GOOD_URLS, BAD_URLS, tricky ? 2 : 6),
  token: mix(GOOD_TOKENS, BAD_TOKENS, tricky ? 2 : 6),
  schemes: mix([["Bearer"], ["Bearer", "Basic"]], [["Bearer\r\n"], ["Bearer\u0085"]], tricky ? 2 : 6),
  task: constant("task-1", "task-2", "t:3", "task 4"),
  tenant: constant("acme", "beta"),
  config: constant("cfg-1", "cfg-2"),
  message: constant("msg-1", "msg-2"),
  history: fc.oneof(
    { weight: tricky ? 2 : 8, arbitrary: constant(new Num("3"), new Num("0"), new Num("12"), "5", "07") },
    {
      weight: 1,
      arbitrary: fc.constantFrom(new Num("3.0"), new Num("1e1")).map((value) => ({ value, labels: ["integer as 3.0 or 1e1"] })),
    },
    { weight: 1, arbitrary: fc.constantFrom("2.5", "x", true, "").map((value) => ({ value, labels: ["bad value"] })) },
  ),
});

/** The same name in another case, as Go's encoding/json folds it (bytes.EqualFold: `ſ` is `s`, the Kelvin sign `k`). */
function caseVariants(name: string): string[] {
  const variants = [name.charAt(0).toUpperCase() + name.slice(1), name.toUpperCase()];
  if (name.includes("s")) variants.push(name.replace("s", "\u017f"));
  if (name.includes("k")) variants.push(name.replace("k", "\u212a"));
  return variants.filter((variant) => variant !== name);
}

const UNKNOWN = ["webhook", "callbackUrl", "url_", "x-extra"];

const one = (label: string, labels: readonly string[], ...entries: (readonly [string, Json])[]): Members => ({
  entries,
  labels: [label, ...labels],
});

/**
 * A field's member(s): its JSON name or its proto name, and in a `tricky` case also the forms readers
 * disagree on: the name in another case, both spellings, the key twice, an unknown member beside it
 * (holding a bad URL), or an `other` name (the other generation's place of a config, which no reader of
 * this message takes).
 */
export function field(json: string, proto: string | undefined, value: fc.Arbitrary<Piece>, tricky: boolean, other: string[] = []) {
  const named = (name: string, label: string) => value.map((v) => one(label, v.labels, [name, v.value]));
  const two = fc.tuple(value, value, fc.boolean());
  // One field in about six spelled as readers disagree, so that a request holds one such spelling or two.
  const variants: fc.WeightedArbitrary<Members>[] = [{ weight: 24, arbitrary: named(json, "json name") }];
  if (proto) variants.push({ weight: 12, arbitrary: named(proto, "proto name") });
  if (!tricky) return fc.oneof(...variants);
  for (const name of other) variants.push({ weight: 4, arbitrary: named(name, "other place") });
  variants.push(
    {
      weight: 1,
      arbitrary: fc.tuple(fc.constantFrom(...caseVariants(json)), value).map(([k, v]) => one("case variant", v.labels, [k, v.value])),
    },
    {
      weight: 2,
      arbitrary: fc.tuple(fc.constantFrom(...caseVariants(json)), two).map(([k, [v, w, flip]]) => {
        const pair: (readonly [string, Json])[] = [
          [json, v.value],
          [k, w.value],
        ];
        return one("case duplicate", [...v.labels, ...w.labels], ...(flip ? pair.reverse() : pair));
      }),
    },
    { weight: 1, arbitrary: two.map(([v, w]) => one("duplicate key", [...v.labels, ...w.labels], [json, v.value], [json, w.value])) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(value, fc.constantFrom(...UNKNOWN), values(true).url)
        .map(([v, name, url]) => one("unknown member", [...v.labels, ...url.labels], [name, url.value], [json, v.value])),
    },
  );
  if (proto)
    variants.push({
      weight: 2,
      arbitrary: two.map(([v, w, flip]) => {
        const pair: (readonly [string, Json])[] = [
          [json, v.value],
          [proto, w.value],
        ];
        return one("two spellings", [...v.labels, ...w.labels], ...(flip ? pair.reverse() : pair));
      }),
    });
  return fc.oneof(...variants);
}

/** In a tricky case, at times: a member `name` holding `value` where no reader of this message looks (another call's place of a config). */
export const stray = (name: string, value: fc.Arbitrary<Piece>, tricky: boolean): fc.Arbitrary<Members> =>
  tricky ? optional(value.map((v) => one("other place", v.labels, [name, v.value]))) : fixed();

/** A field that may be absent. */
export const optional = (members: fc.Arbitrary<Members>): fc.Arbitrary<Members> =>
  fc.option(members, { nil: undefined, freq: 3 }).map((found) => found ?? { entries: [], labels: [] });

/** Fixed members (the parts of a message no policy reads). */
export const fixed = (...entries: (readonly [string, Json])[]): fc.Arbitrary<Members> => fc.constant({ entries, labels: [] });
