// Card intake: every seed's card as its document shows it, the frameworks'
// cards, and cards of each generation, read into a document whose every
// variant validates against the official schema of its version, with the
// named repairs; card-source documents stay strict.
import { describe, expect, it } from "vitest";
import { buildCard } from "../../src/card/build-card";
import { isCard, readCardInput } from "../../src/card/intake";
import { REPAIR_RULES } from "../../src/card/repair-rules";
import type { RepairRule } from "../../src/card/repairs";
import { CARD_VARIANTS } from "../../src/card/variant";
import adk from "../fixtures/cards/adk-card.json";
import lcA2a from "../fixtures/cards/lc-a2a.json";
import molecule from "../fixtures/cards/molecule-example.json";
import telex from "../fixtures/cards/telex-sample.json";
import toolnexusCatalog from "../fixtures/cards/toolnexus-catalog.json";
import toolnexus from "../fixtures/cards/toolnexus-default.json";
import v1NoSkills from "../fixtures/cards/v1-no-skills.json";
import v02 from "../fixtures/cards/v02-card.json";
import voltagent from "../fixtures/cards/voltagent-card.json";
import kitchenSink from "../fixtures/kitchen-sink.json";
import bundled from "../fixtures/sample-card.json";
import { nullPaths, schemaErrors } from "../support/schemas";

const endpoint = { rpcUrl: "https://agents.example.com/", restUrl: "https://agents.example.com/rest", protocolVersions: ["1.0", "0.3"] };

function read(card: unknown) {
  const result = readCardInput(card);
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result.value;
}

const rulesOf = (card: unknown) => [...new Set(read(card).repairs.map((r) => r.rule))].sort();

const SEEDS: [string, unknown, RepairRule[]][] = [
  ["toolnexus default card", toolnexus, ["derived-field", "derived-skill", "media-type"]],
  ["toolnexus catalog card", toolnexusCatalog, ["derived-field", "media-type", "skill-tags"]],
  ["Molecule AI example card", molecule, ["derived-field"]],
  ["Telex sample card", telex, ["derived-field", "example-object", "skill-tags"]],
  [
    "lc_a2a card",
    lcA2a,
    [
      "authentication",
      "capability-strings",
      "derived-field",
      "media-type",
      "missing-required",
      "provider-string",
      "skill-tags",
      "snake-case",
      "unknown-field",
    ],
  ],
  ["Google ADK card", adk, ["derived-field", "media-type"]],
  ["VoltAgent card", voltagent, ["derived-field", "derived-skill", "media-type", "missing-required"]],
  ["1.0 card without skills", v1NoSkills, ["derived-field", "derived-skill"]],
  ["0.2.5 card", v02, ["derived-field"]],
];

describe("card intake of the cards that exist", () => {
  it.each(SEEDS)("%s: every variant validates against its official schema, with the named repairs", (_name, card, rules) => {
    expect(isCard(card as Record<string, unknown>)).toBe(true);
    expect(rulesOf(card)).toEqual(rules);
    const { source } = read(card);
    for (const variant of CARD_VARIANTS) {
      const built = buildCard(source, endpoint, variant);
      expect(nullPaths(built), variant).toEqual([]);
      if (variant === "v1") expect(schemaErrors.v1Card(built), variant).toEqual([]);
      else {
        expect(schemaErrors.v03Card(built), variant).toEqual([]);
        expect(schemaErrors.v026Card(built), variant).toEqual([]);
      }
      // A2A 1.0 §5.7: required lists are never empty; every mode a media type.
      const v1 = buildCard(source, endpoint, "v1");
      expect(v1.skills.length).toBeGreaterThan(0);
      for (const mode of [...v1.defaultInputModes, ...v1.defaultOutputModes]) expect(mode).toMatch(/^[\w.+-]+\/[\w.+*-]+/);
    }
  });

  it("replaces every derived member with the edge's own, naming each", () => {
    const { repairs } = read(lcA2a);
    const derived = repairs.filter((r) => r.rule === "derived-field").map((r) => r.path);
    expect(derived.sort()).toEqual(["interfaces", "protocolVersion", "signature", "supportedInterfaces", "url"]);
    const card = buildCard(read(lcA2a).source, endpoint, "hybrid");
    expect(card).toMatchObject({ url: "https://agents.example.com/", protocolVersion: "0.3.0" });
    expect(JSON.stringify(card)).not.toContain('example.com"');
    expect(card).not.toHaveProperty("signature");
  });

  it("maps each dialect to its meaning", () => {
    expect(read(toolnexus).source).toMatchObject({
      description: "",
      defaultInputModes: ["text/plain"],
      defaultOutputModes: ["text/plain"],
    });
    expect(read(toolnexus).source.skills).toEqual([expect.objectContaining({ name: "toolnexus-agent", description: "toolnexus-agent" })]);
    expect(read(telex).source.skills[0]?.examples).toEqual(["ping"]);
    expect(read(telex).source.capabilities.extendedAgentCard).toBe(false);
    const lc = read(lcA2a).source;
    expect(lc).toMatchObject({
      provider: { organization: "Example Org" },
      documentationUrl: "https://example.com/docs",
      capabilities: { streaming: true, pushNotifications: false },
      securitySchemes: { bearer: { type: "http", scheme: "bearer" } },
      security: [{ bearer: [] }],
    });
    // AgentProvider.url is required by 0.3 and 1.0: the documentation, else the card's own base.
    expect(buildCard(lc, endpoint, "v1").provider).toEqual({ organization: "Example Org", url: "https://example.com/docs" });
    expect(read(lcA2a).repairs).toContainEqual(expect.objectContaining({ rule: "unknown-field", path: "dataClass" }));
    expect(read(lcA2a).repairs).toContainEqual(
      expect.objectContaining({ rule: "capability-strings", message: expect.stringContaining("input-required-resume") }),
    );
  });

  it("reads what the origin speaks from any spelling of its JSON-RPC interfaces", () => {
    expect(read(lcA2a).protocolVersions).toEqual(["1.0"]);
    expect(read(v1NoSkills).protocolVersions).toEqual(["1.0"]);
    expect(read(molecule).protocolVersions).toEqual(["0.3"]);
    expect(read(v1NoSkills).advertisedOrigins).toEqual(["http://10.0.0.5:9999"]);
  });

  it("never drops security: a security member it cannot read refuses the card", () => {
    for (const card of [
      { ...telex, securty: [{ bearer: [] }] },
      { ...telex, authentication: ["ApiKey"] },
      { ...telex, securitySchemes: { s: { type: "magic" } } },
      { ...telex, skills: [{ ...telex.skills[0], oauthScopes: ["x"] }] },
    ]) {
      expect(readCardInput(card).ok, JSON.stringify(card).slice(0, 80)).toBe(false);
    }
    expect(readCardInput({ url: "https://x.example/", description: "no name" })).toMatchObject({ ok: false, issues: [{ path: "name" }] });
  });

  it("keeps a card-source document strict: an unknown member is a typo, and the bundled skills.json needs no repair", () => {
    expect(readCardInput({ descripton: "x" })).toMatchObject({ ok: false });
    expect(readCardInput({ defaultInputModes: ["text"] })).toMatchObject({ ok: false });
    for (const doc of [bundled, kitchenSink, {}]) expect(read(doc)).toMatchObject({ kind: "document", repairs: [] });
  });

  it("names every rule it applies in the table the README shows", () => {
    const applied = new Set(SEEDS.flatMap(([, card]) => rulesOf(card)));
    for (const rule of applied) expect(REPAIR_RULES).toHaveProperty(rule);
  });
});
