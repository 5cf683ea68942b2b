// Parsers of the edge-authentication variables (AUTH_*). Like every parser,
// a message never repeats the value: AUTH_API_KEYS is a secret.
import * as z from "zod/mini";
import { reject } from "./declare";
import { listOf } from "./values";

/** Loopback hosts: the only ones where an http (not https) issuer or JWKS is accepted (local development, tests). */
const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/;

/**
 * The issuer (or JWKS) URL: https, or http on a loopback host. Tokens are only
 * as trustworthy as the keys fetched from it.
 */
export const trustedUrl = z.pipe(
  z.url({ protocol: /^https?$/, error: "expected an absolute https URL such as https://team.cloudflareaccess.com" }),
  z.transform((text, ctx) => {
    const url = new URL(text);
    if (url.protocol === "http:" && !LOOPBACK.test(url.hostname)) return reject(ctx, "must be https (http only on a loopback host)");
    if (url.username || url.password || url.hash) return reject(ctx, "expected a URL without credentials or fragment");
    return url.href;
  }),
);

/**
 * The issuer exactly as tokens name it (`iss`, compared as a string): checked
 * like a trusted URL, but kept as given (URL parsing would add a trailing slash).
 */
export const issuerUrl = z.pipe(
  z.string(),
  z.transform((text, ctx) => {
    const checked = trustedUrl.safeParse(text);
    if (!checked.success) return reject(ctx, checked.error.issues[0]?.message ?? "expected an https URL");
    return new URL(text).search ? reject(ctx, "expected an issuer URL without a query") : text;
  }),
);

/** Asymmetric JWS algorithms only: never `none`, never HMAC (a public key must never verify a MAC). */
const ASYMMETRIC = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"] as const;
export const jwtAlgorithms = listOf(z.enum(ASYMMETRIC, { error: `expected algorithms among ${ASYMMETRIC.join(", ")}` })).check(
  z.minLength(1, "expected at least one algorithm"),
);

/** RFC 9110 §5.1 field name, lower-cased. */
export const headerName = z.pipe(
  z.string().check(z.regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, "expected an HTTP header name such as Cf-Access-Jwt-Assertion")),
  z.transform((name) => name.toLowerCase()),
);

/** SHA-256 certificate fingerprints, as hex (colons and case ignored). */
export const fingerprints = z.pipe(
  listOf(
    z.pipe(
      z.transform((text: string) => text.replace(/:/g, "").toLowerCase()),
      z.string().check(z.regex(/^[0-9a-f]{64}$/, "expected SHA-256 fingerprints (64 hex digits)")),
    ),
  ),
  z.transform((list): ReadonlySet<string> => new Set(list)),
);
