// The URLs a card publishes: only https and http (and, for an extension's identifier, urn), however the
// scheme is spelled. Card intake leaves any other out of an imported card as the `unsafe-url-scheme`
// repair, refuses a card-source document that has one, and refuses any card whose security scheme
// names one (dropping a scheme's URL would change what the card asks of callers); the page makes no
// link of anything else even when handed one.
import { describe, expect, it } from "vitest";
import type * as v1 from "../../src/a2a/v1";
import { buildCard } from "../../src/card/build-card";
import { readCardInput } from "../../src/card/intake";
import { REPAIR_RULES } from "../../src/card/repair-rules";
import { CARD_VARIANTS } from "../../src/card/variant";
import { renderCardPage } from "../../src/view/page-response";
import { captureConsole } from "../support/console";
import { pageCard } from "../support/page-card";
import { CARD, call, documentsKv, LEGACY, makeEnv } from "../support/worker";

const endpoint = { rpcUrl: "https://agents.example.com/", protocolVersions: ["1.0", "0.3"] };

/** Schemes no card publishes, in the spellings readers fold to them (case, leading blanks and controls, a tab inside). */
const UNSAFE = [
  "javascript:alert(document.cookie)",
  "  JaVaScRiPt:alert(document.cookie)",
  "\u0001\u0002javascript:alert(1)",
  "\tjava\tscript:alert(1)",
  "java\nscript:alert(1)",
  "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
  "DATA:image/svg+xml,<svg onload=alert(1)>",
  "vbscript:msgbox(1)",
  "file:///etc/passwd",
  "ftp://files.example.com/ext",
  // A web scheme only after characters some readers skip and others do not: they would disagree on it.
  "\u0001https://agents.example.com/ext",
] as const;

/** What an imported A2A card carries besides (its `url` makes it a card, read leniently). */
const card = (members: Record<string, unknown>) => ({ name: "Agent", url: "https://origin.internal/", ...members });

const read = (input: unknown) => {
  const result = readCardInput(input);
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result.value;
};

/** Every string in `value`, at any depth. */
const stringsOf = (value: unknown): string[] =>
  typeof value === "string" ? [value] : typeof value === "object" && value !== null ? Object.values(value).flatMap(stringsOf) : [];

/** Every link and image address of a page (its `href` and `src` attributes). */
const linksOf = (html: string) => [...html.matchAll(/\b(?:href|src)="([^"]*)"/g)].map((m) => m[1]);

/** Every variant of the card built from `source`, as JSON text. */
const variantsOf = (source: ReturnType<typeof read>["source"]) => CARD_VARIANTS.map((v) => JSON.stringify(buildCard(source, endpoint, v)));

