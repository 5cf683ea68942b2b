// The push webhook URL guard (src/push/), run inside workerd: the URL parser that reads the URLs here is
// the one the deployed worker uses. Each row names the rule its URL breaks (or that it passes).
import { describe, expect, it } from "vitest";
import { parseConfig } from "../../src/config";
import { ipv4Refusal, ipv6Refusal } from "../../src/push/ip-ranges";
import { pushConfigRefusal as refusalOf, serializedUrls } from "../../src/push/push-configs";
import { matchesHostPattern, type PushUrlRules, pushUrlRefusal } from "../../src/push/url-guard";

const RULES: PushUrlRules = {
  allowHttpLoopback: false,
  allowlist: undefined,
  ownHosts: new Set(["agents.example.com", "agent-origin.example.net", "93.184.216.99", "[2606:4700::99]"]),
  ownLoopbackPorts: new Set(),
  maxBytes: 2048,
};
const DEV: PushUrlRules = { ...RULES, allowHttpLoopback: true };

/** The refused field and why, as the refusal's detail says it. */
function pushConfigRefusal(...args: Parameters<typeof refusalOf>): string | undefined {
  const refused = refusalOf(...args);
  return refused && `${refused.path} ${refused.message}`;
}

/** [url, a word the refusal contains] */
const REFUSED: readonly (readonly [string, string])[] = [
  // scheme
  ["http://hooks.example.com/a", "https:"],
  ["ftp://hooks.example.com/a", "https:"],
  ["file:///etc/passwd", "https:"],
  ["javascript:alert(1)", "https:"],
  ["gopher://hooks.example.com:6379/_", "https:"],
  ["not a url", "absolute URL"],
  ["/relative/path", "absolute URL"],
  // userinfo
  ["https://user:pass@hooks.example.com/", "userinfo"],
  ["https://user@hooks.example.com/", "userinfo"],
  ["https://hooks.example.com@10.0.0.5/", "userinfo"],
  // IPv4 literals in every notation the URL parser reads
  ["https://10.0.0.5/admin", "private (10.0.0.0/8)"],
  ["https://172.16.0.1/", "private (172.16.0.0/12)"],
  ["https://172.31.255.255/", "private (172.16.0.0/12)"],
  ["https://192.168.1.1/", "private (192.168.0.0/16)"],
  ["https://169.254.169.254/latest/meta-data/", "link-local"],
  ["https://100.64.0.1/", "carrier-grade NAT"],
  ["https://100.127.255.254/", "carrier-grade NAT"],
  ["https://127.0.0.1/", "loopback"],
  ["https://127.1/", "loopback"],
  ["https://2130706433/", "loopback"],
  ["https://0x7f000001/", "loopback"],
  ["https://0x7f.0.0.1/", "loopback"],
  ["https://0177.0.0.1/", "loopback"],
  ["https://017700000001/", "loopback"],
  ["https://127.0.0.1./", "loopback"],
  ["https://%31%32%37.0.0.1/", "percent-encode its host"],
  ["https://0/", "unspecified"],
  ["https://0.0.0.0/", "unspecified"],
  ["https://10.1/", "private (10.0.0.0/8)"],
  ["https://167772165/", "private (10.0.0.0/8)"],
  ["https://0xa9.0xfe.0xa9.0xfe/", "link-local"],
  ["https://224.0.0.1/", "multicast"],
  ["https://239.255.255.250/", "multicast"],
  ["https://255.255.255.255/", "broadcast"],
  ["https://192.0.2.1/", "documentation"],
  ["https://198.18.0.1/", "benchmarking"],
  // IPv6 literals
  ["https://[::1]/", "loopback (::1)"],
  ["https://[0:0:0:0:0:0:0:1]/", "loopback (::1)"],
  ["https://[::]/", "unspecified"],
  ["https://[::ffff:127.0.0.1]/", "IPv4-mapped"],
  ["https://[::ffff:a00:5]/", "IPv4-mapped"],
  ["https://[::ffff:169.254.169.254]/", "IPv4-mapped"],
  ["https://[::10.0.0.5]/", "IPv4-compatible"],
  ["https://[::8.8.8.8]/", "IPv4-compatible"],
  ["https://[fc00::1]/", "unique-local"],
  ["https://[fd12:3456:789a::1]/", "unique-local"],
  ["https://[fe80::1]/", "link-local"],
  ["https://[FE80::1]/", "link-local"],
  ["https://[fec0::1]/", "not global unicast"],
  ["https://[ff02::1]/", "multicast"],
  ["https://[64:ff9b::a00:5]/", "not global unicast"],
  ["https://[100::1]/", "not global unicast"],
  ["https://[2001:db8::1]/", "documentation"],
  ["https://[2002:a00:5::1]/", "6to4"],
  ["https://[2001:0:4136:e378::1]/", "Teredo"],
  // an IPv6 zone is no valid URL host
  ["https://[fe80::1%25eth0]/", "absolute URL"],
  ["https://[fe80::1%eth0]/", "absolute URL"],
  // names that resolve only inside a network
  ["https://localhost/", "localhost"],
  ["https://LOCALHOST./", "localhost"],
  ["https://api.localhost/", "localhost"],
  ["https://%6c%6fcalhost/", "percent-encode its host"],
  ["https://ｌｏｃａｌｈｏｓｔ/", "localhost"],
  ["https://printer.local/", ".local"],
  ["https://metadata.google.internal/computeMetadata/v1/", ".internal"],
  ["https://router.lan/", ".lan"],
  ["https://nas.home.arpa/", ".home.arpa"],
  ["https://10.0.0.5.nip.io/", ".nip.io"],
  ["https://redis/", "single-label"],
  ["https://metadata./", "single-label"],
  // this edge's and the origin's own hosts
  ["https://agents.example.com/rpc", "own host"],
  ["https://AGENTS.example.com./", "own host"],
  ["https://agent-origin.example.net:8443/", "own host"],
  ["https://93.184.216.99/hook", "own host"],
  ["https://1572395107/hook", "own host"],
  ["https://[2606:4700:0::99]/", "own host"],
  // size
  [`https://hooks.example.com/${"a".repeat(2048)}`, "PUSH_FIELD_MAX_BYTES"],
  // what URL readers read differently: WHATWG sees hooks.example.com, curl connects to the address after `\@`
  ["https://hooks.example.com\\@169.254.169.254/latest/meta-data/", "backslash"],
  ["https://hooks.example.com\\.10.0.0.5.nip.io/", "backslash"],
  // WHATWG drops a tab or a line break anywhere in a URL; other readers keep it, or end the URL there
  ["https://hooks.exa\tmple.com/", "whitespace"],
  ["https://hooks.example.com/a\r\nHost: 10.0.0.5", "whitespace"],
  [" https://hooks.example.com/", "whitespace"],
  ["https://hooks.example.com/\u00a0", "whitespace"],
  ["https://hooks.example.com/\u0085", "control character"],
  ["https://hooks.example.com/\ud800", "control character"],
  // a `%` in the host (WHATWG decodes it, curl and Go do not) and forms that only some readers complete
  ["https://hooks%2eexample.com/", "percent-encode its host"],
  ["https:hooks.example.com/", "scheme://host"],
  ["https:///hooks.example.com/", "scheme://host"],
];

