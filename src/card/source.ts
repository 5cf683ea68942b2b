// The card-source document: every Agent Card field that is not derived from the
// request, in one version-neutral form. `render.ts` turns it into the A2A 1.0
// and 0.3 shapes. One zod schema validates skills.json, KV values and admin
// writes; `npm run schema` exports it as skills.schema.json for editors.
import * as z from "zod/mini";
import { exceedsDepth, MAX_JSON_DEPTH, readJsonText, reservedKeyPath } from "../json";
import { describe, formatIssues, type Issue } from "../validation";
import { AGENT_ROUTING } from "./source-routing";
import { hasPublishedScheme, IDENTIFIER_SCHEMES, urlProblem } from "./url-schemes";

const text = (description: string) => describe(z.string().check(z.minLength(1)), description);
const httpUrl = (description: string) => describe(z.url({ protocol: /^https?$/ }), description);
const identifierUrlError = (issue: { input?: unknown }) => urlProblem(issue.input, IDENTIFIER_SCHEMES)?.message;
// Media types (RFC 6838 type/subtype), e.g. text/plain, application/json.
const mediaType = z.string().check(z.regex(/^[\w.+-]+\/[\w.+*-]+(\s*;.*)?$/, "expected a media type such as text/plain"));
// A2A 1.0 §5.7: arrays marked required must not be empty.
const mediaTypes = (description: string) => describe(z.array(mediaType).check(z.minLength(1)), description);
// Skill ids are concatenated into tool names by peers: keep them to one token.
const SKILL_ID_PATTERN = /^[A-Za-z0-9_-]+$/;
const scopes = z.array(z.string());

const schemeName = z.string().check(z.minLength(1));

/** OpenAPI-style requirement: `{ "<scheme name>": ["scope", ...] }`. */
const securityRequirement = describe(
  z.record(schemeName, scopes),
  "One alternative: every named scheme (with its scopes) is required together.",
);
const securityRequirements = describe(
  z.array(securityRequirement),
  "Alternatives (OR) of requirements; rendered as `securityRequirements` (1.0) and `security` (0.3).",
);

const scopeMap = describe(z.record(z.string(), z.string()), "Scope name to description.");
const oauthFlow = {
  authorizationCode: z.strictObject({
    authorizationUrl: httpUrl("Authorization endpoint."),
    tokenUrl: httpUrl("Token endpoint."),
    refreshUrl: z.optional(httpUrl("Refresh endpoint.")),
    scopes: scopeMap,
    pkceRequired: z.optional(describe(z.boolean(), "A2A 1.0 only; dropped from 0.3 cards.")),
  }),
  clientCredentials: z.strictObject({
    tokenUrl: httpUrl("Token endpoint."),
    refreshUrl: z.optional(httpUrl("Refresh endpoint.")),
    scopes: scopeMap,
  }),
  deviceCode: z.strictObject({
    deviceAuthorizationUrl: httpUrl("Device authorization endpoint."),
    tokenUrl: httpUrl("Token endpoint."),
    refreshUrl: z.optional(httpUrl("Refresh endpoint.")),
    scopes: scopeMap,
  }),
  implicit: z.strictObject({
    authorizationUrl: httpUrl("Authorization endpoint."),
    refreshUrl: z.optional(httpUrl("Refresh endpoint.")),
    scopes: scopeMap,
  }),
  password: z.strictObject({
    tokenUrl: httpUrl("Token endpoint."),
    refreshUrl: z.optional(httpUrl("Refresh endpoint.")),
    scopes: scopeMap,
  }),
};

