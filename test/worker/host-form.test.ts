// One form of a host for every decision (RFC 3986 §3.2.2: hosts are
// case-insensitive; a trailing dot names the same host): a request to
// `agents.example.com.`, or a trusted forwarded host in another case, is
// agents.example.com: its card, its URLs, its allowlist entry. (Raw Host headers in upper case are in test/node/edge-sockets.test.ts:
// a Request URL here is already lower-cased.)
import { describe, expect, it } from "vitest";
import { CARD, call, makeEnv } from "../support/worker";

const ALLOWED = { HOST_ALLOWLIST: "agents.example.com" };

async function cardUrl(
  url: string,
  headers: Record<string, string>,
  overrides: Record<string, string>,
): Promise<{ status: number; url?: string }> {
  const response = await call(url, { headers }, makeEnv(overrides));
  if (response.status !== 200) return { status: response.status };
  return { status: 200, url: ((await response.json()) as { url: string }).url };
}

describe("one form of a host", () => {
  it("serves a request to agents.example.com. as agents.example.com, allowlist included", async () => {
    expect(await cardUrl(`https://agents.example.com.${CARD}`, {}, ALLOWED)).toEqual({ status: 200, url: "https://agents.example.com/" });
    // Control: another host is still refused.
    expect(await cardUrl(`https://other.example.com.${CARD}`, {}, ALLOWED)).toEqual({ status: 404 });
  });

  it.each(["AGENTS.EXAMPLE.COM", "Agents.Example.Com:443", "agents.example.com.", "Agents.Example.Com.:443"])(
    "takes the trusted forwarded host %s as agents.example.com",
    async (forwarded) => {
      const trusted = { ...ALLOWED, TRUST_FORWARDED_HEADERS: "true" };
      expect(await cardUrl(`https://10.0.0.5${CARD}`, { "X-Forwarded-Host": forwarded, "X-Forwarded-Proto": "https" }, trusted)).toEqual({
        status: 200,
        url: "https://agents.example.com/",
      });
    },
  );
});
