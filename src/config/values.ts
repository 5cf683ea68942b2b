// Parsers of single values, built from zod's own primitives. Each takes the
// variable's trimmed text. Every message is written here: none repeats the
// value (it may be a secret pasted in the wrong place).
import * as z from "zod/mini";
import { operationOfMethod } from "../a2a/correspondence";
import type { Operation } from "../a2a/operations";
import { normalizeHost } from "../http/request-target";
import { reject } from "./declare";

/** `true` or `false` (also 1/0, yes/no, on/off), in any case. */
export const flag = z.stringbool({
  truthy: ["true", "1", "yes", "on"],
  falsy: ["false", "0", "no", "off"],
  error: "expected true or false",
});

/** One of a few words, in any case. */
export function oneOf<const Words extends readonly [string, ...string[]]>(words: Words) {
  return z.pipe(z.string().check(z.toLowerCase()), z.enum(words, { error: `expected one of ${words.join(", ")}` }));
}

/** Digits only (no sign, exponent or hex), within [min, max]. */
export function wholeNumber(min: number, max: number) {
  const error = `expected a whole number between ${min} and ${max}`;
  return z.pipe(z.string().check(z.regex(/^\d+$/, error)), z.coerce.number<string>().check(z.minimum(min, error), z.maximum(max, error)));
}

/** A share between 0 and 1 (`0.01`, `1`): plain decimal digits, no sign or exponent. */
export const fraction = z.pipe(
  z.string().check(z.regex(/^(0(\.\d+)?|1(\.0+)?|\.\d+)$/, "expected a number between 0 and 1")),
  z.coerce.number<string>(),
);

/** A secret token: long enough not to be guessed. */
export function token(minLength: number) {
  return z.string().check(z.minLength(minLength, `must be at least ${minLength} characters (use a random token)`));
}

/** An absolute http(s) URL, parsed (the checks after it run only on a URL that parsed). */
function httpUrl(example: string) {
  return z.pipe(
    z.url({ protocol: /^https?$/, error: `expected an absolute http(s) URL such as ${example}` }),
    z.transform((text) => new URL(text)),
  );
}

/** A fixed public base: scheme, normalized host and an optional path prefix, without a trailing slash. */
export const baseUrl = z.pipe(
  httpUrl("https://agents.example.com").check(
    z.refine((url) => !url.search && !url.hash && !url.username && !url.password, "expected a URL without credentials, query or fragment"),
  ),
  z.transform((url) => `${url.protocol}//${normalizeHost(url.host)}${url.pathname}`.replace(/\/+$/, "")),
);

/** An origin agent's endpoint: a query is kept, credentials belong in ORIGIN_HEADERS. */
export const originUrl = z.pipe(
  httpUrl("http://10.0.0.5:8080/").check(
    z.refine(
      (url) => !url.hash && !url.username && !url.password,
      "expected a URL without credentials or fragment (put credentials in ORIGIN_HEADERS)",
    ),
  ),
  z.transform((url) => url.href),
);

