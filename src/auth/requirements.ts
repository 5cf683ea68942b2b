// What the card says a caller needs (A2A 1.0 §5.5 securityRequirements, 0.3
// `security`): alternatives (OR), each naming schemes that are all required
// together (AND), each with the scopes it needs. Pure: read from the
// card-source document the card itself is rendered from.
import type { CardSource } from "../card/source";

type SecurityScheme = NonNullable<CardSource["securitySchemes"]>[string];

export interface SchemeNeed {
  /** The scheme's name in the card (`securitySchemes` key). */
  name: string;
  scheme: SecurityScheme;
  scopes: readonly string[];
}

/** [] = no requirement: the agent is public. */
export type Requirements = ReadonlyArray<readonly SchemeNeed[]>;

export function requirementsOf(source: CardSource): Requirements {
  const schemes = source.securitySchemes ?? {};
  return (source.security ?? []).map((alternative) =>
    Object.entries(alternative).flatMap(([name, scopes]) => {
      const scheme = schemes[name];
      // The document schema refuses a requirement naming an undeclared scheme; an unknown one can never be met.
      return scheme ? [{ name, scheme, scopes }] : [{ name, scheme: { type: "http" as const, scheme: "unknown" }, scopes }];
    }),
  );
}

/** Which verifier a scheme needs: JWT bearer (http bearer, OAuth 2.0, OpenID Connect), API key or mutual TLS. */
export type VerifierKind = "jwt" | "apiKey" | "mtls" | "none";

export function verifierKind(scheme: SecurityScheme): VerifierKind {
  switch (scheme.type) {
    case "oauth2":
    case "openIdConnect":
      return "jwt";
    case "http":
      return scheme.scheme.toLowerCase() === "bearer" ? "jwt" : "none";
    case "apiKey":
      return "apiKey";
    case "mutualTLS":
      return "mtls";
  }
}
