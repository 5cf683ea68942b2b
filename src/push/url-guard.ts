// The rules a push webhook URL meets before the private origin sees it (docs/push-notifications.md).
// Pure: no I/O, no DNS. The edge is the one place every config passes before the private network does,
// so each rule refuses what a machine inside that network would otherwise call for a caller:
// - `https:` only: a plain `http:` notification carries the task and the client's token in the clear
//   (A2A 1.0 push-notification security considerations); `http:` to loopback only as the operator's
//   development exception (PUSH_ALLOW_HTTP_LOOPBACK);
// - one reading: no backslash, whitespace or control character anywhere, no percent-escape in the
//   authority, `scheme://` written out: WHATWG URL and curl read `https://a.example\@10.0.0.5/` as two
//   different hosts, WHATWG drops tabs and line breaks that other readers keep, and decodes `%` escapes
//   in a host that others do not; the origin then gets the URL as the guard serialized it
//   (push-configs.ts serializedUrls);
// - no userinfo: `https://user:pass@host` hides the real host from a careless reader and sends
//   credentials the config does not declare (A2A keeps them in `authentication`);
// - no IP literal outside the public internet, in any notation (ip-ranges.ts);
// - no name that only resolves inside a network: `localhost`, single labels, `.local`, `.internal`, ...;
// - no host this worker serves and no origin host: no loops through the edge, no calls from the origin
//   to itself by its public name;
// - PUSH_URL_ALLOWLIST, when set, names the only hosts allowed (after every other rule: an allowlist never
//   reopens a private address).
// A hostname that resolves to a private address passes these rules: the answer of a look-up made here could
// change before the origin calls (DNS rebinding), so the relay (or the origin's own check) is the answer.
import { ipv4Refusal, ipv6Refusal, isIpv4, isLoopbackIp } from "./ip-ranges";

export interface PushUrlRules {
  /** PUSH_ALLOW_HTTP_LOOPBACK: `http:` (and loopback hosts) allowed for loopback, for local development. */
  allowHttpLoopback: boolean;
  /** PUSH_URL_ALLOWLIST: `hooks.example.com` (that host) or `*.example.com` (hosts under it); undefined = any public host. */
  allowlist: readonly string[] | undefined;
  /** Hostnames a webhook may not name: those this worker serves and the origins' (normalized: lower case, no trailing dot). */
  ownHosts: ReadonlySet<string>;
  /**
   * The ports this edge and its origins listen on where they are on loopback (the request's own Host, an
   * origin URL naming 127.0.0.1, `localhost` or `[::1]`). Loopback is one machine whatever its spelling, so
   * under PUSH_ALLOW_HTTP_LOOPBACK a loopback webhook is the edge's or an origin's own by its port alone.
   */
  ownLoopbackPorts: ReadonlySet<string>;
  /** The largest URL, in UTF-8 bytes. */
  maxBytes: number;
}

/**
 * Names that resolve only inside a network (or always to loopback): the special-use and
 * private-use names of RFC 6761, RFC 6762 (.local), RFC 8375 (home.arpa), ICANN's .internal, names
 * networks commonly keep for themselves, and public wildcard names that answer with the address they spell.
 */
const LOCAL_SUFFIXES = [
  "localhost",
  "local",
  "internal",
  "intranet",
  "lan",
  "home",
  "corp",
  "private",
  "localdomain",
  "home.arpa",
  "in-addr.arpa",
  "ip6.arpa",
  "test",
  "invalid",
  "example",
  "onion",
  "nip.io",
  "sslip.io",
  "xip.io",
  "localtest.me",
  "lvh.me",
];

/**
 * C0 and C1 controls and DEL: a token or credential the origin sends as a header value must not split or
 * end it (NEL, U+0085, is a line break to some HTTP stacks and to the Unicode line-breaking rules).
 */
export function hasControl(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return true;
  }
  return false;
}

const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Why readers of a URL could disagree on it, or undefined: a backslash, whitespace (any Unicode space) or
 * control character, an unpaired surrogate.
 */
function characterRefusal(value: string): string | undefined {
  if (/[\\\s]/.test(value) || hasControl(value) || UNPAIRED_SURROGATE.test(value))
    return "must not contain a backslash, whitespace or control character (URL readers disagree on them)";
  return undefined;
}

