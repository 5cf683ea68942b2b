// Everything the card code emits, as text, for fixed inputs: every variant of
// the bundled and kitchen-sink documents (and {}), cards read from origin cards
// (passthrough), publicized extended cards, the @a2a-js/sdk payloads, signed
// cards (Ed25519 signatures are deterministic) and the human page. Captured once
// from main into test/fixtures/golden-outputs.json (test/support/capture-golden.ts
// wrote it), and compared byte for byte by test/worker/golden.test.ts, so a
// refactoring of the card code cannot change a single byte unnoticed.

import type { SchemeEnforcement } from "../../src/auth/edge-auth";
import { requirementsOf } from "../../src/auth/requirements";
import { buildCard, type CardEndpoint } from "../../src/card/build-card";
import { publicizeCard, sourceFromCard } from "../../src/card/from-origin";
import { type CardSource, parseCardSource } from "../../src/card/source";
import { CARD_VARIANTS } from "../../src/card/variant";
import { jsonObject } from "../../src/json";
import { a2aJsPayload } from "../../src/sign/a2a-js-payload";
import { importSigner, parsePrivateJwk } from "../../src/sign/keys";
import { signCard } from "../../src/sign/sign";
import { renderCardPage } from "../../src/view/page-response";
import kitchenSink from "../fixtures/kitchen-sink.json";
import bundled from "../fixtures/sample-card.json";
import { pageCard } from "./page-card";

/** A throwaway test key (never used anywhere else). */
const GOLDEN_KEY = {
  kty: "OKP",
  crv: "Ed25519",
  x: "cOQ0UapY-M1gVdq0btewvGhwGjIM3zpKmid8S6JOPl0",
  d: "sV-Arn-gz89g3wkMr-opZzHJK5zlqqw8_h6uAaIx3Mw",
  kid: "golden",
};

const PRIVATE = "http://10.9.8.7:9000";
const PUBLIC = "https://agents.example.com";

function source(doc: unknown): CardSource {
  const parsed = parseCardSource(doc);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  return parsed.value;
}

const documents: Record<string, unknown> = { empty: {}, bundled, kitchenSink };
const endpoints: Record<string, CardEndpoint> = {
  "1.0+0.3": { rpcUrl: `${PUBLIC}/a2a`, protocolVersions: ["1.0", "0.3"] },
  "0.3+1.0": { rpcUrl: `${PUBLIC}/`, protocolVersions: ["0.3", "1.0"] },
  "1.0": { rpcUrl: `${PUBLIC}/`, protocolVersions: ["1.0"] },
  allowlist: { rpcUrl: `${PUBLIC}/`, protocolVersions: ["1.0", "0.3"], skillAllowlist: ["Minimal", "Flight search", "!!!", "nope"] },
};

