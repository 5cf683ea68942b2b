import { createExecutionContext } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { captureConsole } from "../support/console";
import { nullPaths, schemaErrors } from "../support/schemas";
import { CARD, call, LEGACY, makeEnv } from "../support/worker";

const HOST = "https://agents.example.com";

async function card(path = CARD, headers: Record<string, string> = {}, overrides = {}, host = HOST) {
  const response = await call(host + path, { headers }, makeEnv(overrides));
  const body = response.status === 200 ? ((await response.json()) as Record<string, any>) : undefined;
  return { response, body: body! };
}

async function sha256Etag(bytes: ArrayBuffer): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)).subarray(0, 16);
  return `"${[...digest].map((b) => b.toString(16).padStart(2, "0")).join("")}"`;
}

describe("variants", () => {
  it("serves the hybrid card without A2A-Version: valid 0.3 plus 1.0 interfaces", async () => {
    const { response, body } = await card();
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(schemaErrors.v03Card(body)).toEqual([]);
    expect(body.supportedInterfaces).toHaveLength(2);
    for (const i of body.supportedInterfaces) expect(schemaErrors.v1Interface(i)).toEqual([]);
    expect(nullPaths(body)).toEqual([]);
  });

  it.each(["1.0", "1", "1.1", " 1.0 , 0.3"])("serves the strict 1.0 card for A2A-Version: %s", async (version) => {
    const { body } = await card(CARD, { "A2A-Version": version });
    expect(schemaErrors.v1Card(body)).toEqual([]);
    expect(body).not.toHaveProperty("url");
  });

  it("serves the 0.3 card for A2A-Version: 0.3 (no 1.0 fields)", async () => {
    const { body } = await card(CARD, { "A2A-Version": "0.3" });
    expect(schemaErrors.v03Card(body)).toEqual([]);
    expect(body.protocolVersion).toBe("0.3.0");
    expect(body).not.toHaveProperty("supportedInterfaces");
  });

  it("accepts the version as a query parameter (A2A 1.0 §3.6)", async () => {
    const { body } = await card(`${CARD}?A2A-Version=1.0`);
    expect(schemaErrors.v1Card(body)).toEqual([]);
  });

  it.each(["", "banana", "v1", "1.0.0.0"])("falls back to the default for an unreadable A2A-Version %j", async (version) => {
    const { body } = await card(CARD, { "A2A-Version": version });
    expect(body).toHaveProperty("url");
    expect(body).toHaveProperty("supportedInterfaces");
  });

  it("serves strict 1.0 by default with CARD_COMPAT=strict, and 0.3 still on request", async () => {
    const strict = await card(CARD, {}, { CARD_COMPAT: "strict" });
    expect(schemaErrors.v1Card(strict.body)).toEqual([]);
    const old = await card(CARD, { "A2A-Version": "0.3" }, { CARD_COMPAT: "strict" });
    expect(old.body.protocolVersion).toBe("0.3.0");
  });

  it("serves the legacy path in the 0.3 shape with url and supportedInterfaces, whatever the header", async () => {
    for (const headers of [{}, { "A2A-Version": "1.0" }, { "A2A-Version": "0.3" }] as Record<string, string>[]) {
      const { response, body } = await card(LEGACY, headers, { CARD_COMPAT: "strict" });
      expect(response.status).toBe(200);
      expect(schemaErrors.v03Card(body)).toEqual([]);
      expect(body.url).toBe(`${HOST}/`);
      expect(body.supportedInterfaces[0]).toEqual({ url: `${HOST}/`, protocolBinding: "JSONRPC", protocolVersion: "1.0" });
      expect(response.headers.get("vary")).toBe("Accept");
    }
  });

  it("answers the same from the worker's fast path and from the router", async () => {
    const workerEnv = makeEnv();
    for (const path of [CARD, LEGACY, `${CARD}?A2A-Version=0.3`]) {
      const viaWorker = await call(HOST + path, {}, workerEnv);
      const viaRouter = await createApp().fetch(new Request(HOST + path), workerEnv, createExecutionContext());
      expect(await viaRouter.text()).toBe(await viaWorker.text());
      expect([...viaRouter.headers]).toEqual([...viaWorker.headers]);
    }
  });

  it("answers through the deployed entrypoint too", async () => {
    const response = await exports.default.fetch(`${HOST}${CARD}`, { headers: { "A2A-Version": "1.0" } });
    expect(response.status).toBe(200);
    expect(schemaErrors.v1Card(await response.json())).toEqual([]);
  });
});

