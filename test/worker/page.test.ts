import { describe, expect, it } from "vitest";
import { CARD, call, documentsKv, makeEnv } from "../support/worker";

/** A fresh Ed25519 CARD_SIGNING_KEY named `kid`. */
async function signingKey(kid: string): Promise<string> {
  const pair = (await crypto.subtle.generateKey({ name: "Ed25519" }, true, ["sign", "verify"])) as CryptoKeyPair;
  const jwk = (await crypto.subtle.exportKey("jwk", pair.privateKey)) as JsonWebKey;
  return JSON.stringify({ kty: jwk.kty, crv: jwk.crv, x: jwk.x, d: jwk.d, kid });
}

const HTML = { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" };

describe("the human view", () => {
  it("serves the card as a page at / and at the card paths for browsers", async () => {
    for (const path of ["/", CARD, "/.well-known/agent.json"]) {
      const response = await call(`https://agents.example.com${path}`, { headers: HTML });
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
      const html = await response.text();
      expect(html.startsWith("<!doctype html>")).toBe(true);
      expect(html).toContain("<h1>Acme Travel Concierge</h1>");
      expect(html).toContain("curl -s &#39;https://agents.example.com/.well-known/agent-card.json&#39; -H &#39;A2A-Version: 1.0&#39;");
      expect(html).not.toContain("<script");
    }
  });

  it("shows skills with tags and examples, interfaces, security and signature status", async () => {
    const html = await (await call("https://agents.example.com/", { headers: HTML })).text();
    for (const text of [
      "Flight search",
      "Politique de voyage (FAQ)",
      "<li>flights</li>",
      "Find a direct flight from SFO to JFK",
      "https://agents.example.com/</code>",
      "HTTP bearer (JWT)",
      "OAuth 2.0 (clientCredentials)",
      "This card is not signed.",
      "Acme Corp",
    ]) {
      expect(html).toContain(text);
    }
  });

  it("sends the page, wherever it is served, with its security headers, and the JSON card without them", async () => {
    for (const path of ["/", CARD, "/.well-known/agent.json"]) {
      const headers = (await call(`https://agents.example.com${path}`, { headers: HTML })).headers;
      expect(headers.get("content-security-policy"), path).toBe(
        "default-src 'none'; style-src 'unsafe-inline'; img-src https: data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
      );
      for (const [name, value] of [
        ["x-content-type-options", "nosniff"],
        ["x-frame-options", "SAMEORIGIN"],
        ["referrer-policy", "no-referrer"],
        ["strict-transport-security", "max-age=15552000; includeSubDomains"],
        ["cross-origin-opener-policy", "same-origin"],
      ]) {
        expect(headers.get(name!), `${path} ${name}`).toBe(value);
      }
    }
    expect((await call(`https://agents.example.com${CARD}`)).headers.get("content-security-policy")).toBeNull();
  });

  it("keeps JSON for API clients at the card path", async () => {
    for (const accept of ["application/json", "*/*", ""]) {
      const response = await call(`https://agents.example.com${CARD}`, { headers: accept ? { accept } : {} });
      expect(response.headers.get("content-type")).toBe("application/json");
    }
  });

  it("escapes document text and forbids scripts with its CSP", async () => {
    const doc = {
      name: "<script>alert(1)</script>",
      description: '"><img src=x onerror=alert(1)>',
      skills: [{ name: "</h3><script>x</script>", tags: ["<b>"] }],
    };
    const kv = documentsKv({ default: doc });
    const response = await call("https://evil.example.com/", { headers: HTML }, makeEnv({ SKILLS: kv }));
    const html = await response.text();
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<img src=x");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(response.headers.get("content-security-policy")).toContain("default-src 'none'");
  });

  /** The page for a card-source document stored for the host. */
  const pageOf = async (doc: unknown) => {
    const kv = documentsKv({ default: doc });
    return (await call("https://agents.example.com/", { headers: HTML }, makeEnv({ SKILLS: kv }))).text();
  };

  it("shows the agent's initials in a badge when the card has no icon, and keeps them for an icon that fails to load", async () => {
    const badge = async (name: string) => (await pageOf({ name })).match(/<header>(.*?)<div>/)?.[1];
    expect(await badge("Acme Travel Concierge")).toBe('<span class="icon" aria-hidden="true">AT</span>');
    expect(await badge("émile  zola-bot")).toBe('<span class="icon" aria-hidden="true">ÉZ</span>');
    // The same name with the accent as a combining mark (NFD): still one letter, not a word break.
    expect(await badge("e\u0301mile  zola-bot")).toBe('<span class="icon" aria-hidden="true">ÉZ</span>');
    expect(await badge("Planner")).toBe('<span class="icon" aria-hidden="true">P</span>');
    expect(await badge("🚀 A2A agent")).toBe('<span class="icon" aria-hidden="true">AA</span>');
    expect(await badge("!!!")).toBe('<span class="icon" aria-hidden="true">!</span>');
    // With an icon, the initials ride on the img: style.ts shows them in place of an image that fails to load.
    const html = await (await call("https://agents.example.com/", { headers: HTML })).text();
    expect(html).toContain(
      '<header><img class="icon" src="https://acme.example.com/static/concierge.png" alt="" data-initials="AT"/><div>',
    );
    expect(html).toContain("img.icon::after{content:attr(data-initials)");
  });

  it("shows a skill's id only when it says more than the skill's name", async () => {
    const html = await pageOf({
      skills: [
        { name: "Flight search" },
        { name: "Hotel search", id: "hotel-search" },
        { name: "Politique de voyage (FAQ)" },
        { name: "Émoji 🚀 planner" },
        { name: "CAR_RENTAL", id: "car_rental" },
        { name: "Search", id: "search_v2" },
        { name: "Alpha skill", id: "alpha" },
        { name: "Bookings", id: "book-ings" },
        { name: "!!!" },
      ],
    });
    expect([...html.matchAll(/<h3>(.*?)<\/h3>/g)].map(([, h3]) => h3)).toEqual([
      '!!! <code class="muted">skill</code>',
      'Alpha skill <code class="muted">alpha</code>',
      'Bookings <code class="muted">book-ings</code>',
      "CAR_RENTAL",
      "Flight search",
      "Hotel search",
      "Politique de voyage (FAQ)",
      'Search <code class="muted">search_v2</code>',
      "Émoji 🚀 planner",
    ]);
  });

  it("quotes the copyable command for a shell and never takes a forwarded prefix outside URL path characters", async () => {
    const trusted = makeEnv({ TRUST_FORWARDED_HEADERS: "true" });
    for (const prefix of ["/$(id)", "/a;b", "/`id`", "/'x'", "/a b", "/%zz", "/a/../b"]) {
      const html = await (
        await call("https://agents.example.com/", { headers: { ...HTML, "X-Forwarded-Prefix": prefix } }, trusted)
      ).text();
      expect(html).toContain("curl -s &#39;https://agents.example.com/.well-known/agent-card.json&#39;");
    }
    const html = await (
      await call("https://agents.example.com/", { headers: { ...HTML, "X-Forwarded-Prefix": "/team-a/%7Ex" } }, trusted)
    ).text();
    expect(html).toContain("curl -s &#39;https://agents.example.com/team-a/%7Ex/.well-known/agent-card.json&#39;");
  });

  it("says, for each required scheme, whether the edge enforces it, refuses for want of a verifier, or leaves it to the origin", async () => {
    const enforcement = async (vars: Record<string, string>) => {
      const html = await (await call("https://agents.example.com/", { headers: HTML }, makeEnv(vars))).text();
      return [...html.matchAll(/<code>(\w+)<\/code><\/dt><dd>[^<]*<span class="enforcement (\w+)">/g)].map(
        ([, name, state]) => `${name}:${state}`,
      );
    };
    // The bundled card requires acmeBearer (http bearer) or acmeOAuth (oauth2): both need a JWT issuer.
    expect(await enforcement({})).toEqual(["acmeBearer:closed", "acmeOAuth:closed"]);
    const issuer = { AUTH_JWT_ISSUER: "https://login.example.com/", AUTH_JWT_AUDIENCE: "https://agents.example.com/" };
    expect(await enforcement(issuer)).toEqual(["acmeBearer:edge", "acmeOAuth:edge"]);
    expect(await enforcement({ ...issuer, EDGE_AUTH: "off" })).toEqual(["acmeBearer:origin", "acmeOAuth:origin"]);
  });

  it("names the signing key when the card is signed", async () => {
    const key = await signingKey("page-key");
    const html = await (
      await call("https://agents.example.com/", { headers: HTML }, makeEnv({ CARD_SIGNING_KEY: key, HOST_ALLOWLIST: "agents.example.com" }))
    ).text();
    expect(html).toContain("<strong>EdDSA</strong> key <code>page-key</code>");
    expect(html).toContain("https://agents.example.com/.well-known/jwks.json");
  });

  it("says why a card is not signed when the key is set but the host:port is not named (npm run dev -- --port N)", async () => {
    const key = await signingKey("page-key");
    const env = makeEnv({ CARD_SIGNING_KEY: key, HOST_ALLOWLIST: "127.0.0.1:8787,127.0.0.1:9000,localhost" });
    const page = async (url: string) => (await call(url, { headers: HTML }, env)).text();
    expect(await page("http://127.0.0.1:9000/")).toContain("key <code>page-key</code>");
    const unnamed = await page("http://localhost:9001/");
    expect(unnamed).toContain("This card is not signed here");
    expect(unnamed).toContain("<code>localhost:9001</code> is not in HOST_ALLOWLIST (with its port) nor PUBLIC_BASE_URL");
    expect(await page("http://localhost/")).toContain("key <code>page-key</code>");
    const unkeyed = await (await call("http://localhost:9001/", { headers: HTML }, makeEnv({ HOST_ALLOWLIST: "localhost" }))).text();
    expect(unkeyed).toContain("This card is not signed.");
  });

  it("shows a key id outside ASCII as written (the protected header is UTF-8)", async () => {
    const key = await signingKey("clé-ключ");
    const html = await (
      await call("https://agents.example.com/", { headers: HTML }, makeEnv({ CARD_SIGNING_KEY: key, HOST_ALLOWLIST: "agents.example.com" }))
    ).text();
    expect(html).toContain("key <code>clé-ключ</code>");
  });
});