describe("an imported card's URLs", () => {
  it.each(UNSAFE)("leaves out an extension whose URI is %j, as the unsafe-url-scheme repair", (uri) => {
    const kept = "https://a2a.example.com/ext/kept";
    const intake = read(card({ capabilities: { extensions: [{ uri, required: true }, { uri: kept }] } }));
    expect(intake.source.capabilities.extensions.map((e) => e.uri)).toEqual([kept]);
    expect(intake.repairs).toContainEqual({
      rule: "unsafe-url-scheme",
      path: "capabilities.extensions.0.uri",
      message: expect.stringMatching(/: the extension is left out$/),
    });
    for (const json of variantsOf(intake.source)) {
      expect(json).toContain(kept);
      for (const text of stringsOf(JSON.parse(json))) {
        expect(text).not.toMatch(/script:|data:|file:|ftp:/i);
        expect(text).not.toContain("\u0001");
      }
    }
  });

  it("keeps an extension identified by https, http or a URN (an identifier: A2A AgentExtension.uri), in any case", () => {
    const uris = [
      "https://a2a.example.com/ext/x",
      "http://a2a.example.com/ext/y",
      "urn:a2a:ext:z",
      "URN:example:w",
      "HTTPS://A2A.example.com/v",
    ];
    const intake = read(card({ capabilities: { extensions: uris.map((uri) => ({ uri })) } }));
    expect(intake.source.capabilities.extensions.map((e) => e.uri)).toEqual(uris);
    expect(intake.repairs.filter((r) => r.rule === "unsafe-url-scheme")).toEqual([]);
  });

  it.each(UNSAFE)("leaves out documentationUrl, iconUrl and provider.url of %j, and publishes only web URLs in their place", (url) => {
    const intake = read(card({ documentationUrl: url, iconUrl: url, provider: { organization: "Org", url } }));
    expect(intake.source).not.toHaveProperty("documentationUrl");
    expect(intake.source).not.toHaveProperty("iconUrl");
    expect(intake.source.provider).toEqual({ organization: "Org" });
    for (const path of ["documentationUrl", "iconUrl", "provider.url"]) {
      expect(intake.repairs).toContainEqual({ rule: "unsafe-url-scheme", path, message: expect.stringMatching(/: the URL is left out$/) });
    }
    // provider.url is required in the card: the card's own base stands in for it.
    for (const json of variantsOf(intake.source))
      expect(JSON.parse(json).provider).toEqual({ organization: "Org", url: "https://agents.example.com" });
  });

  it("keeps an http(s) URL in any case, and a URN only where an identifier may be one", () => {
    const intake = read(card({ documentationUrl: "HTTPS://Docs.example.com/a", iconUrl: "urn:icon:x" }));
    expect(intake.source.documentationUrl).toBe("HTTPS://Docs.example.com/a");
    expect(intake.source).not.toHaveProperty("iconUrl");
    expect(intake.repairs).toContainEqual(expect.objectContaining({ rule: "unsafe-url-scheme", path: "iconUrl" }));
  });

  it("names the rule in the table the CLI and docs/card-data.md print", () => {
    expect(REPAIR_RULES["unsafe-url-scheme"]).toMatch(/https and http/);
  });
});

describe("a card-source document's URLs", () => {
  it.each(UNSAFE)("refuses an extension URI of %j (a document is never repaired)", (uri) => {
    const result = readCardInput({ capabilities: { extensions: [{ uri }] } });
    expect(result).toMatchObject({ ok: false, issues: [{ path: "capabilities.extensions.0.uri" }] });
  });

  it("accepts https, http and urn extension URIs", () => {
    const uris = ["https://a2a.example.com/ext/x", "http://a2a.example.com/ext/y", "urn:a2a:ext:z"];
    const intake = read({ capabilities: { extensions: uris.map((uri) => ({ uri })) } });
    expect(intake.source.capabilities.extensions.map((e) => e.uri)).toEqual(uris);
  });

  it.each(UNSAFE)("refuses documentationUrl, iconUrl and provider.url of %j", (url) => {
    for (const doc of [{ documentationUrl: url }, { iconUrl: url }, { provider: { organization: "Org", url } }]) {
      expect(readCardInput(doc).ok, JSON.stringify(doc)).toBe(false);
    }
  });
});

