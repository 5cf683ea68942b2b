// Edge authentication by the card's own security schemes: a caller must meet
// one alternative of the card's requirements (all its schemes, with their
// scopes). Each scheme type has one verifier; a required scheme nothing here
// can verify fails closed (401 for everyone, logged once per isolate).
// RFC 6750 §3: a bare `Bearer` challenge when no token came, `invalid_token`
// for a token presented and refused, 403 `insufficient_scope` with the scope.
import type { Config } from "../config";
import { type Failure, failure } from "../errors/failures";
import { log } from "../log";
import type { FetchLike } from "../proxy/origin-router";
import { type ApiKeyPlace, callerOfKey, type PresentedRequest, presentedKey } from "./api-keys";
import { type JwtCheck, JwtVerifier } from "./jwt-verifier";
import { certificateCaller } from "./mtls";
import { type Requirements, type SchemeNeed, verifierKind } from "./requirements";

/** A credential the edge consumed, removed before the call goes on (unless AUTH_FORWARD_CREDENTIALS). */
export type Credential = ApiKeyPlace;

export interface Caller {
  /** The card's name of the scheme that identified the caller. */
  scheme: string;
  /** The token's `sub`, the API key's caller name, or the certificate's subject. */
  subject: string;
  scopes: readonly string[];
  consumed: readonly Credential[];
}

type Check =
  | { state: "ok"; subject: string; scopes: readonly string[]; consumed: Credential | undefined }
  | { state: "absent" | "invalid" | "unverifiable" };

/** Checked at the edge; required but unverifiable here, so every call is refused; or left to the origin (EDGE_AUTH=off). */
export type SchemeEnforcement = "edge" | "closed" | "origin";

type AuthConfig = Pick<
  Config,
  "edgeAuth" | "jwtIssuer" | "jwtAudience" | "jwtJwksUrl" | "jwtAlgorithms" | "jwtHeader" | "apiKeys" | "mtlsFingerprints"
>;

const BEARER = /^bearer +(\S+)$/i;

export class EdgeAuth {
  readonly #jwt: JwtVerifier | undefined;
  readonly #unverifiableLogged = new Set<string>();

  constructor(
    private readonly config: AuthConfig,
    fetchImpl: FetchLike,
  ) {
    const { jwtIssuer } = config;
    this.#jwt = jwtIssuer ? new JwtVerifier({ ...config, jwtIssuer }, fetchImpl) : undefined;
  }