const description = z.optional(text("Shown to users of the scheme."));
// OpenAPI / A2A 0.3 `type` form; the 1.0 wrapper form is rendered from it.
const securityScheme = z.discriminatedUnion("type", [
  z.strictObject({
    type: z.literal("apiKey"),
    in: z.enum(["header", "query", "cookie"]),
    name: text("Name of the header, query parameter or cookie."),
    description,
  }),
  z.strictObject({
    type: z.literal("http"),
    scheme: text("HTTP authentication scheme, e.g. bearer or basic."),
    bearerFormat: z.optional(text("Hint such as JWT.")),
    description,
  }),
  z.strictObject({
    type: z.literal("oauth2"),
    // A2A 1.0 `OAuthFlows` is a proto oneof: exactly one flow per scheme.
    flows: describe(
      z
        .strictObject({
          authorizationCode: z.optional(oauthFlow.authorizationCode),
          clientCredentials: z.optional(oauthFlow.clientCredentials),
          deviceCode: z.optional(oauthFlow.deviceCode),
          implicit: z.optional(oauthFlow.implicit),
          password: z.optional(oauthFlow.password),
        })
        .check(
          z.refine((flows) => Object.values(flows).filter(Boolean).length === 1, {
            message: "declare exactly one OAuth flow per scheme (A2A 1.0 OAuthFlows is a oneof); add another scheme for another flow",
          }),
        ),
      "Exactly one OAuth 2.0 flow.",
    ),
    oauth2MetadataUrl: z.optional(httpUrl("RFC 8414 authorization server metadata URL.")),
    description,
  }),
  z.strictObject({
    type: z.literal("openIdConnect"),
    openIdConnectUrl: httpUrl("OpenID Connect discovery URL."),
    description,
  }),
  z.strictObject({ type: z.literal("mutualTLS"), description }),
]);

const extension = z.strictObject({
  // An identifier, so a URN too, never a scheme a reader would run or open (url-schemes.ts).
  uri: describe(
    z.url({ abort: true }).check(z.refine((uri) => hasPublishedScheme(uri, IDENTIFIER_SCHEMES), { error: identifierUrlError })),
    "Extension URI: https, http or urn.",
  ),
  description: z.optional(text("What the extension does here.")),
  required: z._default(describe(z.boolean(), "Clients must support the extension."), false),
  // Cards never carry null (optional fields are absent instead), params included.
  params: z.optional(
    describe(
      z
        .record(z.string(), z.unknown())
        .check(z.refine((params) => !containsNull(params), { message: "params must not contain null (leave the key out)" })),
      "Extension configuration (JSON, without null).",
    ),
  ),
});

const skill = z.strictObject({
  id: z.optional(
    describe(
      z.string().check(z.regex(SKILL_ID_PATTERN, "skill id must match [A-Za-z0-9_-]+")),
      "Stable token; derived from the name when absent.",
    ),
  ),
  name: text("Display name, advertised verbatim."),
  // An empty string is a valid description in 0.3 and 1.0 (what some generators write): published as is.
  description: z.optional(describe(z.string(), "What the skill does; defaults to the name.")),
  tags: z._default(describe(z.array(z.string().check(z.minLength(1))).check(z.minLength(1)), "Keywords; at least one."), ["general"]),
  examples: z.optional(describe(z.array(z.string()), "Example prompts.")),
  inputModes: z.optional(mediaTypes("Overrides defaultInputModes for this skill.")),
  outputModes: z.optional(mediaTypes("Overrides defaultOutputModes for this skill.")),
  security: z.optional(securityRequirements),
});

