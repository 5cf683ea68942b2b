// Which IP literals a push webhook may name. A2A 1.0's push-notification security considerations ask agents
// to refuse webhook URLs that reach private, loopback and link-local addresses: behind this edge the agent
// sits in the operator's private network, so such a URL would make it call its own neighbours.
// The input is a host as the WHATWG URL parser serializes it: IPv4 already in dotted decimal (it reads
// decimal, octal, hex and short forms: `0x7f.1`, `2130706433`, `0177.0.0.1` are all `127.0.0.1`), IPv6
// in brackets, compressed, lower-case hex, without a zone (a `%25eth0` zone is no valid URL host).
// Ranges: the IANA IPv4 and IPv6 Special-Purpose Address Registries (RFC 6890 and its updates).

/** IPv4 blocks a webhook may not name: [first address, prefix length, what it is]. */
const IPV4_REFUSED: readonly (readonly [string, number, string])[] = [
  ["0.0.0.0", 8, "unspecified/this network (0.0.0.0/8)"],
  ["10.0.0.0", 8, "private (10.0.0.0/8)"],
  ["100.64.0.0", 10, "carrier-grade NAT (100.64.0.0/10)"],
  ["127.0.0.0", 8, "loopback (127.0.0.0/8)"],
  ["169.254.0.0", 16, "link-local (169.254.0.0/16)"],
  ["172.16.0.0", 12, "private (172.16.0.0/12)"],
  ["192.0.0.0", 24, "IETF protocol assignments (192.0.0.0/24)"],
  ["192.0.2.0", 24, "documentation (192.0.2.0/24)"],
  ["192.88.99.0", 24, "6to4 relay (192.88.99.0/24)"],
  ["192.168.0.0", 16, "private (192.168.0.0/16)"],
  ["198.18.0.0", 15, "benchmarking (198.18.0.0/15)"],
  ["198.51.100.0", 24, "documentation (198.51.100.0/24)"],
  ["203.0.113.0", 24, "documentation (203.0.113.0/24)"],
  ["224.0.0.0", 4, "multicast (224.0.0.0/4)"],
  ["240.0.0.0", 4, "reserved and broadcast (240.0.0.0/4)"],
];

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** A dotted-decimal IPv4 address as a 32-bit number; undefined for anything else. */
function ipv4Number(host: string): number | undefined {
  const parts = IPV4.exec(host);
  if (!parts) return undefined;
  const octets = parts.slice(1).map(Number);
  if (octets.some((octet) => octet > 255)) return undefined;
  return octets.reduce((sum, octet) => sum * 256 + octet, 0);
}

const IPV4_BLOCKS = IPV4_REFUSED.map(([first, bits, what]) => {
  const size = 2 ** (32 - bits);
  return { first: ipv4Number(first) ?? 0, size, what };
});

/** Whether `host` is an IPv4 literal (dotted decimal, as the URL parser leaves every IPv4 notation). */
export const isIpv4 = (host: string) => ipv4Number(host) !== undefined;

/** Why this IPv4 address may not be a webhook's host, or undefined for a public one. */
export function ipv4Refusal(host: string): string | undefined {
  const address = ipv4Number(host);
  if (address === undefined) return "not an IPv4 address";
  return IPV4_BLOCKS.find((block) => address >= block.first && address < block.first + block.size)?.what;
}

/** `2001:db8::1` (no brackets) as its eight 16-bit groups; undefined when it is not IPv6 in URL form. */
function ipv6Groups(host: string): number[] | undefined {
  if (!/^[0-9a-f:]+$/.test(host)) return undefined;
  const halves = host.split("::");
  if (halves.length > 2) return undefined;
  const groupsOf = (text: string | undefined) => (text ? text.split(":").map((group) => Number.parseInt(group, 16)) : []);
  const head = groupsOf(halves[0]);
  const tail = groupsOf(halves[1]);
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const groups = [...head, ...Array<number>(halves.length === 1 ? 0 : missing).fill(0), ...tail];
  return groups.every((group) => Number.isInteger(group) && group >= 0 && group <= 0xffff) ? groups : undefined;
}

/**
 * Blocks inside global unicast (2000::/3) that are still not the open internet: [groups to match, prefix
 * length, what]. Everything outside 2000::/3 is refused as a whole (loopback ::1, unspecified ::,
 * IPv4-mapped ::ffff:0:0/96 and -compatible ::/96, NAT64 64:ff9b::/96, discard 100::/64, unique-local
 * fc00::/7, link-local fe80::/10, site-local fec0::/10, multicast ff00::/8).
 */
const IPV6_REFUSED_GLOBAL: readonly (readonly [readonly number[], number, string])[] = [
  [[0x2001, 0x0000], 32, "Teredo (2001::/32, carries an IPv4 address)"],
  [[0x2001, 0x0010], 28, "ORCHID (2001:10::/28)"],
  [[0x2001, 0x0020], 28, "ORCHIDv2 (2001:20::/28)"],
  [[0x2001, 0x0db8], 32, "documentation (2001:db8::/32)"],
  [[0x2002], 16, "6to4 (2002::/16, carries an IPv4 address)"],
  [[0x3fff, 0x0000], 20, "documentation (3fff::/20)"],
];

/** Whether the first `bits` bits of `groups` equal those of `prefix`. */
function inPrefix(groups: readonly number[], prefix: readonly number[], bits: number): boolean {
  for (let i = 0; i * 16 < bits; i++) {
    const take = Math.min(16, bits - i * 16);
    const mask = (0xffff << (16 - take)) & 0xffff;
    if (((groups[i] ?? 0) & mask) !== ((prefix[i] ?? 0) & mask)) return false;
  }
  return true;
}

/** What an address outside global unicast is, for the refusal's detail. */
function nonGlobalKind(groups: readonly number[]): string {
  const first = groups[0] ?? 0;
  const zeroHead = groups.slice(0, 5).every((group) => group === 0);
  if (groups.every((group) => group === 0)) return "unspecified (::)";
  if (zeroHead && groups[5] === 0 && groups[6] === 0 && groups[7] === 1) return "loopback (::1)";
  if (zeroHead && groups[5] === 0xffff) return "IPv4-mapped (::ffff:0:0/96)";
  if (zeroHead && groups[5] === 0) return "IPv4-compatible (::/96)";
  if ((first & 0xfe00) === 0xfc00) return "unique-local (fc00::/7)";
  if ((first & 0xffc0) === 0xfe80) return "link-local (fe80::/10)";
  if ((first & 0xff00) === 0xff00) return "multicast (ff00::/8)";
  return "not global unicast (outside 2000::/3)";
}

/** Why this IPv6 address (URL form, no brackets) may not be a webhook's host, or undefined for a public one. */
export function ipv6Refusal(host: string): string | undefined {
  const groups = ipv6Groups(host);
  if (!groups) return "not an IPv6 address";
  if (((groups[0] ?? 0) & 0xe000) !== 0x2000) return nonGlobalKind(groups);
  return IPV6_REFUSED_GLOBAL.find(([prefix, bits]) => inPrefix(groups, prefix, bits))?.[2];
}

/** Whether an IP literal is a loopback address (127.0.0.0/8, ::1): the development exception's hosts. */
export function isLoopbackIp(host: string): boolean {
  const v4 = ipv4Number(host);
  if (v4 !== undefined) return v4 >>> 24 === 127;
  return host === "[::1]";
}
