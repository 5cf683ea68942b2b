// The HTTP+JSON binding in the card: with REST_PATH every variant
// advertises it beside JSON-RPC, for each served version, valid against the
// official schemas; PREFERRED_BINDING decides which comes first.
import { describe, expect, it } from "vitest";
import { captureConsole } from "../support/console";
import { schemaErrors } from "../support/schemas";
import { call, makeEnv } from "../support/worker";

const HOST = "https://agents.example.com";
const card = async (vars: Record<string, string>, version: string) =>
  (await (await call(`${HOST}/.well-known/agent-card.json`, { headers: { "A2A-Version": version } }, makeEnv(vars))).json()) as any;

describe("the REST binding in the card", () => {
  it("lists JSON-RPC then HTTP+JSON for each version, in every variant", async () => {
    const v1 = await card({ REST_PATH: "/rest" }, "1.0");
    expect(schemaErrors.v1Card(v1)).toEqual([]);
    expect(v1.supportedInterfaces.map((i: any) => `${i.protocolVersion} ${i.protocolBinding} ${i.url}`)).toEqual([
      `1.0 JSONRPC ${HOST}/`,
      `1.0 HTTP+JSON ${HOST}/rest`,
      `0.3 JSONRPC ${HOST}/`,
      `0.3 HTTP+JSON ${HOST}/rest`,
    ]);
    const v03 = await card({ REST_PATH: "/rest" }, "0.3");
    expect(schemaErrors.v03Card(v03)).toEqual([]);
    expect(v03).toMatchObject({ url: `${HOST}/`, preferredTransport: "JSONRPC" });
    expect(v03.additionalInterfaces).toEqual([
      { url: `${HOST}/`, transport: "JSONRPC" },
      { url: `${HOST}/rest`, transport: "HTTP+JSON" },
    ]);
  });

  it("puts HTTP+JSON first with PREFERRED_BINDING=HTTP+JSON, and advertises no REST without REST_PATH", async () => {
    const v03 = await card({ REST_PATH: "/rest", PREFERRED_BINDING: "HTTP+JSON" }, "0.3");
    expect(v03).toMatchObject({ url: `${HOST}/rest`, preferredTransport: "HTTP+JSON" });
    const v1 = await card({ REST_PATH: "/rest", PREFERRED_BINDING: "HTTP+JSON" }, "1.0");
    expect(v1.supportedInterfaces[0]).toMatchObject({ protocolBinding: "HTTP+JSON", protocolVersion: "1.0" });
    expect(JSON.stringify(await card({}, "1.0"))).not.toContain("HTTP+JSON");
  });

  it("puts INTERFACE_TENANT on every 1.0 interface (clients then send it), and refuses a tenant that is not a path segment", async () => {
    const logs = captureConsole();
    const v1 = await card({ REST_PATH: "/rest", INTERFACE_TENANT: "acme" }, "1.0");
    expect(schemaErrors.v1Card(v1)).toEqual([]);
    expect(v1.supportedInterfaces.map((i: any) => i.tenant)).toEqual(["acme", "acme", "acme", "acme"]);
    const response = await call(`${HOST}/.well-known/agent-card.json`, {}, makeEnv({ INTERFACE_TENANT: "a/b" }));
    expect(response.status).toBe(500);
    expect(await response.text()).toContain("INTERFACE_TENANT");
    expect(logs.events().map((e) => [e.event, e.issues])).toEqual([
      ["config_invalid", "INTERFACE_TENANT: expected a tenant of letters, digits and -._~ (at most 128)"],
    ]);
  });

  it("shows every interface with its binding on the page", async () => {
    const html = await (await call(`${HOST}/`, { headers: { accept: "text/html" } }, makeEnv({ REST_PATH: "/rest" }))).text();
    expect(html.match(/HTTP\+JSON/g)?.length).toBe(2); // one row per served version
    expect(html).toContain(`${HOST}/rest`);
  });

  it("refuses a REST_PATH that overlaps the other paths, naming it", async () => {
    const logs = captureConsole();
    for (const REST_PATH of ["/", "/.well-known/rest", "/_admin/rest"]) {
      const response = await call(`${HOST}/.well-known/agent-card.json`, {}, makeEnv({ REST_PATH, ADMIN_TOKEN: "x".repeat(32) }));
      expect(response.status, REST_PATH).toBe(500);
      expect(await response.text(), REST_PATH).toContain("REST_PATH");
    }
    expect(logs.events().map((e) => [e.event, e.issues])).toEqual(
      Array(3).fill(["config_invalid", "REST_PATH: must be its own path, apart from RPC_PATH, ADMIN_PATH and /.well-known/ (e.g. /rest)"]),
    );
  });
});
