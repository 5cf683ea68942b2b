import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import committedSchema from "../../skills.schema.json";
import { cardSourceJsonSchema } from "../../src/card/json-schema";
import { parseCardSource, parseCardSourceText } from "../../src/card/source";
import kitchenSink from "../fixtures/kitchen-sink.json";
import bundled from "../fixtures/sample-card.json";

describe("card-source schema", () => {
  it("defaults every field of an empty document", () => {
    const parsed = parseCardSource({});
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.value).toEqual({
      name: "A2A Agent",
      description: "An agent reachable over the A2A protocol.",
      version: "1.0.0",
      capabilities: { streaming: false, pushNotifications: false, stateTransitionHistory: false, extendedAgentCard: false, extensions: [] },
      defaultInputModes: ["text/plain"],
      defaultOutputModes: ["text/plain"],
      skills: [],
    });
  });

  it("accepts the bundled skills.json and the kitchen-sink fixture", () => {
    expect(parseCardSource(bundled)).toMatchObject({ ok: true });
    expect(parseCardSource(kitchenSink)).toMatchObject({ ok: true });
  });

  it.each([
    ["unknown top-level key (typo)", { descripton: "x" }, "", /Unrecognized key: "descripton"/],
    ["non-http provider url", { provider: { organization: "o", url: "ftp://o" } }, "provider.url", /URL/],
    ["empty input modes (A2A 1.0 §5.7)", { defaultInputModes: [] }, "defaultInputModes", /at least 1|>=1/],
    ["bad media type", { defaultOutputModes: ["text"] }, "defaultOutputModes.0", /media type/],
    ["explicit id with spaces", { skills: [{ name: "A", id: "a b" }] }, "skills.0.id", /\[A-Za-z0-9_-\]/],
    ["duplicate skill name", { skills: [{ name: "A" }, { name: "A" }] }, "skills.1.name", /duplicate skill name/],
    ["requirement naming an undeclared scheme", { security: [{ nope: [] }] }, "security.0.nope", /unknown security scheme "nope"/],
    [
      "two OAuth flows in one scheme",
      {
        securitySchemes: {
          o: {
            type: "oauth2",
            flows: {
              implicit: { authorizationUrl: "https://a.example", scopes: {} },
              password: { tokenUrl: "https://a.example", scopes: {} },
            },
          },
        },
      },
      "securitySchemes.o.flows",
      /exactly one OAuth flow/,
    ],
    ["unknown scheme type", { securitySchemes: { s: { type: "magic" } } }, "securitySchemes.s.type", /Invalid/],
    ["null instead of absent", { iconUrl: null }, "iconUrl", /expected string/],
  ])("rejects %s with a readable issue", (_name, doc, path, message) => {
    const parsed = parseCardSource(doc);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.issues).toContainEqual({ path, message: expect.stringMatching(message) });
  });

  it("reports invalid JSON text without throwing", () => {
    const parsed = parseCardSourceText("{ not json");
    expect(parsed).toMatchObject({ ok: false, issues: [{ path: "", message: expect.stringMatching(/^not valid JSON/) }] });
  });
});

describe("skills.schema.json", () => {
  it("is the current export of the zod schema (run `npm run schema` if this fails)", () => {
    expect(`${JSON.stringify(committedSchema, null, 2)}\n`).toBe(cardSourceJsonSchema());
  });

  it("validates skills.json and {} in an editor's JSON Schema validator, and rejects a typo", () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    const validate = ajv.compile(committedSchema);
    expect(validate(bundled), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({})).toBe(true);
    expect(validate(kitchenSink), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ name: "x", skils: [] })).toBe(false);
    expect(bundled.$schema).toBe("./skills.schema.json");
  });
});