  /** Whether a scheme is verified here (the page says so; the rest fail closed). */
  verifies(need: Pick<SchemeNeed, "scheme">): boolean {
    const kind = verifierKind(need.scheme);
    return (kind === "jwt" && this.#jwt !== undefined) || (kind === "apiKey" && this.config.apiKeys !== undefined) || kind === "mtls";
  }

  /** What the edge does with each scheme the card requires, for the page. */
  enforcement(requirements: Requirements): Record<string, SchemeEnforcement> {
    const result: Record<string, SchemeEnforcement> = {};
    for (const need of requirements.flat()) {
      result[need.name] = this.config.edgeAuth === "off" ? "origin" : this.verifies(need) ? "edge" : "closed";
    }
    return result;
  }

  /**
   * The caller, undefined for an anonymous one the card lets in (it requires nothing, or one alternative
   * is the empty requirement `{}`: OpenAPI 3 §4.8.30, "no authentication needed"), or 401/403 as RFC 6750
   * says. A credential presented and refused is refused (401 invalid_token) even beside `{}`: it is never
   * taken as an anonymous call, and an anonymous caller never gets caller headers or an assertion.
   */
  async authenticate(edge: PresentedRequest, requirements: Requirements): Promise<Caller | undefined | Failure> {
    const open = requirements.some((alternative) => alternative.length === 0);
    const guarded = open ? requirements.filter((alternative) => alternative.length > 0) : requirements;
    if (guarded.length === 0) return undefined;
    const checks = new Map<string, Promise<Check>>();
    // One verification per token in a request, however many JWT schemes the card names (one issuer fetch at most).
    const tokens = new Map<string, Promise<JwtCheck>>();
    const check = (need: SchemeNeed) => {
      let result = checks.get(need.name);
      if (!result) {
        result = this.#check(edge, need, tokens);
        checks.set(need.name, result);
      }
      return result;
    };
    let scopeShortfall: readonly string[] | undefined;
    for (const alternative of guarded) {
      const results = await Promise.all(alternative.map(check));
      const oks = results.filter((r) => r.state === "ok");
      if (oks.length !== alternative.length) continue;
      const granted = new Set(oks.flatMap((r) => r.scopes));
      const needed = alternative.flatMap((need) => need.scopes);
      if (needed.every((scope) => granted.has(scope))) return callerOf(alternative, oks);
      scopeShortfall ??= needed;
    }
    const seen = await Promise.all([...checks.values()]);
    const refused = seen.some((r) => r.state === "invalid");
    if (open && !refused) return undefined;
    if (scopeShortfall) {
      const scope = scopeShortfall.join(" ");
      return failure("PERMISSION_DENIED", "the credentials lack a scope this agent requires", {
        headers: { "www-authenticate": `Bearer realm="${edge.publicHost}", error="insufficient_scope", scope="${scope}"` },
      });
    }
    const challenge = `Bearer realm="${edge.publicHost}"${refused ? ', error="invalid_token"' : ""}`;
    return failure("UNAUTHENTICATED", refused ? "the credentials were refused" : "credentials are required", {
      headers: { "www-authenticate": challenge },
    });
  }

  #check(edge: PresentedRequest, need: SchemeNeed, tokens: Map<string, Promise<JwtCheck>>): Promise<Check> {
    const { scheme } = need;
    switch (verifierKind(scheme)) {
      case "jwt":
        return this.#checkJwt(edge, need, tokens);
      case "apiKey":
        return scheme.type === "apiKey" ? this.#checkApiKey(edge, need, { in: scheme.in, name: scheme.name }) : this.#unverifiable(need);
      case "mtls": {
        const subject = certificateCaller(edge.request, this.config.mtlsFingerprints);
        return Promise.resolve(subject ? { state: "ok", subject, scopes: [], consumed: undefined } : { state: "absent" });
      }
      case "none":
        return this.#unverifiable(need);
    }
  }

  async #checkJwt(edge: PresentedRequest, need: SchemeNeed, tokens: Map<string, Promise<JwtCheck>>): Promise<Check> {
    const jwt = this.#jwt;
    if (!jwt) return this.#unverifiable(need);
    const header = this.config.jwtHeader ?? "authorization";
    const raw = edge.request.headers.get(header);
    // Query-string tokens (RFC 6750 §2.3) are never read: they end up in logs.
    const token = raw === null ? null : header === "authorization" ? BEARER.exec(raw)?.[1] : raw.trim();
    if (!token) return raw === null ? { state: "absent" } : { state: "invalid" };
    let verified = tokens.get(token);
    if (!verified) {
      verified = jwt.verify(token);
      tokens.set(token, verified);
    }
    const result = await verified;
    return result.ok
      ? { state: "ok", subject: result.subject, scopes: result.scopes, consumed: { in: "header", name: header } }
      : { state: "invalid" };
  }

  async #checkApiKey(edge: PresentedRequest, need: SchemeNeed, place: ApiKeyPlace): Promise<Check> {
    if (!this.config.apiKeys) return this.#unverifiable(need);
    const key = presentedKey(edge, place);
    if (key === null || key === "") return { state: "absent" };
    const caller = await callerOfKey(key, this.config.apiKeys);
    return caller ? { state: "ok", subject: caller, scopes: [], consumed: place } : { state: "invalid" };
  }

  #unverifiable(need: SchemeNeed): Promise<Check> {
    if (!this.#unverifiableLogged.has(need.name)) {
      this.#unverifiableLogged.add(need.name);
      log("error", "auth_scheme_unverifiable", { scheme: need.name, type: need.scheme.type });
    }
    return Promise.resolve({ state: "unverifiable" });
  }
}

type Verified = Extract<Check, { state: "ok" }>;

/** The caller of an alternative met in full: named by its first scheme, with every scope and consumed credential. */
function callerOf(alternative: readonly SchemeNeed[], results: readonly Verified[]): Caller {
  const [first] = results;
  const scheme = alternative[0]?.name;
  if (!first || scheme === undefined) throw new TypeError("an empty alternative identifies nobody");
  const consumed = results.flatMap((result) => (result.consumed ? [result.consumed] : []));
  const scopes = [...new Set(results.flatMap((result) => result.scopes))];
  return { scheme, subject: first.subject, scopes, consumed };
}
