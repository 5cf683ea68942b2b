import { describe, expect, it } from "vitest";
import type { HybridAgentCard } from "../../src/a2a/hybrid";
import type * as v1 from "../../src/a2a/v1";
import type * as v03 from "../../src/a2a/v03";
import { buildCard, type CardEndpoint } from "../../src/card/build-card";
import { skillIdFromName } from "../../src/card/skills";
import { type CardSource, parseCardSource } from "../../src/card/source";
import { CARD_VARIANTS } from "../../src/card/variant";
import { joinUrl } from "../../src/http/urls";
import kitchenSink from "../fixtures/kitchen-sink.json";
import bundled from "../fixtures/sample-card.json";
import { nullPaths, schemaErrors } from "../support/schemas";

function source(doc: unknown): CardSource {
  const parsed = parseCardSource(doc);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  return parsed.value;
}

/** The 0.3-shaped card a variant gives while 0.3 is served (as by `endpoint`). */
function shaped03<Card extends v03.AgentCard | HybridAgentCard>(card: Card | v1.AgentCard): Card {
  if ("url" in card) return card;
  throw new Error("expected a 0.3-shaped card");
}

const endpoint: CardEndpoint = { rpcUrl: "https://agents.example.com/a2a", protocolVersions: ["1.0", "0.3"] };
const documents = { empty: {}, bundled, kitchenSink } as const;

describe.each(Object.entries(documents))("the %s document", (_name, doc) => {
  const src = source(doc);

  it("renders a strict A2A 1.0 card (v1.0.1 schema, no extra fields)", () => {
    const card = buildCard(src, endpoint, "v1");
    expect(schemaErrors.v1Card(card)).toEqual([]);
    for (const field of [
      "url",
      "protocolVersion",
      "preferredTransport",
      "additionalInterfaces",
      "security",
      "supportsAuthenticatedExtendedCard",
    ]) {
      expect(card).not.toHaveProperty(field);
    }
  });

  it.each(["v0.3", "hybrid", "legacy"] as const)("renders a %s card valid against the 0.3.0 schema", (variant) => {
    const card = shaped03(buildCard(src, endpoint, variant));
    expect(schemaErrors.v03Card(card)).toEqual([]);
    expect(card).toMatchObject({ protocolVersion: "0.3.0", url: endpoint.rpcUrl, preferredTransport: "JSONRPC" });
    expect(card.additionalInterfaces).toEqual([{ url: endpoint.rpcUrl, transport: "JSONRPC" }]);
  });

  it("embeds 1.0 interfaces in hybrid and legacy cards only, each a valid 1.0 AgentInterface", () => {
    expect(buildCard(src, endpoint, "v0.3")).not.toHaveProperty("supportedInterfaces");
    for (const variant of ["hybrid", "legacy", "v1"] as const) {
      const interfaces = buildCard(src, endpoint, variant).supportedInterfaces;
      expect(interfaces).toEqual([
        { url: endpoint.rpcUrl, protocolBinding: "JSONRPC", protocolVersion: "1.0" },
        { url: endpoint.rpcUrl, protocolBinding: "JSONRPC", protocolVersion: "0.3" },
      ]);
      for (const i of interfaces) expect(schemaErrors.v1Interface(i)).toEqual([]);
    }
  });

  it("never contains null, in any variant", () => {
    for (const variant of CARD_VARIANTS) expect(nullPaths(buildCard(src, endpoint, variant))).toEqual([]);
  });

  it("is deterministic (same input, same bytes)", () => {
    for (const variant of CARD_VARIANTS) {
      expect(JSON.stringify(buildCard(src, endpoint, variant))).toBe(JSON.stringify(buildCard(source(doc), endpoint, variant)));
    }
  });
});

