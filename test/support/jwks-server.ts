// A stand-in for the edge's keys: an ES256 key pair whose public half is served at
// `<base>/.well-known/jwks.json` on 127.0.0.1, as the worker serves its own, and JWTs signed with it (or
// with another key under the same kid, for a signature that must not verify). For the tests of what
// verifies the edge's JWTs without a worker: the origin's caller assertions, the receiver's notifications.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { type CryptoKey, exportJWK, generateKeyPair, type JWTPayload, SignJWT } from "jose";
import { outlastClients } from "./keep-alive";

export interface JwksServer {
  /** The edge's base: `http://127.0.0.1:PORT`, no trailing slash (the `iss` of its root agent). */
  base: string;
  jwksUrl: string;
  kid: string;
  /** How many times the JWKS was fetched. */
  fetches: () => number;
  /** A JWT with these claims; `expiresIn` in seconds (negative: already expired), `key: "other"` signs with a key the JWKS does not hold. */
  sign(claims: JWTPayload, options?: { expiresIn?: number; key?: "own" | "other"; kid?: string }): Promise<string>;
  stop(): Promise<void>;
}

export async function startJwksServer(): Promise<JwksServer> {
  const kid = "test-edge-key";
  const own = await generateKeyPair("ES256", { extractable: true });
  const other = await generateKeyPair("ES256");
  const jwks = JSON.stringify({ keys: [{ ...(await exportJWK(own.publicKey)), kid, alg: "ES256", use: "sig" }] });
  let fetches = 0;
  const server = createServer((req, res) => {
    if (req.url !== "/.well-known/jwks.json") return void res.writeHead(404).end();
    fetches++;
    res.writeHead(200, { "content-type": "application/json" }).end(jwks);
  });
  await new Promise<void>((resolve) => outlastClients(server).listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    jwksUrl: `${base}/.well-known/jwks.json`,
    kid,
    fetches: () => fetches,
    sign(claims, options = {}) {
      const now = Math.floor(Date.now() / 1000);
      const exp = now + (options.expiresIn ?? 60);
      const key: CryptoKey = options.key === "other" ? other.privateKey : own.privateKey;
      return new SignJWT({ iat: Math.min(now, exp - 60), exp, ...claims })
        .setProtectedHeader({ alg: "ES256", kid: options.kid ?? kid })
        .sign(key);
    },
    stop: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
