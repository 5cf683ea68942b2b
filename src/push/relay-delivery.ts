// One relayed notification as the client's webhook receives it, and when to try again. The request carries
// what A2A asks of a push notification (the config's `token` as X-A2A-Notification-Token, its
// `authentication` as Authorization) and a JWT the edge signs, as the A2A push-notification samples do
// (`Authorization: Bearer`, claims `iat` and `request_body_sha256`), verifiable against the worker's
// /.well-known/jwks.json: the client trusts the edge, not a private host it cannot see.
import { joinUrl } from "../http/urls";
import { isJsonObject } from "../json";
import { JWKS_PATH } from "../sign/card-signer";
import type { Signer } from "../sign/keys";
import { compactJws } from "../sign/sign";
import type { ClientWebhook } from "./relay-configs";

/** How long the edge's JWT is good for: a receiver refuses a replayed delivery after this. */
const JWT_LIFETIME_S = 300;

/** The header the edge's JWT is always in (and in Authorization when the config names no credentials of its own). */
const RELAY_JWT_HEADER = "A2A-Notification-JWT";

const hex = (bytes: ArrayBuffer) => [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");

/** `Authorization` from the config's own credentials: 1.0 `{scheme, credentials}`, 0.3 `{schemes: [...], credentials}`. */
function clientAuthorization(authentication: unknown): string | undefined {
  if (!isJsonObject(authentication) || typeof authentication.credentials !== "string") return undefined;
  const schemes = Array.isArray(authentication.schemes) ? authentication.schemes : [];
  const scheme = typeof authentication.scheme === "string" ? authentication.scheme : schemes.find((s) => typeof s === "string");
  return typeof scheme === "string" && scheme !== "" ? `${scheme} ${authentication.credentials}` : undefined;
}

/** The edge's JWT for one delivery: `iss` the public base that relays it, `aud` the webhook, the body's digest. */
export async function deliveryJwt(signer: Signer, issuer: string, url: string, body: string, nowMs: number): Promise<string> {
  const iat = Math.floor(nowMs / 1000);
  const digest = hex(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(body)));
  const claims = { iss: issuer, aud: url, iat, exp: iat + JWT_LIFETIME_S, jti: crypto.randomUUID(), request_body_sha256: digest };
  return compactJws(signer, { alg: signer.alg, kid: signer.kid, typ: "JWT", jku: joinUrl(issuer, JWKS_PATH) }, claims);
}

/** The headers of a delivery to the client's webhook. */
export function deliveryHeaders(client: ClientWebhook, contentType: string, jwt: string): Headers {
  const headers = new Headers({ "content-type": contentType, [RELAY_JWT_HEADER]: jwt });
  headers.set("authorization", clientAuthorization(client.authentication) ?? `Bearer ${jwt}`);
  if (client.token !== undefined) headers.set("x-a2a-notification-token", client.token);
  return headers;
}

/** When attempt `attempts + 1` is due after `attempts` failures: PUSH_RELAY_RETRY_MS, doubling, at most an hour apart. */
export function retryDelayMs(firstMs: number, attempts: number): number {
  return Math.min(firstMs * 2 ** Math.max(0, attempts - 1), 3_600_000);
}