/** Origin cards in every shape passthrough mode meets, including malformed members. */
function originCards(): Record<string, unknown> {
  const sink = source(kitchenSink);
  const privateEndpoint = { rpcUrl: `${PRIVATE}/`, protocolVersions: ["1.0", "0.3"] };
  return {
    v1: buildCard(sink, privateEndpoint, "v1"),
    v03: buildCard(sink, privateEndpoint, "v0.3"),
    hybrid: buildCard(sink, privateEndpoint, "hybrid"),
    bundledV1: buildCard(source(bundled), privateEndpoint, "v1"),
    passthrough: {
      name: "Private Origin Agent",
      description: "Lives behind the edge.",
      version: "3.1.0",
      provider: { organization: "Origin Org", url: `${PRIVATE}/about` },
      documentationUrl: `${PRIVATE}/docs`,
      supportedInterfaces: [
        { url: `${PRIVATE}/`, protocolBinding: "JSONRPC", protocolVersion: "1.0" },
        { url: `${PRIVATE}/grpc`, protocolBinding: "GRPC", protocolVersion: "1.0" },
        { url: `${PRIVATE}/`, protocolBinding: "JSONRPC", protocolVersion: "0.3" },
      ],
      capabilities: { streaming: true, extendedAgentCard: true },
      securitySchemes: {
        bearer: { httpAuthSecurityScheme: { scheme: "bearer" } },
        key: { apiKeySecurityScheme: { location: "header", name: "X-Key" } },
      },
      securityRequirements: [{ schemes: { bearer: {} } }],
      defaultInputModes: ["text/plain"],
      defaultOutputModes: ["text/plain"],
      skills: [
        {
          id: "echo",
          name: "Echo",
          description: "Echoes",
          tags: ["echo"],
          securityRequirements: [{ schemes: { key: { list: ["read"] } } }],
        },
      ],
      signatures: [{ protected: "e30", signature: "AA" }],
    },
    tolerated: {
      name: "Odd Agent",
      description: "",
      iconUrl: "",
      supportedInterfaces: [
        null,
        3,
        { url: `${PRIVATE}/x`, protocolBinding: "JSONRPC", protocolVersion: "2.0" },
        { protocolBinding: "JSONRPC", protocolVersion: 1 },
      ],
      additionalInterfaces: [{ url: `${PRIVATE}/y`, transport: "GRPC" }],
      capabilities: { streaming: "yes", pushNotifications: true, extensions: [{ uri: "urn:x", params: { a: 1 }, required: "yes" }] },
      supportsAuthenticatedExtendedCard: true,
      securitySchemes: {
        typed: { type: "mutualTLS" },
        wrapped: { mtlsSecurityScheme: {} },
        oidc: {
          openIdConnectSecurityScheme: { openIdConnectUrl: "https://id.example/.well-known/openid-configuration", description: "d" },
        },
      },
      securityRequirements: [{ schemes: { typed: { list: [] }, oidc: {} } }, {}],
      security: [{ wrapped: [] }],
      defaultInputModes: [],
      skills: [
        { id: "only-id", tags: [], examples: ["e"], security: [{ wrapped: ["s"] }] },
        "not a skill",
        { name: "N", securityRequirements: [] },
      ],
    },
    passthroughMalformed: {
      name: "Private Origin Agent",
      provider: { organization: 5 },
      description: "Lives behind the edge.",
      version: "3.1.0",
      documentationUrl: `${PRIVATE}/docs`,
      supportedInterfaces: [
        { url: `${PRIVATE}/`, protocolBinding: "JSONRPC", protocolVersion: "1.0" },
        { url: `${PRIVATE}/grpc`, protocolBinding: "GRPC", protocolVersion: "1.0" },
        { url: `${PRIVATE}/`, protocolBinding: "JSONRPC", protocolVersion: "0.3" },
        { url: `${PRIVATE}/`, protocolBinding: "JSONRPC", protocolVersion: "1.0.1" },
        null,
      ],
      capabilities: { streaming: true, extendedAgentCard: true, extensions: [{ uri: "urn:x", params: { a: 1 }, required: "yes" }, 7] },
      securitySchemes: {
        bearer: { httpAuthSecurityScheme: { scheme: "bearer" } },
        key: { apiKeySecurityScheme: { location: "header", name: "X-Key" } },
        typed: { type: "mutualTLS" },
        unknown: { somethingElse: {} },
      },
      securityRequirements: [{ schemes: { bearer: {} } }],
      defaultInputModes: ["text/plain"],
      defaultOutputModes: [],
      skills: [
        {
          id: "echo",
          name: "Echo",
          description: "Echoes",
          tags: ["echo"],
          securityRequirements: [{ schemes: { key: { list: ["read"] } } }],
        },
        { id: "only-id", tags: [], examples: ["e"], security: [{ bearer: [] }] },
        "not a skill",
      ],
      signatures: [{ protected: "e30", signature: "AA" }],
    },
    legacy03: {
      name: "Old Agent",
      description: "",
      url: `${PRIVATE}/rpc`,
      protocolVersion: "0.3.0",
      supportsAuthenticatedExtendedCard: true,
      securitySchemes: { key: { type: "apiKey", in: "query", name: "k" } },
      security: [{ key: [] }],
      capabilities: { stateTransitionHistory: true },
      skills: [],
    },
    invalid: { name: "", description: 3, skills: "none" },
    badSchemes: { name: "X", description: "d", skills: [], securitySchemes: { s: { type: "nope" } } },
    notObject: [1, 2],
  };
}

function publicized(cards: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, card] of Object.entries(cards)) {
    const object = jsonObject(card);
    if (!object) continue;
    const result = publicizeCard(object, [PRIVATE], PUBLIC, `${PUBLIC}/rpc`);
    out[`publicize/${name}`] = JSON.stringify(result);
  }
  return out;
}

export async function goldenOutputs(): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const signer = await importSigner(parsePrivateJwk(GOLDEN_KEY));
  for (const [docName, doc] of Object.entries(documents)) {
    const src = source(doc);
    for (const [endpointName, endpoint] of Object.entries(endpoints)) {
      for (const variant of CARD_VARIANTS) {
        const key = `${docName}/${endpointName}/${variant}`;
        const card = buildCard(src, endpoint, variant);
        out[`card/${key}`] = JSON.stringify(card);
        out[`a2a-js/${key}`] = a2aJsPayload(card);
        if (endpointName === "1.0+0.3" || docName === "kitchenSink") {
          out[`signed/${key}`] = JSON.stringify(await signCard(card, signer, `${PUBLIC}/.well-known/jwks.json`));
        }
      }
    }
    const v1 = buildCard(src, endpoints["1.0+0.3"]!, "v1");
    const signedV1 = await signCard(v1, signer, `${PUBLIC}/.well-known/jwks.json`);
    // Every enforcement the page can state: the first required scheme checked at the edge, the next left to the origin, the rest refused.
    const states: SchemeEnforcement[] = ["edge", "origin"];
    const names = [...new Set(requirementsOf(src).flatMap((alternative) => alternative.map((need) => need.name)))];
    const enforcement = Object.fromEntries(names.map((name, i) => [name, states[i] ?? "closed"]));
    const context = { cardUrl: `${PUBLIC}/.well-known/agent-card.json`, enforcement, pushRelayed: false };
    out[`page/${docName}`] = await renderCardPage(pageCard(v1), context, 300).text();
    out[`page/${docName}/signed`] = await renderCardPage(pageCard(signedV1), context, 300).text();
  }
  const cards = originCards();
  for (const [name, card] of Object.entries(cards)) {
    const read = sourceFromCard(card);
    out[`from-origin/${name}`] = JSON.stringify(read);
    if (!read.ok) continue;
    const endpoint = { rpcUrl: `${PUBLIC}/`, protocolVersions: read.value.protocolVersions };
    for (const variant of CARD_VARIANTS) {
      const built = buildCard(read.value.source, endpoint, variant);
      out[`from-origin/${name}/${variant}`] = JSON.stringify(publicizeCard(built, read.value.advertisedOrigins, PUBLIC, `${PUBLIC}/`));
    }
  }
  return { ...out, ...publicized(cards) };
}
