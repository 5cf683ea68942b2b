// Card facts as the short texts the page shows.
import * as v1 from "../a2a/v1";

/** What a 1.0 security scheme asks for, in a few words ("HTTP bearer (JWT)"). */
export function schemeSummary(scheme: v1.SecurityScheme): string {
  const [member, body] = v1.securitySchemeMember(scheme);
  switch (member) {
    case "apiKeySecurityScheme":
      return `API key in ${body.location} "${body.name}"`;
    case "httpAuthSecurityScheme":
      return `HTTP ${body.scheme}${body.bearerFormat ? ` (${body.bearerFormat})` : ""}`;
    case "oauth2SecurityScheme":
      return `OAuth 2.0 (${Object.keys(body.flows).join(", ")})`;
    case "openIdConnectSecurityScheme":
      return `OpenID Connect (${body.openIdConnectUrl})`;
    case "mtlsSecurityScheme":
      return "Mutual TLS";
  }
}

/** The scheme's own description, whichever kind it is. */
export function schemeDescription(scheme: v1.SecurityScheme): string | undefined {
  return v1.securitySchemeMember(scheme)[1].description;
}

/** One requirement: its schemes joined with " + ", each with its scopes. */
export function requirementText(requirement: v1.SecurityRequirement): string {
  return Object.entries(requirement.schemes ?? {})
    .map(([name, scopes]) => (scopes.list?.length ? `${name} (${scopes.list.join(", ")})` : name))
    .join(" + ");
}

/**
 * The icon badge's letters: the first letter or digit of the name's first two
 * words ("Acme Travel Concierge": "AT"), else its first character.
 */
export function initials(name: string): string {
  const firsts = name.normalize("NFC").match(/(?<![\p{L}\p{N}])[\p{L}\p{N}]/gu) ?? [];
  return (firsts.slice(0, 2).join("") || [...name.trim()][0] || "?").toUpperCase();
}

/** Text reduced to its words: accents folded, case ignored, any run of other characters (space, _, -, punctuation) one separator. */
const words = (text: string) =>
  text
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();

/**
 * Whether a skill's id says more than its name. Ids derived from names
 * ("Flight search": Flight_search) or written the same way (hotel_search) only
 * repeat it, so the page shows an id only when its words differ.
 */
export function idAddsInformation(skill: { id: string; name: string }): boolean {
  return words(skill.id) !== words(skill.name);
}

/** POSIX single quotes: nothing inside is expanded by the shell the command is pasted into. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, "'\\''")}'`;
}
