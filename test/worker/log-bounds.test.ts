// Every log line is bounded whatever the caller sent: a field the caller chose (a method, a version, a
// host, a document's issues) is cut where the line is built (src/log.ts) and says so, `…(+N chars)`,
// so a 200 KB JSON-RPC method name is a short `access` line that still names the call.
import { describe, expect, it } from "vitest";
import { cutText, LOG_NAME_CHARS, LOG_TEXT_CHARS, log } from "../../src/log";
import { captureConsole, type LogEvent } from "../support/console";
import { callVia, documentsKv, fakeOrigin, makeEnv } from "../support/worker";

/** No line may be longer, in UTF-8 bytes: each field has its bound, and a line has a few fields. */
const MAX_LINE_BYTES = 4096;
const CUT = /…\(\+(\d+) chars\)$/;
const HUGE = 200_000;

const PUBLIC = "https://agents.example.com";
const env = (overrides: Record<string, unknown> = {}) =>
  makeEnv({ ORIGIN_URL: "http://10.1.2.3:8080/rpc", EDGE_AUTH: "off", ACCESS_LOG: "all", REST_PATH: "/rest", ...overrides });
const unreachable = () => fakeOrigin(() => Promise.reject(new TypeError("refused")));
const rpc = (method: string, headers: Record<string, string> = {}): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/json", "A2A-Version": "1.0", ...headers },
  body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: {} }),
});

const encoder = new TextEncoder();
function expectBounded(lines: readonly string[]) {
  expect(lines.length).toBeGreaterThan(0);
  for (const line of lines) expect(encoder.encode(line).length, line.slice(0, 120)).toBeLessThan(MAX_LINE_BYTES);
}

/** The field as cut: its first LOG_NAME_CHARS characters of `full`, and how many it lost. */
const cutOf = (full: string, max = LOG_NAME_CHARS) => `${full.slice(0, max)}…(+${full.length - max} chars)`;

describe("log lines of a call with huge caller-chosen names", () => {
  it("cuts a 200 KB JSON-RPC method name in the access record and in origin_failed, marked", async () => {
    const logs = captureConsole();
    const method = "m".repeat(HUGE);
    const response = await callVia(unreachable(), `${PUBLIC}/`, rpc(method, { "user-agent": "u".repeat(HUGE) }), env());
    await response.text();
    expect(response.status).toBe(502);
    expectBounded(logs.lines);
    const [access] = logs.events("access");
    expect(access?.operation).toBe(cutOf(method));
    expect(logs.events("origin_failed").map((e) => e.method)).toEqual([cutOf(method)]);
    expect(JSON.stringify(logs.lines)).not.toContain("u".repeat(LOG_NAME_CHARS));
  });

  it("cuts a huge A2A-Version (header or query parameter) to what the edge reads of it, marked", async () => {
    const logs = captureConsole();
    const version = "9".repeat(HUGE);
    for (const [url, headers] of [
      [`${PUBLIC}/`, { "A2A-Version": version }],
      [`${PUBLIC}/?A2A-Version=${"8".repeat(HUGE)}`, {}],
    ] as const) {
      const init = rpc("m".repeat(HUGE), {});
      const response = await callVia(unreachable(), url, { ...init, headers: { "content-type": "application/json", ...headers } }, env());
      expect(((await response.json()) as { error: { code: number } }).error.code).toBe(-32009);
    }
    expectBounded(logs.lines);
    const versions = logs.events("access").map((e) => e.version as string);
    expect(versions).toHaveLength(2);
    for (const v of versions) expect(v).toMatch(/^(9{16}|8{16})…\(\+\d+ chars\)$/);
    for (const e of logs.events("access")) expect(e.operation).toMatch(CUT);
  });

  it("keeps a REST call with a huge path and query, and a huge host, to a short line", async () => {
    const logs = captureConsole();
    const path = `/rest/v1/tasks/${"t".repeat(HUGE)}:cancel?q=${"q".repeat(HUGE)}`;
    await (await callVia(unreachable(), `${PUBLIC}${path}`, { method: "POST", headers: { "A2A-Version": "1.0" } }, env())).text();
    const host = `${"h".repeat(60)}.`.repeat(1000);
    await (await callVia(unreachable(), `https://${host}example.com/`, rpc("SendMessage"), env())).text();
    expectBounded(logs.lines);
    const agents = logs.events("access").map((e) => e.agent as string);
    expect(agents.at(-1)).toMatch(CUT);
  });

  it("cuts a document's issues and repairs to their own bound, marked", async () => {
    const logs = captureConsole();
    const junk = Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`unknownMember${i}`, i]));
    const kv = documentsKv({ "agents.example.com": { name: "A", url: "https://x.example/", ...junk } });
    await (await callVia(unreachable(), `${PUBLIC}/.well-known/agent-card.json`, {}, env({ SKILLS: kv }))).text();
    const bad = documentsKv({ "agents.example.com": { ...junk } });
    await (await callVia(unreachable(), `${PUBLIC}/.well-known/agent-card.json`, {}, env({ SKILLS: bad }))).text();
    expectBounded(logs.lines);
    const repaired = logs.events("card_repaired")[0] as LogEvent;
    expect(repaired.list).toMatch(CUT);
    expect((repaired.list as string).length).toBeLessThanOrEqual(LOG_TEXT_CHARS + 20);
    expect(logs.events("kv_document_invalid")[0]?.issues).toMatch(CUT);
  });
});

describe("log()", () => {
  it("cuts every string field to LOG_NAME_CHARS, the text fields (issues, list, message) to LOG_TEXT_CHARS, and marks each", () => {
    const logs = captureConsole();
    const big = "x".repeat(HUGE);
    log("error", "unhandled_error", { error: big, message: big, caller: `apiKey:${big}`, count: 7, ok: true, none: null });
    const [line] = logs.events("unhandled_error");
    expect(line).toMatchObject({ level: "error", event: "unhandled_error", count: 7, ok: true, none: null });
    expect(line?.error).toBe(cutOf(big));
    expect(line?.message).toBe(cutOf(big, LOG_TEXT_CHARS));
    expect(line?.caller).toBe(cutOf(`apiKey:${big}`));
    expectBounded(logs.lines);
  });

  it("logs a list or an object as its JSON text, cut the same", () => {
    const logs = captureConsole();
    const big = "y".repeat(HUGE);
    log("warn", "nested", { list: Array.from({ length: 1000 }, () => big.slice(0, 1000)), deep: { [big]: { a: big } } });
    expectBounded(logs.lines);
    const { list, deep } = logs.events("nested")[0] as LogEvent & { list: string; deep: string };
    expect(list).toMatch(/^\["yyy/);
    expect(list).toMatch(CUT);
    expect(list.length).toBeLessThanOrEqual(LOG_TEXT_CHARS + 20);
    expect(deep).toMatch(/^\{"yyy/);
    expect(deep.length).toBeLessThanOrEqual(LOG_NAME_CHARS + 20);
  });

  it("leaves a value within its bound as it is, and never cuts inside a surrogate pair", () => {
    expect(cutText("a".repeat(LOG_NAME_CHARS))).toBe("a".repeat(LOG_NAME_CHARS));
    const emoji = `${"a".repeat(LOG_NAME_CHARS - 1)}😀😀`;
    expect(cutText(emoji)).toBe(`${"a".repeat(LOG_NAME_CHARS - 1)}…(+4 chars)`);
  });
});