describe("URLs from the public request", () => {
  it("builds every URL from the host the client used", async () => {
    for (const host of ["https://agents.example.com", "https://eu.agents.example.net", "http://127.0.0.1:8787"]) {
      const { body } = await card(CARD, {}, {}, host);
      const urls = [body.url, ...body.additionalInterfaces.map((i: any) => i.url), ...body.supportedInterfaces.map((i: any) => i.url)];
      expect(new Set(urls)).toEqual(new Set([`${host}/`]));
    }
  });

  it("appends RPC_PATH", async () => {
    const { body } = await card(CARD, { "A2A-Version": "1.0" }, { RPC_PATH: "/a2a/v1/" });
    expect(body.supportedInterfaces[0].url).toBe(`${HOST}/a2a/v1`);
  });

  it("uses PUBLIC_BASE_URL over the request host", async () => {
    const { body } = await card(CARD, {}, { PUBLIC_BASE_URL: "https://public.example.org/agents/" }, "http://internal:8080");
    expect(body.url).toBe("https://public.example.org/agents/");
  });

  it("ignores spoofed X-Forwarded-* by default (no cache poisoning)", async () => {
    const plain = await call(HOST + CARD);
    const spoofed = await call(HOST + CARD, {
      headers: {
        "X-Forwarded-Host": "evil.example",
        "X-Forwarded-Proto": "http",
        "X-Forwarded-Prefix": "/x",
        Forwarded: "host=evil.example",
      },
    });
    expect(await spoofed.text()).toBe(await plain.text());
    expect(spoofed.headers.get("etag")).toBe(plain.headers.get("etag"));
  });

  it("honours X-Forwarded-Host/Proto/Prefix with TRUST_FORWARDED_HEADERS=true", async () => {
    const { body } = await card(
      CARD,
      { "X-Forwarded-Host": "gw.example.com, inner.local", "X-Forwarded-Proto": "https", "X-Forwarded-Prefix": "/team-a" },
      { TRUST_FORWARDED_HEADERS: "true", RPC_PATH: "/rpc" },
      "http://10.0.0.5:8080",
    );
    expect(body.url).toBe("https://gw.example.com/team-a/rpc");
  });

  it.each([
    ["a host with a path", { "X-Forwarded-Host": "evil.example/steal" }],
    ["a host with userinfo", { "X-Forwarded-Host": "user@evil.example" }],
    ["a host with spaces", { "X-Forwarded-Host": "evil example" }],
    ["an oversized host", { "X-Forwarded-Host": `${`${"a".repeat(63)}.`.repeat(5)}com` }],
    ["a script scheme", { "X-Forwarded-Proto": "javascript" }],
    ["a traversal prefix", { "X-Forwarded-Prefix": "/../admin" }],
  ])("ignores a trusted but malformed forwarded value: %s", async (_name, headers) => {
    const { body } = await card(CARD, headers, { TRUST_FORWARDED_HEADERS: "true" });
    expect(body.url).toBe(`${HOST}/`);
  });
});