// RFC 3986 pchar, minus "." and ".." segments: the path is copied into URLs and routes as is.
const PATH_SEGMENT = /^[A-Za-z0-9._~!$&'()*+,;=:@%-]+$/;
const segmentsOf = (path: string) => path.split("/").filter((segment) => segment !== "");

/** An absolute URL path such as `/` or `/a2a/v1`, without a trailing slash. */
export const urlPath = z.pipe(
  z.string().check(
    z.startsWith("/", { error: "expected a path starting with /", abort: true }),
    z.refine(
      (path) => segmentsOf(path).every((segment) => PATH_SEGMENT.test(segment) && segment !== "." && segment !== ".."),
      "expected a plain URL path (letters, digits, - . _ ~ and percent-escapes)",
    ),
  ),
  z.transform((path) => `/${segmentsOf(path).join("/")}`),
);

const LIST_EXPECTED = "expected a JSON array of strings or a comma-separated list";

/**
 * A JSON array of strings (wrangler [vars]) or comma-separated text -> trimmed
 * items, blanks and repeats dropped. Hand-written: zod has no "JSON or text" form.
 */
const listItems = z.transform((text: string, ctx): string[] => {
  let items: unknown = text.split(",");
  if (text.startsWith("[")) {
    try {
      items = JSON.parse(text);
    } catch {
      return reject(ctx, LIST_EXPECTED);
    }
  }
  if (!Array.isArray(items) || !items.every((item) => typeof item === "string")) return reject(ctx, LIST_EXPECTED);
  return [...new Set(items.map((item) => item.trim()).filter((item) => item !== ""))];
});

/** A list whose items each pass `item`; an issue names the entry by position. */
export function listOf<Item extends z.ZodMiniType<unknown, string>>(item: Item) {
  return z.pipe(listItems, z.array(item));
}

export const stringList = listOf(z.string());

/** A list that means "only these" when it has items, and "no restriction" (undefined) when empty. */
export function restrictionOf(list: z.ZodMiniType<string[], string>) {
  return z.pipe(
    list,
    z.transform((items): ReadonlySet<string> | undefined => (items.length > 0 ? new Set(items) : undefined)),
  );
}

/**
 * METHOD_ALLOWLIST: the operations it names, by a method name of either version (`SendMessage` or
 * `message/send`: the same operation, on every binding), and the names that are no A2A method
 * (extension methods, matched as written on JSON-RPC). Empty: no restriction.
 */
export interface OperationAllowlist {
  operations: ReadonlySet<Operation>;
  extensionMethods: ReadonlySet<string>;
}

export const operationAllowlist = z.pipe(
  restrictionOf(stringList),
  z.transform((names): OperationAllowlist | undefined => {
    if (!names) return undefined;
    const operations = new Set<Operation>();
    const extensionMethods = new Set<string>();
    for (const name of names) {
      const operation = operationOfMethod(name);
      if (operation) operations.add(operation);
      else extensionMethods.add(name);
    }
    return { operations, extensionMethods };
  }),
);

/** Hostnames as the request's host is normalized: lower case, no trailing dot. */
const hostList = z.pipe(
  stringList,
  z.transform((hosts) => hosts.map(normalizeHost)),
);

/**
 * HOST_ALLOWLIST: the hostnames served (the set itself), and in `authorities` each entry as written,
 * `host` or `host:port`: a card is signed only for a public host[:port] named there, an entry without a
 * port naming the scheme's default port (URL.host leaves it out). Empty: no restriction.
 */
export interface HostAllowlist extends ReadonlySet<string> {
  readonly authorities: ReadonlySet<string>;
}

const PORT_SUFFIX = /:(\d{1,5})$/;

export const hostAllowlist = z.pipe(
  hostList.check(
    z.refine((hosts) => hosts.every((host) => Number(PORT_SUFFIX.exec(host)?.[1] ?? 1) <= 65_535), "expected host or host:port entries"),
  ),
  z.transform((hosts): HostAllowlist | undefined => {
    if (hosts.length === 0) return undefined;
    const hostnames = hosts.map((host) => host.replace(PORT_SUFFIX, ""));
    return Object.assign(new Set(hostnames), { authorities: new Set(hosts) });
  }),
);

const HOST_PATTERN = /^(\*\.)?([a-z0-9-]+\.)*[a-z0-9-]+$/;

/** PUSH_URL_ALLOWLIST: `hooks.example.com` (that host) or `*.example.com` (any host under it), lower case. */
export const hostPatterns = z.pipe(
  hostList.check(z.refine((hosts) => hosts.every((host) => HOST_PATTERN.test(host)), "expected hostnames or *.suffix patterns")),
  z.transform((hosts): readonly string[] | undefined => (hosts.length === 0 ? undefined : hosts)),
);

/** Origins (scheme, host, port) of the URLs listed. */
export const originsOfUrls = z.pipe(
  listOf(originUrl),
  z.transform((urls): ReadonlySet<string> => new Set(urls.map((url) => new URL(url).origin))),
);

/**
 * DOCUMENT_VPC_SERVICES: env binding names (wrangler's `binding`, a JavaScript identifier). Never `ORIGIN`: the
 * Service Binding is the deployment's, and a document naming it would reach whatever Worker it is.
 */
export const bindingNames = z.pipe(
  listOf(
    z.string().check(
      z.regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, "expected binding names such as AGENT_B_VPC"),
      z.refine((name) => name !== "ORIGIN", "ORIGIN is the Service Binding, not a VPC Service"),
    ),
  ),
  z.transform((names): ReadonlySet<string> => new Set(names)),
);

const VERSIONS_EXPECTED = 'expected Major.Minor versions, preferred first, e.g. "1.0,0.3"';

/** A2A 1.0 §3.6: versions are Major.Minor, a patch part must not be used; preferred first. */
export const protocolVersions = listOf(z.string().check(z.regex(/^\d+\.\d+$/, VERSIONS_EXPECTED))).check(z.minLength(1, VERSIONS_EXPECTED));

const ORIGIN_EXPECTED = "is not an origin such as https://app.example.com";

/** A browser origin: scheme, host and port only (one trailing slash tolerated). */
const browserOrigin = z.pipe(
  z.url({ error: ORIGIN_EXPECTED }),
  z.transform((text, ctx) => {
    const origin = new URL(text).origin;
    return origin === text.replace(/\/$/, "") ? origin : reject(ctx, ORIGIN_EXPECTED);
  }),
);

/** `*` (any origin), or the origins allowed to call from a browser. */
export const corsOrigins = z.union([z.literal("*"), listOf(browserOrigin)], {
  error: "expected * or a list of origins such as https://app.example.com",
});

/** A tenant as it appears in a REST path segment (A2A 1.0 §11: `/{tenant}/...`): URL-safe characters only. */
/** A Mastra agentId as its client puts it in a path: one segment of letters, digits, `-` and `_`. */
export const mastraAgentId = z
  .string()
  .check(z.regex(/^[A-Za-z0-9_-]{1,64}$/, "expected an agentId of letters, digits, - and _ (at most 64), as in the client's path"));

export const tenantName = z
  .string()
  .check(z.regex(/^[A-Za-z0-9._~-]{1,128}$/, "expected a tenant of letters, digits and -._~ (at most 128)"));
