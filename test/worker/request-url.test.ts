import { describe, expect, it } from "vitest";
import { requestTarget, searchParam } from "../../src/http/request-target";

describe("requestTarget", () => {
  it.each([
    "https://agents.example.com/.well-known/agent-card.json",
    "http://127.0.0.1:8787/.well-known/agent.json?A2A-Version=1.0",
    "https://agents.example.com",
    "https://agents.example.com/?x=1",
    "http://[::1]:8787/a/b?c=d&e",
    "http://[2001:db8::1]/x",
    "https://xn--bcher-kva.example/%7Euser/a%20b?q=%C3%A9",
    "https://agents.example.com:8443/a?b?c",
  ])("matches new URL() for %s (as normalized by the runtime)", (raw) => {
    const url = new URL(raw);
    const target = requestTarget(url.href);
    expect(target).toEqual({
      protocol: url.protocol,
      host: url.host,
      hostname: url.hostname,
      origin: url.origin,
      pathname: url.pathname,
      search: url.search,
    });
  });

  it("reads a query parameter only when there is a query", () => {
    expect(searchParam(requestTarget("https://a.example/x?A2A-Version=0.3"), "A2A-Version")).toBe("0.3");
    expect(searchParam(requestTarget("https://a.example/x"), "A2A-Version")).toBeNull();
  });
});
