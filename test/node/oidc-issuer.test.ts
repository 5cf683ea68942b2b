// The OpenID provider harness (test/support/oidc-issuer.ts, a real oidc-provider process)
// checked from outside, the way the worker will use it: discovery, then jwks_uri, then
// verifying client-credentials access tokens with jose (issuer, audience, scopes).
import { createLocalJWKSet, createRemoteJWKSet, decodeJwt, decodeProtectedHeader, type JSONWebKeySet, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchClientCredentialsToken, type OidcIssuer, requestToken, startOidcIssuer } from "../support/oidc-issuer";

const jwksOf = async (idp: OidcIssuer): Promise<JSONWebKeySet> => (await fetch(idp.jwksUrl)).json() as Promise<JSONWebKeySet>;
const kidsOf = (jwks: JSONWebKeySet) => jwks.keys.map((k) => k.kid);
/** A JWKS fetched now (no cache carried over from before a rotation). */
const freshJwks = (idp: OidcIssuer) => createRemoteJWKSet(new URL(idp.jwksUrl));

describe("OIDC issuer (RS256, default resources)", () => {
  let idp: OidcIssuer;

  beforeAll(async () => {
    idp = await startOidcIssuer();
  });
  afterAll(() => idp?.stop());

  it("announces itself and serves a discovery document naming its endpoints", async () => {
    expect(idp.issuer).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(idp.output()).toContain(`oidc-issuer listening ${idp.issuer}\n`);
    const response = await fetch(`${idp.issuer}/.well-known/openid-configuration`);
    expect(response.status).toBe(200);
    const discovery = (await response.json()) as Record<string, unknown>;
    expect(discovery).toMatchObject({ issuer: idp.issuer, jwks_uri: `${idp.issuer}/jwks`, token_endpoint: `${idp.issuer}/token` });
    expect(discovery.grant_types_supported).toContain("client_credentials");
    expect(discovery.token_endpoint_auth_methods_supported).toEqual(expect.arrayContaining(["client_secret_basic", "client_secret_post"]));
    expect(discovery.scopes_supported).toEqual(expect.arrayContaining(["a2a.read", "a2a.write"]));
    expect([idp.tokenUrl, idp.jwksUrl]).toEqual([discovery.token_endpoint, discovery.jwks_uri]);
    const jwks = await jwksOf(idp);
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).toMatchObject({ kty: "RSA", alg: "RS256", use: "sig" });
    expect(jwks.keys[0]).not.toHaveProperty("d");
  });

  it("issues a client-credentials JWT bound to the resource, verifiable from jwks_uri", async () => {
    const { clientId, clientSecret } = idp.clients.agent;
    const [resource] = idp.resources;
    const token = await fetchClientCredentialsToken({
      tokenUrl: idp.tokenUrl,
      clientId,
      clientSecret,
      scope: "a2a.read a2a.write",
      resource,
    });
    const header = decodeProtectedHeader(token);
    expect(header).toMatchObject({ alg: "RS256", typ: "at+jwt" });
    expect(kidsOf(await jwksOf(idp))).toEqual([header.kid]);

    const { payload } = await jwtVerify(token, freshJwks(idp), { issuer: idp.issuer, audience: resource, algorithms: ["RS256"] });
    expect(payload).toMatchObject({ iss: idp.issuer, aud: resource, sub: clientId, client_id: clientId, scope: "a2a.read a2a.write" });
    expect(payload.exp! - payload.iat!).toBe(300);
    // Bound to its audience: the same token is refused for another resource.
    await expect(jwtVerify(token, freshJwks(idp), { issuer: idp.issuer, audience: idp.resources[1] })).rejects.toMatchObject({
      code: "ERR_JWT_CLAIM_VALIDATION_FAILED",
      claim: "aud",
    });
  });

  it("authenticates clients by client_secret_post as well as HTTP Basic", async () => {
    const { clientId, clientSecret } = idp.clients.agent;
    const token = await fetchClientCredentialsToken({
      tokenUrl: idp.tokenUrl,
      clientId,
      clientSecret,
      resource: idp.resources[0],
      auth: "post",
    });
    const { payload } = await jwtVerify(token, freshJwks(idp), { issuer: idp.issuer, audience: idp.resources[0] });
    expect(payload.sub).toBe(clientId);
    // No scope asked for, none granted: the claim is absent, not empty.
    expect(payload).not.toHaveProperty("scope");
  });

  it("issues tokens for another resource with that audience", async () => {
    const token = await idp.token(idp.clients.agent, { resource: idp.resources[1] });
    const { payload } = await jwtVerify(token, freshJwks(idp), { issuer: idp.issuer, audience: idp.resources[1] });
    expect(payload.aud).toBe("https://other.example/");
    expect(payload.scope).toBe("a2a.read a2a.write");
  });

  it("gives the reader client a2a.read only, and refuses it a2a.write", async () => {
    const token = await idp.token(idp.clients.reader);
    const { payload } = await jwtVerify(token, freshJwks(idp), { issuer: idp.issuer, audience: idp.resources[0] });
    expect(payload).toMatchObject({ sub: "reader-client", scope: "a2a.read" });

    const { clientId, clientSecret } = idp.clients.reader;
    const refused = await requestToken({
      tokenUrl: idp.tokenUrl,
      clientId,
      clientSecret,
      scope: "a2a.read a2a.write",
      resource: idp.resources[0],
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: "invalid_scope", scope: "a2a.write" });
  });

  it("gives the scp client its scopes as an scp array instead of scope", async () => {
    const token = await idp.token(idp.clients.scp);
    const { payload } = await jwtVerify(token, freshJwks(idp), { issuer: idp.issuer, audience: idp.resources[0] });
    expect(payload.scp).toEqual(["a2a.read", "a2a.write"]);
    expect(payload).not.toHaveProperty("scope");
  });

  it("refuses an unknown resource, and without a resource issues an opaque token (not a JWT)", async () => {
    const { clientId, clientSecret } = idp.clients.agent;
    const unknown = await requestToken({ tokenUrl: idp.tokenUrl, clientId, clientSecret, resource: "https://elsewhere.example/" });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({ error: "invalid_target" });

    const opaque = await fetchClientCredentialsToken({ tokenUrl: idp.tokenUrl, clientId, clientSecret, scope: "a2a.read" });
    expect(opaque).not.toContain(".");
    expect(() => decodeJwt(opaque)).toThrow();
  });

  it("answers a wrong client secret with 401 invalid_client, by Basic and by post", async () => {
    for (const auth of ["basic", "post"] as const) {
      const response = await requestToken({
        tokenUrl: idp.tokenUrl,
        clientId: idp.clients.agent.clientId,
        clientSecret: "not-the-secret",
        scope: "a2a.read",
        resource: idp.resources[0],
        auth,
      });
      expect(response.status, auth).toBe(401);
      expect(await response.json(), auth).toMatchObject({ error: "invalid_client" });
    }
    await expect(
      fetchClientCredentialsToken({ tokenUrl: idp.tokenUrl, clientId: "agent-client", clientSecret: "nope", resource: idp.resources[0] }),
    ).rejects.toThrow(/answered 401/);
  });

  it("rotates keys: new tokens carry a kid the old JWKS lacks and verify against the refreshed one", async () => {
    const before = await jwksOf(idp);
    const oldToken = await idp.token(idp.clients.agent);
    const verifyOptions = { issuer: idp.issuer, audience: idp.resources[0] };

    const { kid, kids } = await idp.rotateKeys();
    expect(kidsOf(before)).not.toContain(kid);
    expect(kids).toEqual([kid, ...kidsOf(before)]);
    const newToken = await idp.token(idp.clients.agent);
    expect(decodeProtectedHeader(newToken).kid).toBe(kid);
    // A verifier holding the JWKS from before the rotation finds no key for it...
    await expect(jwtVerify(newToken, createLocalJWKSet(before), verifyOptions)).rejects.toMatchObject({ code: "ERR_JWKS_NO_MATCHING_KEY" });
    // ...the JWKS served now has it first, and still the old key: both tokens verify.
    expect(kidsOf(await jwksOf(idp))).toEqual(kids);
    expect((await jwtVerify(newToken, freshJwks(idp), verifyOptions)).protectedHeader.kid).toBe(kid);
    await jwtVerify(oldToken, freshJwks(idp), verifyOptions);

    // Retiring drops the earlier keys: tokens signed with them no longer verify.
    const retired = await idp.rotateKeys({ retire: true });
    expect(kidsOf(await jwksOf(idp))).toEqual([retired.kid]);
    await expect(jwtVerify(newToken, freshJwks(idp), verifyOptions)).rejects.toMatchObject({ code: "ERR_JWKS_NO_MATCHING_KEY" });
    await jwtVerify(await idp.token(idp.clients.agent), freshJwks(idp), verifyOptions);
  });
});