describe("a security scheme's URLs", () => {
  /** Every URL member of every scheme type, in the 0.3 `type` form and the 1.0 wrapper form. */
  const schemes = (url: string) => ({
    "0.3 openIdConnectUrl": { s: { type: "openIdConnect", openIdConnectUrl: url } },
    "1.0 openIdConnectUrl": { s: { openIdConnectSecurityScheme: { openIdConnectUrl: url } } },
    "0.3 oauth2MetadataUrl": {
      s: { type: "oauth2", oauth2MetadataUrl: url, flows: { clientCredentials: { tokenUrl: "https://id.example.com/t", scopes: {} } } },
    },
    "0.3 authorizationUrl": {
      s: {
        type: "oauth2",
        flows: { authorizationCode: { authorizationUrl: url, tokenUrl: "https://id.example.com/t", scopes: {} } },
      },
    },
    "1.0 tokenUrl": { s: { oauth2SecurityScheme: { flows: { clientCredentials: { tokenUrl: url, scopes: {} } } } } },
    "1.0 refreshUrl": {
      s: {
        oauth2SecurityScheme: {
          flows: { clientCredentials: { tokenUrl: "https://id.example.com/t", refreshUrl: url, scopes: {} } },
        },
      },
    },
    "1.0 deviceAuthorizationUrl": {
      s: {
        oauth2SecurityScheme: {
          flows: { deviceCode: { deviceAuthorizationUrl: url, tokenUrl: "https://id.example.com/t", scopes: {} } },
        },
      },
    },
  });

  it.each(UNSAFE)("makes a card unpublishable, never drops the URL, when a scheme names %j", (url) => {
    for (const [name, securitySchemes] of Object.entries(schemes(url))) {
      const security = [{ s: [] }];
      const result = readCardInput(card({ securitySchemes, security }));
      expect(result.ok, name).toBe(false);
      expect(JSON.stringify(result), name).toMatch(/"path":"securitySchemes\.s\./);
    }
    // A card-source document the same (its schemes are the 0.3 form).
    expect(readCardInput({ securitySchemes: schemes(url)["0.3 openIdConnectUrl"], security: [{ s: [] }] }).ok).toBe(false);
  });

  it("reads the same schemes with web URLs", () => {
    for (const [name, securitySchemes] of Object.entries(schemes("https://id.example.com/x"))) {
      expect(readCardInput(card({ securitySchemes, security: [{ s: [] }] })).ok, name).toBe(true);
    }
  });
});

describe("through the worker", () => {
  const HTML = { accept: "text/html" };
  const stored = card({
    capabilities: { extensions: [{ uri: "  JaVaScRiPt:alert(document.cookie)" }, { uri: "urn:a2a:ext:kept" }] },
    documentationUrl: "javascript:alert(1)",
    provider: { organization: "Org", url: "data:text/html,x" },
    iconUrl: "vbscript:msgbox(1)",
  });

  it("serves every variant and the page without the unsafe URLs, and says what it left out", async () => {
    const logs = captureConsole();
    const env = makeEnv({ SKILLS: documentsKv({ default: stored }) });
    for (const [path, version] of [
      [CARD, "1.0"],
      [CARD, "0.3"],
      [CARD, undefined],
      [LEGACY, undefined],
    ] as const) {
      const response = await call(`https://agents.example.com${path}`, { headers: version ? { "A2A-Version": version } : {} }, env);
      expect(response.status).toBe(200);
      expect(response.headers.get("card-repaired")).toContain("unsafe-url-scheme");
      const body = await response.text();
      expect(body).toContain("urn:a2a:ext:kept");
      expect(body).not.toMatch(/javascript|vbscript|data:/i);
    }
    const page = await (await call("https://agents.example.com/", { headers: HTML }, env)).text();
    expect(linksOf(page).length).toBeGreaterThan(0);
    for (const link of linksOf(page)) expect(link).toMatch(/^https?:\/\//);
    expect(page).toContain("<code>unsafe-url-scheme</code>");
    expect(logs.events("card_repaired")[0]?.list).toMatch(/unsafe-url-scheme capabilities\.extensions\.0\.uri/);
  });
});

describe("the page", () => {
  it("links only to http(s) URLs, even for a card handed to it unchecked, and shows an extension URI as code", async () => {
    const bad = "javascript:alert(document.cookie)";
    const v1Card = buildCard(read({ name: "Agent" }).source, endpoint, "v1");
    const unchecked: v1.AgentCard = {
      ...v1Card,
      documentationUrl: bad,
      iconUrl: ` ${bad}`,
      provider: { organization: "Org", url: `\u0001${bad}` },
      capabilities: { ...v1Card.capabilities, extensions: [{ uri: bad }] },
    };
    const context = { cardUrl: "https://agents.example.com/.well-known/agent-card.json", enforcement: {}, pushRelayed: false };
    const html = await renderCardPage(pageCard(unchecked), context, 300).text();
    for (const link of linksOf(html)) expect(link).toMatch(/^https?:\/\//);
    expect(html).toContain(" · by <span>Org</span>");
    expect(html).toContain(`<code>${bad}</code>`);
    expect(html).toContain('<span class="icon" aria-hidden="true">A</span>');
  });
});