describe("HTTP caching", () => {
  it("sends Cache-Control with max-age and stale-while-revalidate (configurable)", async () => {
    expect((await card()).response.headers.get("cache-control")).toBe("public, max-age=300, stale-while-revalidate=600");
    const tuned = await card(CARD, {}, { CARD_MAX_AGE: "60", CARD_STALE_WHILE_REVALIDATE: "0" });
    expect(tuned.response.headers.get("cache-control")).toBe("public, max-age=60, stale-while-revalidate=0");
  });

  it("sends a strong ETag over the exact body bytes, different per variant and per host", async () => {
    const etags = new Set<string>();
    for (const [host, headers] of [
      [HOST, {}],
      [HOST, { "A2A-Version": "1.0" }],
      [HOST, { "A2A-Version": "0.3" }],
      ["https://other.example.com", {}],
    ] as const) {
      const response = await call(host + CARD, { headers });
      const etag = response.headers.get("etag")!;
      expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
      expect(etag).toBe(await sha256Etag(await response.arrayBuffer()));
      etags.add(etag);
    }
    expect(etags.size).toBe(4);
    expect((await card()).response.headers.get("vary")).toBe("A2A-Version, Accept");
  });

  it("answers If-None-Match with 304 and an empty body", async () => {
    const first = await call(HOST + CARD, { headers: { "A2A-Version": "1.0" } });
    const etag = first.headers.get("etag")!;
    for (const inm of [etag, `W/${etag}`, `"other", ${etag}`, "*"]) {
      const again = await call(HOST + CARD, { headers: { "A2A-Version": "1.0", "If-None-Match": inm } });
      expect(again.status).toBe(304);
      expect(await again.text()).toBe("");
      expect(again.headers.get("etag")).toBe(etag);
      expect(again.headers.get("cache-control")).toContain("max-age=");
    }
    // The 1.0 validator does not match the hybrid variant.
    const other = await call(HOST + CARD, { headers: { "If-None-Match": etag } });
    expect(other.status).toBe(200);
  });

  it("answers HEAD with the GET headers and no body", async () => {
    const get = await call(HOST + CARD);
    const head = await call(HOST + CARD, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    for (const name of ["etag", "cache-control", "content-type", "vary", "access-control-allow-origin"]) {
      expect(head.headers.get(name)).toBe(get.headers.get(name));
    }
    expect((await call(HOST + LEGACY, { method: "HEAD" })).status).toBe(200);
  });
});

describe("CORS and errors", () => {
  it("allows any origin to read the card, never with credentials", async () => {
    const response = await call(HOST + CARD, { headers: { Origin: "https://inspector.example", Cookie: "session=1" } });
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("access-control-allow-credentials")).toBeNull();
    expect(response.headers.get("access-control-allow-methods")).toBeNull();
  });

  it("answers a CORS preflight on both card paths", async () => {
    for (const path of [CARD, LEGACY]) {
      const response = await call(HOST + path, {
        method: "OPTIONS",
        headers: {
          Origin: "https://inspector.example",
          "Access-Control-Request-Method": "GET",
          "Access-Control-Request-Headers": "a2a-version",
        },
      });
      expect(response.status).toBe(204);
      expect(response.headers.get("access-control-allow-origin")).toBe("*");
      expect(response.headers.get("access-control-allow-headers")).toContain("A2A-Version");
      expect(response.headers.get("access-control-allow-methods")).toBe("GET,HEAD,OPTIONS");
    }
  });

  it("answers other paths with a JSON 404", async () => {
    for (const path of ["/x", "/.well-known/", "/.well-known/agent-card.json/x", "/agent-card.json"]) {
      const response = await call(HOST + path);
      expect(response.status).toBe(404);
      expect(response.headers.get("content-type")).toBe("application/json");
      expect(await response.json()).toEqual({
        error: {
          code: 404,
          status: "NOT_FOUND",
          message: "Not found",
          details: [{ "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "NOT_FOUND", domain: "agent-card-edge" }],
        },
      });
    }
  });

  it("answers other methods on the card paths with 405 and Allow", async () => {
    for (const method of ["POST", "PUT", "DELETE", "PATCH"]) {
      for (const path of [CARD, LEGACY]) {
        const response = await call(HOST + path, { method, body: method === "DELETE" ? undefined : "{}" });
        expect(response.status).toBe(405);
        expect(response.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
        expect(await response.json()).toMatchObject({ error: { code: 405, status: "METHOD_NOT_ALLOWED" } });
      }
    }
  });

  it("reports a bad configuration by variable name, without echoing the value", async () => {
    const logs = captureConsole();
    const response = await call(HOST + CARD, {}, makeEnv({ CARD_MAX_AGE: "soon-ish", PUBLIC_BASE_URL: "ftp://secret-host" }));
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(text).toContain("CARD_MAX_AGE");
    expect(text).toContain("PUBLIC_BASE_URL");
    expect(text).not.toContain("soon-ish");
    expect(text).not.toContain("secret-host");
    // Logged the same way: the names, never the values.
    expect(logs.events().map((e) => [e.level, e.event])).toEqual([["error", "config_invalid"]]);
    expect(logs.events("config_invalid")[0]!.issues).toMatch(/^PUBLIC_BASE_URL: .*; CARD_MAX_AGE: /);
    expect(logs.lines.join("\n")).not.toMatch(/soon-ish|secret-host/);
  });
});
