// JWT bearer tokens (RFC 6750) from an OpenID provider or Cloudflare Access:
// signature (jose), issuer, audience, expiry with 60 s of skew, asymmetric
// algorithms only. Keys come from the issuer's discovery document (its
// jwks_uri) or AUTH_JWT_JWKS_URL, fetched bounded in time and size, kept per
// isolate, and fetched again for an unknown `kid` at most once a minute. A
// request never waits on a fetch another request started (workerd can leave
// such a waiter hung): the key set is shared as data, and a request that needs
// keys nobody holds fetches them itself.
import { createLocalJWKSet, decodeProtectedHeader, errors, type JSONWebKeySet, type JWTPayload, jwtVerify } from "jose";
import type { Config } from "../config";
import { readBody } from "../http/body";
import { readJsonText } from "../json";
import { log } from "../log";
import type { FetchLike } from "../proxy/origin-router";

const CLOCK_SKEW_S = 60;
const REFETCH_COOLDOWN_MS = 60_000;
const FETCH_TIMEOUT_MS = 5_000;
const MAX_DOCUMENT_BYTES = 256 * 1024;

export type JwtCheck = { ok: true; subject: string; scopes: readonly string[] } | { ok: false };

type JwtConfig = Pick<Config, "jwtIssuer" | "jwtAudience" | "jwtJwksUrl" | "jwtAlgorithms">;

/** Scopes granted by a token: `scope` (space-separated, RFC 8693) or `scp` (an array, as Entra and Okta issue). */
function scopesOf(payload: JWTPayload): string[] {
  if (typeof payload.scope === "string") return payload.scope.split(" ").filter((s) => s !== "");
  if (Array.isArray(payload.scp)) return payload.scp.filter((s): s is string => typeof s === "string");
  return [];
}

export class JwtVerifier {
  #keys: { resolve: ReturnType<typeof createLocalJWKSet>; kids: ReadonlySet<string> } | undefined;
  #jwksUrl: string | undefined;
  #lastFetch = Number.NEGATIVE_INFINITY;
  /** When a fetch last failed with no keys held: the negative cooldown. */
  #lastFailure = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly config: JwtConfig & { jwtIssuer: string },
    private readonly fetchImpl: FetchLike,
    private readonly now: () => number = () => Date.now(),
  ) {
    this.#jwksUrl = config.jwtJwksUrl;
  }

  async verify(token: string): Promise<JwtCheck> {
    const kid = kidOf(token);
    const now = this.now();
    // No keys yet (unless the last try failed less than a minute ago: an issuer that is down is not asked
    // again on every call), or a kid they lack (a rotation): fetch, at most once a minute once keys are held.
    const due = this.#keys
      ? kid !== undefined && !this.#keys.kids.has(kid) && now - this.#lastFetch >= REFETCH_COOLDOWN_MS
      : now - this.#lastFailure >= REFETCH_COOLDOWN_MS;
    if (due) await this.#refresh();
    if (!this.#keys) return { ok: false };
    try {
      const { payload } = await jwtVerify(token, this.#keys.resolve, {
        issuer: this.config.jwtIssuer,
        audience: this.config.jwtAudience ? [...this.config.jwtAudience] : [],
        algorithms: [...this.config.jwtAlgorithms],
        clockTolerance: CLOCK_SKEW_S,
        requiredClaims: ["exp"],
      });
      return { ok: true, subject: typeof payload.sub === "string" ? payload.sub : "unknown", scopes: scopesOf(payload) };
    } catch (error) {
      if (!(error instanceof errors.JOSEError)) throw error;
      return { ok: false };
    }
  }

  async #refresh(): Promise<void> {
    this.#lastFetch = this.now();
    try {
      this.#jwksUrl ??= await this.#discover();
      const jwks = (await this.#fetchJson(this.#jwksUrl)) as JSONWebKeySet;
      if (!Array.isArray(jwks.keys)) throw new TypeError("no keys");
      const kids = new Set(jwks.keys.map((key) => key.kid).filter((k): k is string => typeof k === "string"));
      this.#keys = { resolve: createLocalJWKSet(jwks), kids };
    } catch (error) {
      this.#lastFailure = this.now();
      log("error", "auth_jwks_unavailable", { error: (error as Error).name });
    }
  }

  /** OpenID Connect Discovery 1.0 §4: `<issuer>/.well-known/openid-configuration`, its `jwks_uri`. */
  async #discover(): Promise<string> {
    const base = this.config.jwtIssuer.replace(/\/+$/, "");
    const document = (await this.#fetchJson(`${base}/.well-known/openid-configuration`)) as { jwks_uri?: unknown };
    if (typeof document.jwks_uri !== "string") throw new TypeError("no jwks_uri");
    const url = new URL(document.jwks_uri);
    // The keys must come from as trusted a place as the issuer itself.
    if (url.protocol !== "https:" && url.hostname !== new URL(base).hostname) throw new TypeError("jwks_uri not https");
    return url.href;
  }

  async #fetchJson(url: string): Promise<unknown> {
    const response = await this.fetchImpl(url, {
      headers: { accept: "application/json" },
      redirect: "manual",
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
    });
    if (!response.ok) {
      void response.body?.cancel();
      throw new TypeError(`HTTP ${response.status}`);
    }
    const read = await readBody(response.body, { maxBytes: MAX_DOCUMENT_BYTES, timeoutMs: FETCH_TIMEOUT_MS, excess: "cancel" });
    if (!read.ok) throw new TypeError(read.reason);
    const json = readJsonText(new TextDecoder().decode(read.bytes));
    if ("error" in json) throw new TypeError(json.duplicate ? "duplicate_key" : "not_json");
    return json.value;
  }
}

/** The `kid` of a compact JWS header, without verifying anything (only to choose whether to refresh keys). */
function kidOf(token: string): string | undefined {
  try {
    return decodeProtectedHeader(token).kid;
  } catch {
    return undefined;
  }
}