describe("rendering details", () => {
  const sink = source(kitchenSink);

  it("leaves optional fields absent for {} (no provider, urls, schemes, extensions)", () => {
    const card = buildCard(source({}), endpoint, "v1");
    expect(Object.keys(card).sort()).toEqual(
      ["capabilities", "defaultInputModes", "defaultOutputModes", "description", "name", "skills", "supportedInterfaces", "version"].sort(),
    );
    expect(card.capabilities).toEqual({ streaming: false, pushNotifications: false });
  });

  it("sorts skills by name in code-unit order and keeps names verbatim", () => {
    const names = buildCard(sink, endpoint, "v1").skills.map((s) => s.name);
    expect(names).toEqual(["!!!", "Alpha skill", "Alpha-1", "Minimal", "alpha skill", "zeta: last (by code units)", "Émoji 🚀 planner"]);
  });

  it("derives sanitized, unique ids from names and keeps explicit ids", () => {
    const ids = Object.fromEntries(buildCard(sink, endpoint, "v1").skills.map((s) => [s.name, s.id]));
    expect(ids).toEqual({
      "!!!": "skill",
      "Alpha skill": "Alpha-1",
      "Alpha-1": "Alpha-1_2",
      Minimal: "Minimal",
      "alpha skill": "alpha_skill",
      "zeta: last (by code units)": "zeta_last_by_code_units",
      "Émoji 🚀 planner": "Emoji_planner",
    });
    for (const id of Object.values(ids)) expect(id).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(skillIdFromName("Café · Crème")).toBe("Cafe_Creme");
  });

  it("narrows skills to the allowlist and ignores unknown names", () => {
    const card = buildCard(sink, { ...endpoint, skillAllowlist: ["Minimal", "Alpha skill", "No such skill"] }, "hybrid");
    expect(card.skills.map((s) => s.name)).toEqual(["Alpha skill", "Minimal"]);
    expect(buildCard(sink, { ...endpoint, skillAllowlist: [] }, "v1").skills).toHaveLength(7);
  });

  it("carries tags, examples and modes through, with defaults for a bare skill", () => {
    const skills = shaped03(buildCard(sink, endpoint, "v0.3")).skills;
    expect(skills.find((s) => s.name === "zeta: last (by code units)")).toEqual({
      id: "zeta_last_by_code_units",
      name: "zeta: last (by code units)",
      description: "zeta: last (by code units)",
      tags: ["z"],
      examples: ["one", "two"],
      inputModes: ["text/plain"],
      outputModes: ["application/json"],
      security: [{ oidc: [] }],
    });
    expect(skills.find((s) => s.name === "Minimal")).toEqual({ id: "Minimal", name: "Minimal", description: "Minimal", tags: ["general"] });
  });

  it("renders security in the 1.0 wrapper form and the 0.3 type form", () => {
    const v1 = buildCard(sink, endpoint, "v1");
    const v03 = shaped03(buildCard(sink, endpoint, "v0.3"));
    expect(v1.securityRequirements).toEqual([{ schemes: { bearer: {} } }, { schemes: { code: { list: ["read", "write"] }, key: {} } }]);
    expect(v03.security).toEqual([{ bearer: [] }, { code: ["read", "write"], key: [] }]);
    const s1 = v1.securitySchemes ?? {};
    const s03 = v03.securitySchemes ?? {};
    expect(s1.key).toEqual({ apiKeySecurityScheme: { location: "header", name: "X-Api-Key", description: "Partner key" } });
    expect(s03.key).toEqual({ type: "apiKey", in: "header", name: "X-Api-Key", description: "Partner key" });
    expect(s1.mtlsBare).toEqual({ mtlsSecurityScheme: {} });
    expect(s03.mtls).toEqual({ type: "mutualTLS", description: "Client certificate" });
    expect(s1.oidc).toEqual({
      openIdConnectSecurityScheme: { openIdConnectUrl: "https://login.example.org/.well-known/openid-configuration" },
    });
    expect(s1.code).toMatchObject({ oauth2SecurityScheme: { flows: { authorizationCode: { pkceRequired: true } } } });
    expect(s03.code).not.toHaveProperty("flows.authorizationCode.pkceRequired");
    expect(s03.code).toMatchObject({ oauth2MetadataUrl: "https://login.example.org/.well-known/oauth-authorization-server" });
    expect(buildCard(sink, endpoint, "v1").skills.find((s) => s.name.startsWith("zeta"))?.securityRequirements).toEqual([
      { schemes: { oidc: {} } },
    ]);
  });

  it("maps capabilities per version (extendedAgentCard vs supportsAuthenticatedExtendedCard)", () => {
    const v1 = buildCard(sink, endpoint, "v1");
    const v03 = shaped03(buildCard(sink, endpoint, "v0.3"));
    expect(v1.capabilities).toEqual({
      streaming: true,
      pushNotifications: true,
      extendedAgentCard: true,
      extensions: [
        { uri: "https://example.org/ext/a", description: "A", required: true, params: { n: 1, nested: { ok: true } } },
        { uri: "urn:example:ext:b" },
      ],
    });
    expect(v03.capabilities).toMatchObject({ streaming: true, pushNotifications: true, stateTransitionHistory: true });
    expect(v03.supportsAuthenticatedExtendedCard).toBe(true);
    expect(v03).not.toHaveProperty("capabilities.extendedAgentCard");
  });

  it("lists interfaces in the configured preference order", () => {
    const card = buildCard(sink, { ...endpoint, protocolVersions: ["0.3", "1.0"] }, "v1");
    expect(card.supportedInterfaces.map((i) => i.protocolVersion)).toEqual(["0.3", "1.0"]);
  });

  it("joins the public base and the RPC path", () => {
    expect(joinUrl("https://agents.example.com", "/")).toBe("https://agents.example.com/");
    expect(joinUrl("https://agents.example.com/", "/a2a/v1")).toBe("https://agents.example.com/a2a/v1");
    expect(joinUrl("https://gw.example.com/team-a", "/rpc")).toBe("https://gw.example.com/team-a/rpc");
  });

  it("renders the legacy card in a shape 0.2.6 readers also accept (bundled document)", () => {
    expect(schemaErrors.v026Card(buildCard(source(bundled), endpoint, "legacy"))).toEqual([]);
  });
});

describe("the schema validators themselves", () => {
  it("reject a hybrid card as 1.0 and a 1.0 card as 0.3 (so the checks above can fail)", () => {
    const src = source(bundled);
    expect(schemaErrors.v1Card(buildCard(src, endpoint, "hybrid"))).not.toEqual([]);
    expect(schemaErrors.v03Card(buildCard(src, endpoint, "v1"))).not.toEqual([]);
  });
});
