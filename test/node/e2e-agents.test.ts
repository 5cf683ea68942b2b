// Agents by path end to end, real processes: two @a2a-js/sdk 1.3 origin agents, the worker as
// deployed (the built bundle in workerd) in front of both on one host (its AgentIndex and DocumentLog Durable Objects, local KV),
// their documents written through the admin API under `127.0.0.1/travel` and `127.0.0.1/billing`; the
// @a2a-js/sdk clients of both generations, given the agent's card URL from the host's catalog, reach
// that agent's origin with that agent's credentials alone; the host's catalogs (ARD's manifest too) list both.
import { randomUUID } from "node:crypto";
import { SendMessageRequest, TaskState } from "@a2a-js/sdk";
import { ClientFactory } from "@a2a-js/sdk/client";
import { ClientFactory as ClientFactory03 } from "a2a-sdk-03/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureConsole } from "../support/console";
import { type Served, startWorker } from "../support/e2e";
import { type OriginAgent, startOriginAgent } from "../support/origin-agent";
import { schemaErrors } from "../support/schemas";

const ADMIN_TOKEN = "e2e-agents-admin-token-0123456789";

describe("two agents by path on one host, through the edge, with SDK clients of both generations", () => {
  let travel: OriginAgent;
  let billing: OriginAgent;
  let worker: { dev: Served; base: string };

  beforeAll(async () => {
    travel = await startOriginAgent({ requiredAuthorization: "Bearer travel-secret" });
    billing = await startOriginAgent({ requiredAuthorization: "Bearer billing-secret" });
    worker = await startWorker({
      ADMIN_TOKEN,
      EDGE_AUTH: "off",
      ORIGIN_URL: travel.url,
      DOCUMENT_ORIGINS: `${new URL(travel.url).origin},${new URL(billing.url).origin}`,
      ORIGIN_CREDENTIALS: JSON.stringify({
        travel: { authorization: "Bearer travel-secret" },
        billing: { authorization: "Bearer billing-secret" },
      }),
    });
    const put = async (path: string, document: unknown) => {
      const response = await fetch(`${worker.base}/_admin/documents/127.0.0.1${path}`, {
        method: "PUT",
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
        body: JSON.stringify(document),
      });
      expect(response.status, await response.text()).toBe(200);
    };
    const capabilities = { streaming: true };
    await put("/travel", { name: "Travel Agent", originUrl: travel.url, originCredentials: "travel", capabilities });
    await put("/billing", { name: "Billing Agent", originUrl: billing.url, originCredentials: "billing", capabilities });
  });

  afterAll(async () => {
    await worker?.dev.stop();
    await travel?.stop();
    await billing?.stop();
  });

  it("each agent's card is under its path, valid 1.0, and names only its own URLs", async () => {
    for (const path of ["/travel", "/billing"]) {
      const card = (await (
        await fetch(`${worker.base}${path}/.well-known/agent-card.json`, { headers: { "A2A-Version": "1.0" } })
      ).json()) as {
        supportedInterfaces: { url: string }[];
      };
      expect(schemaErrors.v1Card(card), path).toEqual([]);
      for (const entry of card.supportedInterfaces) expect(entry.url, path).toBe(`${worker.base}${path}/`);
    }
  });

  it("an @a2a-js/sdk 1.3 and a 0.3.14 client each reach the agent of the card URL they were given, and only it", async () => {
    captureConsole(); // the SDK clients' own notices
    for (const [path, own, other] of [
      ["/travel", () => travel, () => billing],
      ["/billing", () => billing, () => travel],
    ] as const) {
      const before = { own: own().requests.length, other: other().requests.length };
      // RFC 8615 puts /.well-known/ at the host's root (the SDKs resolve it so): a path agent's card URL comes
      // from the host's catalog, and is given whole.
      const cardUrl = `${worker.base}${path}/.well-known/agent-card.json`;
      const client = await new ClientFactory().createFromUrl(cardUrl, "");
      const request = SendMessageRequest.fromJSON({ message: { messageId: randomUUID(), role: "ROLE_USER", parts: [{ text: "hi" }] } });
      const result = await client.sendMessage(request);
      expect("id" in result && result.status?.state, path).toBe(TaskState.TASK_STATE_COMPLETED);
      const legacy = await new ClientFactory03().createFromUrl(cardUrl, "");
      const task = (await legacy.sendMessage({
        message: { kind: "message", messageId: randomUUID(), role: "user", parts: [{ kind: "text", text: "hi" }] },
      })) as { kind?: string; status?: { state?: string } };
      expect(task, path).toMatchObject({ kind: "task", status: { state: "completed" } });
      // Both calls went to this agent's origin (which refuses any other credentials than its own), none to the other.
      expect(own().requests.length - before.own, path).toBe(2);
      expect(other().requests.length - before.other, path).toBe(0);
    }
  });

  it("the host's catalogs list both agents, and a card points to them", async () => {
    const catalog = (await (await fetch(`${worker.base}/.well-known/ai-catalog.json`)).json()) as {
      entries: { displayName: string; url: string }[];
    };
    const byName = Object.fromEntries(catalog.entries.map((entry) => [entry.displayName, entry.url]));
    expect(byName["Travel Agent"]).toBe(`${worker.base}/travel/.well-known/agent-card.json`);
    expect(byName["Billing Agent"]).toBe(`${worker.base}/billing/.well-known/agent-card.json`);
    // ARD's manifest lists the same cards, under `urn:air:` identifiers of the host (ARD v0.9 schema).
    const ard = (await (await fetch(`${worker.base}/.well-known/ard.json`)).json()) as { entries: { identifier: string; url: string }[] };
    expect(schemaErrors.ardManifest(ard)).toEqual([]);
    expect(ard.entries.map((entry) => entry.url)).toEqual(catalog.entries.map((entry) => entry.url));
    expect(ard.entries.map((entry) => entry.identifier)).toContain("urn:air:127.0.0.1:agent:travel");
    const card = await fetch(`${worker.base}/travel/.well-known/agent-card.json`);
    expect(card.headers.get("link")).toContain(`<${worker.base}/.well-known/api-catalog>; rel="api-catalog"`);
    expect(card.headers.get("link")).toContain(`<${worker.base}/.well-known/ard.json>; rel="ard"`);
    const linkset = (await (await fetch(`${worker.base}/.well-known/api-catalog`)).json()) as { linkset: { item?: { href: string }[] }[] };
    expect(linkset.linkset[0]?.item?.map((item) => item.href)).toContain(`${worker.base}/billing/.well-known/agent-card.json`);
  });
});