describe("OIDC issuer (ES256, chosen resource and lifetime)", () => {
  let idp: OidcIssuer;
  const resource = "http://127.0.0.1:8787/";

  beforeAll(async () => {
    idp = await startOidcIssuer({ alg: "ES256", resources: [resource], ttl: 120 });
  });
  afterAll(() => idp?.stop());

  it("signs with ES256 for the configured resource, with the configured lifetime", async () => {
    expect(idp.resources).toEqual([resource]);
    expect((await jwksOf(idp)).keys[0]).toMatchObject({ kty: "EC", crv: "P-256", alg: "ES256" });
    const token = await idp.token(idp.clients.agent);
    expect(decodeProtectedHeader(token)).toMatchObject({ alg: "ES256", typ: "at+jwt" });
    const { payload } = await jwtVerify(token, freshJwks(idp), { issuer: idp.issuer, audience: resource, algorithms: ["ES256"] });
    expect(payload.exp! - payload.iat!).toBe(120);
    // The default second resource is not configured here.
    const { clientId, clientSecret } = idp.clients.agent;
    const other = await requestToken({ tokenUrl: idp.tokenUrl, clientId, clientSecret, resource: "https://other.example/" });
    expect(other.status).toBe(400);
  });

  it("exits cleanly on SIGTERM", async () => {
    await idp.stop();
    expect(idp.exitCode()).toBe(0);
  });
});