const ALLOWED = [
  "https://hooks.example.com/a2a?task=1",
  "https://93.184.216.34/hook",
  "https://8.8.8.8/",
  "https://[2606:4700::1111]/",
  "https://hooks.example.com:8443/",
  "https://sub.agents.example.com/",
  "https://xn--bcher-kva.example/",
];

describe("pushUrlRefusal", () => {
  // Labels in printable ASCII: a test name travels to the runner as UTF-8 (an unpaired surrogate cannot).
  const printable = (url: string) => url.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  const rows = REFUSED.map(([url, word]) => [
    url.length > 80 ? `${url.slice(0, 40)}... (${url.length} characters)` : printable(url),
    url,
    word,
  ]);
  it.each(rows)("refuses %s", (_label, url, word) => {
    const why = pushUrlRefusal(url, RULES);
    expect(why, url).toBeDefined();
    expect(why).toContain(word);
  });

  it.each(ALLOWED.filter((url) => !url.includes("xn--")))("admits %s", (url) => {
    expect(pushUrlRefusal(url, RULES)).toBeUndefined();
  });

  it("refuses a .example name (RFC 6761) even in punycode", () => {
    expect(pushUrlRefusal("https://xn--bcher-kva.example/", RULES)).toContain(".example");
  });

  it("refuses a url that is not a string", () => {
    for (const value of [42, null, {}, ["https://hooks.example.com/"]]) expect(pushUrlRefusal(value, RULES)).toContain("string");
  });

  it("the development exception admits loopback, over http: or https:, and nothing else", () => {
    for (const url of [
      "http://127.0.0.1:9999/hook",
      "http://localhost:9999/",
      "http://[::1]:9999/",
      "https://127.0.0.1/",
      "http://127.1/",
    ]) {
      expect(pushUrlRefusal(url, DEV), url).toBeUndefined();
      expect(pushUrlRefusal(url, RULES), url).toBeDefined();
    }
    for (const url of ["http://hooks.example.com/", "http://10.0.0.5/", "https://10.0.0.5/", "https://[::ffff:127.0.0.1]/", "http://0/"]) {
      expect(pushUrlRefusal(url, DEV), url).toBeDefined();
    }
  });

  it("under the development exception, the edge's and its origins' own loopback ports are refused in every loopback spelling, other ports admitted", () => {
    // The edge answers on localhost:8787 (HOST_ALLOWLIST=localhost, as .dev.vars.example), its origin on 127.0.0.1:9999.
    const rules = { ...DEV, ownHosts: new Set(["localhost", "127.0.0.1"]), ownLoopbackPorts: new Set(["8787", "9999", "80"]) };
    for (const url of [
      "http://localhost:8888/webhook",
      "http://127.0.0.1:8888/",
      "http://[::1]:8888/",
      "http://app.localhost:3000/",
      "https://localhost/",
    ]) {
      expect(pushUrlRefusal(url, rules), url).toBeUndefined();
    }
    for (const url of [
      "http://localhost:8787/",
      "http://127.0.0.1:8787/",
      "http://[::1]:9999/",
      "http://127.1:9999/",
      "http://LOCALHOST./",
      "http://2130706433:9999/",
    ]) {
      expect(pushUrlRefusal(url, rules), url).toContain("own host");
    }
    // Without the switch a loopback webhook stays refused whatever its port.
    expect(pushUrlRefusal("http://localhost:8888/webhook", { ...rules, allowHttpLoopback: false })).toBeDefined();
  });

  it("PUSH_URL_ALLOWLIST admits only the hosts it names, and never reopens a refused host", () => {
    const rules = { ...RULES, allowlist: ["hooks.example.com", "*.partner.example.org"] };
    expect(pushUrlRefusal("https://hooks.example.com/a", rules)).toBeUndefined();
    expect(pushUrlRefusal("https://a.partner.example.org/", rules)).toBeUndefined();
    expect(pushUrlRefusal("https://partner.example.org/", rules)).toContain("PUSH_URL_ALLOWLIST");
    expect(pushUrlRefusal("https://evilpartner.example.org/", rules)).toContain("PUSH_URL_ALLOWLIST");
    expect(pushUrlRefusal("https://other.example.com/", rules)).toContain("PUSH_URL_ALLOWLIST");
    expect(pushUrlRefusal("https://10.0.0.5/", { ...rules, allowlist: ["10.0.0.5"] })).toContain("private");
    expect(matchesHostPattern("a.b.example.org", "*.example.org")).toBe(true);
  });
});