/** Why the authority of a URL the parser read could be read otherwise: no `//` after the scheme, a `%` escape in it. */
function authorityRefusal(value: string): string | undefined {
  const authority = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i.exec(value)?.[1];
  if (!authority) return "must be written scheme://host/... (URL readers disagree on other forms)";
  if (authority.includes("%")) return "must not percent-encode its host (URL readers decode it differently)";
  return undefined;
}

const encoder = new TextEncoder();
/** Whether `text` is at most `max` UTF-8 bytes: a UTF-16 unit is at most 3 bytes, so short text is not encoded. */
export const withinBytes = (text: string, max: number) => text.length * 3 <= max || encoder.encode(text).length <= max;
const withoutTrailingDots = (host: string) => host.replace(/\.+$/, "");
const under = (host: string, suffix: string) => host === suffix || host.endsWith(`.${suffix}`);

/** Whether `host` matches a PUSH_URL_ALLOWLIST pattern: exactly, or `*.suffix` for hosts under suffix. */
export function matchesHostPattern(host: string, pattern: string): boolean {
  return pattern.startsWith("*.") ? host.endsWith(pattern.slice(1)) : host === pattern;
}

/** The port a URL reaches: its own, else its scheme's default (WHATWG URL drops a default port). */
export const portOf = (url: { port: string; protocol: string }) => url.port || (url.protocol === "https:" ? "443" : "80");

const OWN = "the host is this edge's or its origin's own host";

/** Why this URL's host (URL.hostname form) may not be named, or undefined. */
function hostRefusal(url: URL, rules: PushUrlRules): string | undefined {
  const host = url.hostname;
  // The development exception: any loopback spelling, on a port that is neither the edge's nor an origin's.
  if (rules.allowHttpLoopback && isLoopbackUrl(url)) return rules.ownLoopbackPorts.has(portOf(url)) ? OWN : undefined;
  // An origin or edge named by a public IP literal is as much its own host as by name.
  if (rules.ownHosts.has(host)) return OWN;
  if (host.startsWith("[")) {
    const why = ipv6Refusal(host.slice(1, -1));
    return why && `the host is an IPv6 address that is ${why}`;
  }
  if (isIpv4(host)) {
    const why = ipv4Refusal(host);
    return why && `the host is an IPv4 address that is ${why}`;
  }
  const name = withoutTrailingDots(host);
  const local = LOCAL_SUFFIXES.find((suffix) => under(name, suffix));
  if (local) return `the host is under .${local}, a name that resolves only inside a network or to loopback`;
  if (!name.includes(".")) return "the host is a single-label name, resolved only inside a network";
  if (rules.ownHosts.has(name)) return OWN;
  return undefined;
}

/** Whether this URL is the development exception: loopback, and the operator allows it. */
function isLoopbackUrl(url: URL): boolean {
  return isLoopbackIp(url.hostname) || under(withoutTrailingDots(url.hostname), "localhost");
}

/**
 * Why a push config's `url` may not reach the origin, naming the rule; undefined when it may.
 * The WHATWG URL parser reads it (as the origin's HTTP client would): every IPv4 notation becomes
 * dotted decimal, percent-escapes and IDNA in the host are resolved, so the rules see the host that
 * would be called.
 */
export function pushUrlRefusal(value: unknown, rules: PushUrlRules): string | undefined {
  if (typeof value !== "string") return "must be a string";
  if (!withinBytes(value, rules.maxBytes)) return `is longer than ${rules.maxBytes} bytes (PUSH_FIELD_MAX_BYTES)`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "is not an absolute URL";
  }
  const unreadable = characterRefusal(value);
  if (unreadable) return unreadable;
  const loopbackDev = rules.allowHttpLoopback && isLoopbackUrl(url);
  if (url.protocol !== "https:" && !(url.protocol === "http:" && loopbackDev)) {
    return `must use https: (${url.protocol} refused; http: only to loopback with PUSH_ALLOW_HTTP_LOOPBACK)`;
  }
  const authority = authorityRefusal(value);
  if (authority) return authority;
  if (url.username !== "" || url.password !== "") return "must not carry userinfo (user:password@)";
  const host = hostRefusal(url, rules);
  if (host) return `refused: ${host}`;
  const allowlist = rules.allowlist;
  const name = withoutTrailingDots(url.hostname);
  if (allowlist && !loopbackDev && !allowlist.some((pattern) => matchesHostPattern(name, pattern))) {
    return "refused: the host is not in PUSH_URL_ALLOWLIST";
  }
  return undefined;
}
