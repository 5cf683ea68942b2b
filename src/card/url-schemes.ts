// Which URLs a card may publish. Every URL in a card becomes a link or a fetch
// in each of its readers (this edge's page, registries, agent UIs, peers), so a
// card publishes only the web's schemes, https and http: never `javascript:`,
// `data:`, `vbscript:`, `file:` or any other. An extension's `uri` is an
// identifier ("The unique URI identifying the extension": A2A 1.0
// AgentExtension.uri; 0.3 AgentExtension.uri), commonly https, and a URN is a
// legitimate one too. A scheme counts only when every reader reads the same
// one: the WHATWG URL parser skips leading spaces and control characters and
// deletes tabs and newlines anywhere, where a sanitizer or a pattern that does
// not would read no scheme (a relative link) or another, so the scheme must be
// what the value begins with (in any case: RFC 3986 §3.1).

/** What every published URL may be (documentationUrl, iconUrl, provider.url, a security scheme's URLs). */
export const WEB_SCHEMES: readonly string[] = ["https", "http"];
/** What an extension's identifier may be besides. */
export const IDENTIFIER_SCHEMES: readonly string[] = [...WEB_SCHEMES, "urn"];

/** RFC 3986 §3.1: `scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`, then `:`. */
const WRITTEN_SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/;
/** A scheme named in a message, never more of the value (it is the document's, and goes to logs and headers). */
const MAX_SCHEME_CHARS = 32;

/** The scheme the URL parser reads in `value`, lower case and without its colon; undefined when it reads no URL. */
function parsedScheme(value: string): string | undefined {
  try {
    return new URL(value).protocol.slice(0, -1);
  } catch {
    return undefined;
  }
}

export interface UrlProblem {
  /** The scheme is one a card never publishes, or readers would disagree on it: the `unsafe-url-scheme` repair. */
  unsafe: boolean;
  message: string;
}

/** Why `value` may not be published as a URL in one of `schemes`; undefined when it may. */
export function urlProblem(value: unknown, schemes: readonly string[]): UrlProblem | undefined {
  const allowed = schemes.join(", ");
  if (typeof value !== "string") return { unsafe: false, message: `not a URL (${allowed})` };
  const parsed = parsedScheme(value);
  if (parsed === undefined) return { unsafe: false, message: `not an absolute URL (${allowed})` };
  if (!schemes.includes(parsed)) {
    return { unsafe: true, message: `scheme ${parsed.slice(0, MAX_SCHEME_CHARS)}: is not published (${allowed} only)` };
  }
  const written = WRITTEN_SCHEME.exec(value)?.[1]?.toLowerCase();
  if (written !== parsed) {
    return { unsafe: true, message: `does not begin with its scheme ${parsed}: (characters readers skip or read differently)` };
  }
  // The form the schema's http(s) URLs require: an authority, never `https:host` (which readers complete differently).
  if (WEB_SCHEMES.includes(parsed) && !value.startsWith("//", parsed.length + 1)) {
    return { unsafe: false, message: `not an absolute ${parsed}:// URL` };
  }
  return undefined;
}

/** `value` is a URL a card may publish in one of `schemes`. */
export function hasPublishedScheme(value: unknown, schemes: readonly string[]): value is string {
  return urlProblem(value, schemes) === undefined;
}

/** A copy of an object without the members named whose value is no URL in `schemes`. */
function withoutUnsafe(value: Record<string, unknown>, members: readonly string[], schemes: readonly string[]): Record<string, unknown> {
  const unsafe = members.filter((member) => member in value && !hasPublishedScheme(value[member], schemes));
  if (unsafe.length === 0) return value;
  return Object.fromEntries(Object.entries(value).filter(([member]) => !unsafe.includes(member)));
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * A card as an origin sent it (the extended card, which card intake never reads) with the URLs a card never
 * publishes left out, as intake's `unsafe-url-scheme` repair does: documentationUrl, iconUrl, provider.url,
 * and an extension whose `uri` is none (both generations spell them alike).
 */
export function withPublishedUrlsOnly(card: Record<string, unknown>): Record<string, unknown> {
  let out = withoutUnsafe(card, ["documentationUrl", "iconUrl"], WEB_SCHEMES);
  if (isObject(out.provider)) {
    const provider = withoutUnsafe(out.provider, ["url"], WEB_SCHEMES);
    if (provider !== out.provider) out = { ...out, provider };
  }
  const capabilities = out.capabilities;
  if (isObject(capabilities) && Array.isArray(capabilities.extensions)) {
    const extensions = capabilities.extensions.filter((e: unknown) => isObject(e) && hasPublishedScheme(e.uri, IDENTIFIER_SCHEMES));
    if (extensions.length !== capabilities.extensions.length) out = { ...out, capabilities: { ...capabilities, extensions } };
  }
  return out;
}