describe("ip ranges", () => {
  it("public addresses pass, the edges of each block do not", () => {
    expect(ipv4Refusal("9.255.255.255")).toBeUndefined();
    expect(ipv4Refusal("11.0.0.0")).toBeUndefined();
    expect(ipv4Refusal("172.15.255.255")).toBeUndefined();
    expect(ipv4Refusal("172.32.0.0")).toBeUndefined();
    expect(ipv4Refusal("100.63.255.255")).toBeUndefined();
    expect(ipv4Refusal("100.128.0.0")).toBeUndefined();
    expect(ipv4Refusal("223.255.255.255")).toBeUndefined();
    expect(ipv4Refusal("10.0.0.0")).toContain("private");
    expect(ipv4Refusal("10.255.255.255")).toContain("private");
    expect(ipv6Refusal("2001:4860:4860::8888")).toBeUndefined();
    expect(ipv6Refusal("2001:db7:ffff::1")).toBeUndefined();
    expect(ipv6Refusal("2001:db9::1")).toBeUndefined();
    expect(ipv6Refusal("1fff:ffff::1")).toContain("not global unicast");
    expect(ipv6Refusal("4000::1")).toContain("not global unicast");
  });
});

describe("pushConfigRefusal: every place a config sits, every field", () => {
  const bad = { url: "https://10.0.0.5/" };
  it.each([
    ["1.0 CreateTaskPushNotificationConfig (flat)", "createPushNotificationConfig", { taskId: "t1", ...bad }, "params.url"],
    [
      "0.3 tasks/pushNotificationConfig/set",
      "createPushNotificationConfig",
      { taskId: "t1", pushNotificationConfig: bad },
      "params.pushNotificationConfig.url",
    ],
    ["a `config` member", "createPushNotificationConfig", { taskId: "t1", config: bad }, "params.config.url"],
    [
      "1.0 SendMessage inline",
      "sendMessage",
      { message: {}, configuration: { taskPushNotificationConfig: bad } },
      "taskPushNotificationConfig.url",
    ],
    [
      "0.3 message/send inline",
      "sendMessage",
      { message: {}, configuration: { pushNotificationConfig: bad } },
      "configuration.pushNotificationConfig.url",
    ],
    [
      "streaming inline",
      "sendStreamingMessage",
      { message: {}, configuration: { pushNotificationConfig: bad } },
      "pushNotificationConfig.url",
    ],
  ] as const)("%s", (_name, operation, params, path) => {
    expect(pushConfigRefusal(operation, params, RULES)).toContain(path);
    expect(pushConfigRefusal("getTask", params, RULES)).toBeUndefined();
  });

  it("token and credentials: no CR, LF or control characters, within the size bound", () => {
    const ok = "https://hooks.example.com/";
    const check = (config: unknown) =>
      pushConfigRefusal("createPushNotificationConfig", { taskId: "t1", pushNotificationConfig: config }, RULES);
    expect(check({ url: ok, token: "abc", authentication: { schemes: ["Bearer"], credentials: "xyz" } })).toBeUndefined();
    expect(check({ url: ok, token: "a\r\nX-Evil: 1" })).toContain("token must not contain CR, LF");
    expect(check({ url: ok, token: "a\u0000b" })).toContain("control characters");
    // C1 too: NEL (U+0085) is a line break to some HTTP stacks.
    for (const c1 of ["\u0085", "\u0080", "\u009f", "\u007f"])
      expect(check({ url: ok, token: `a${c1}b` }), JSON.stringify(c1)).toContain("control characters");
    expect(check({ url: ok, token: "a\u00a0b" })).toBeUndefined();
    expect(check({ url: ok, token: "t".repeat(2049) })).toContain("token is longer than 2048 bytes");
    expect(check({ url: ok, token: 5 })).toContain("token must be a string");
    // Bytes, not characters: 1,025 two-byte characters are 2,050 bytes.
    expect(check({ url: ok, token: "é".repeat(1025) })).toContain("token is longer than 2048 bytes");
    expect(check({ url: ok, token: "é".repeat(1024) })).toBeUndefined();
    expect(check({ url: ok, authentication: { credentials: "a\nb" } })).toContain("authentication.credentials");
    expect(check({ url: ok, authentication: { scheme: "Bearer\r\n" } })).toContain("authentication.scheme");
    expect(check({ url: ok, authentication: { schemes: ["Basic\n"] } })).toContain("authentication.schemes[]");
    expect(check({ url: ok, authentication: "Bearer x" })).toContain("authentication must be an object");
    expect(check([{ url: ok }])).toContain("not a list");
    expect(check("https://hooks.example.com/")).toContain("must be an object");
  });

  it("one config per call: two places holding a config are refused", () => {
    const ok = { url: "https://hooks.example.com/" };
    const both = { message: {}, configuration: { pushNotificationConfig: ok, taskPushNotificationConfig: ok } };
    expect(pushConfigRefusal("sendMessage", both, RULES)).toContain("more than one push config");
    expect(pushConfigRefusal("createPushNotificationConfig", { taskId: "t", ...ok, pushNotificationConfig: ok }, RULES)).toContain(
      "more than one",
    );
    expect(pushConfigRefusal("sendMessage", { message: {}, configuration: { pushNotificationConfig: ok } }, RULES)).toBeUndefined();
  });
});