export const CardSourceSchema = z
  .strictObject({
    $schema: z.optional(describe(z.string(), "Path or URL of skills.schema.json.")),
    name: z._default(text("Agent name."), "A2A Agent"),
    description: z._default(
      describe(z.string(), "What the agent does (may be empty, as in 0.3 and 1.0)."),
      "An agent reachable over the A2A protocol.",
    ),
    version: z._default(text("Version of the agent (not of the protocol)."), "1.0.0"),
    provider: z.optional(
      z.strictObject({
        organization: text("Organization that runs the agent."),
        url: z.optional(
          httpUrl("Organization website; absent: documentationUrl, else the card's public base (both versions require one)."),
        ),
      }),
    ),
    documentationUrl: z.optional(httpUrl("Human documentation.")),
    iconUrl: z.optional(httpUrl("Icon image.")),
    capabilities: z.prefault(
      z.strictObject({
        streaming: z._default(describe(z.boolean(), "The origin streams (SendStreamingMessage / message/stream)."), false),
        pushNotifications: z._default(describe(z.boolean(), "The origin sends push notifications."), false),
        stateTransitionHistory: z._default(describe(z.boolean(), "A2A 0.3 readers only; removed in 1.0."), false),
        extendedAgentCard: z._default(
          describe(z.boolean(), "An authenticated extended card is available (0.3: supportsAuthenticatedExtendedCard)."),
          false,
        ),
        extensions: z._default(z.array(extension), []),
      }),
      {},
    ),
    defaultInputModes: z._default(mediaTypes("Media types the agent accepts."), ["text/plain"]),
    defaultOutputModes: z._default(mediaTypes("Media types the agent produces."), ["text/plain"]),
    securitySchemes: z.optional(describe(z.record(schemeName, securityScheme), "Named schemes.")),
    security: z.optional(securityRequirements),
    skills: z._default(z.array(skill), []),
    ...AGENT_ROUTING,
  })
  .check(
    z.superRefine((doc, ctx) => {
      const declared = new Set(Object.keys(doc.securitySchemes ?? {}));
      const checkRequirements = (requirements: readonly Record<string, string[]>[] | undefined, path: PropertyKey[]) =>
        requirements?.forEach((requirement, i) => {
          for (const scheme of Object.keys(requirement)) {
            if (!declared.has(scheme)) {
              ctx.issues.push({
                code: "custom",
                input: requirement,
                path: [...path, i, scheme],
                message: `unknown security scheme "${scheme}": declare it in securitySchemes`,
              });
            }
          }
        });
      checkRequirements(doc.security, ["security"]);
      const names = new Set<string>();
      const ids = new Set<string>();
      doc.skills.forEach((s, i) => {
        checkRequirements(s.security, ["skills", i, "security"]);
        if (names.has(s.name))
          ctx.issues.push({ code: "custom", input: s.name, path: ["skills", i, "name"], message: `duplicate skill name "${s.name}"` });
        names.add(s.name);
        if (s.id !== undefined) {
          if (ids.has(s.id))
            ctx.issues.push({ code: "custom", input: s.id, path: ["skills", i, "id"], message: `duplicate skill id "${s.id}"` });
          ids.add(s.id);
        }
      });
    }),
  );

export type CardSource = z.output<typeof CardSourceSchema>;
export type SkillSource = CardSource["skills"][number];

// Runs after the depth guard in parseCardSource (bounded recursion).
function containsNull(value: unknown): boolean {
  if (value === null) return true;
  if (typeof value !== "object") return false;
  return Object.values(value as object).some(containsNull);
}

export type ParseResult<T> = { ok: true; value: T } | { ok: false; issues: Issue[] };

/** Validates an already-parsed JSON value. Never throws. */
export function parseCardSource(value: unknown): ParseResult<CardSource> {
  if (exceedsDepth(value)) return { ok: false, issues: [{ path: "", message: `nested deeper than ${MAX_JSON_DEPTH} levels` }] };
  // zod drops a `__proto__` key silently: a scheme of that name would vanish and leave `security: [{}]` ("no auth").
  const reserved = reservedKeyPath(value);
  if (reserved !== undefined)
    return { ok: false, issues: [{ path: reserved, message: "__proto__, constructor and prototype are not allowed as names" }] };
  const result = CardSourceSchema.safeParse(value);
  return result.success ? { ok: true, value: result.data } : { ok: false, issues: formatIssues(result.error.issues) };
}

/** Parses JSON text (KV value, request body) and validates it. Never throws. */
export function parseCardSourceText(text: string): ParseResult<CardSource> {
  const json = readJsonText(text);
  return "error" in json ? { ok: false, issues: [{ path: "", message: json.error }] } : parseCardSource(json.value);
}