describe("serializedUrls: the origin gets a webhook URL as the guard read it", () => {
  it("scheme and host in lower case, the default port dropped, an IPv4 in dotted decimal; untouched when already so", () => {
    const config = { url: "HTTPS://Hooks.Example.COM:443/a2a?x=1" };
    expect(serializedUrls("createPushNotificationConfig", { taskId: "t", ...config })).toEqual({
      taskId: "t",
      url: "https://hooks.example.com/a2a?x=1",
    });
    expect(
      serializedUrls("sendMessage", { message: {}, configuration: { taskPushNotificationConfig: { url: "https://0x8.0x8.0x8.8./" } } }),
    ).toEqual({
      message: {},
      configuration: { taskPushNotificationConfig: { url: "https://8.8.8.8/" } },
    });
    expect(
      serializedUrls("sendMessage", { message: {}, configuration: { pushNotificationConfig: { url: "https://hooks.example.com/" } } }),
    ).toBeUndefined();
  });
});

describe("push configuration variables", () => {
  it("parse, with their defaults", () => {
    const parsed = parseConfig({ PUSH_URL_ALLOWLIST: "Hooks.Example.com, *.partner.example.org", PUSH_ALLOW_HTTP_LOOPBACK: "true" });
    expect(parsed.ok && parsed.value.pushUrlAllowlist).toEqual(["hooks.example.com", "*.partner.example.org"]);
    expect(parsed.ok && parsed.value.pushAllowHttpLoopback).toBe(true);
    const defaults = parseConfig({});
    expect(
      defaults.ok && [defaults.value.pushUrlAllowlist, defaults.value.pushAllowHttpLoopback, defaults.value.pushFieldMaxBytes],
    ).toEqual([undefined, false, 2048]);
    const bad = parseConfig({ PUSH_URL_ALLOWLIST: "https://hooks.example.com/" });
    expect(bad.ok ? [] : bad.issues.map((issue) => issue.path)).toEqual(["PUSH_URL_ALLOWLIST"]);
  });
});
