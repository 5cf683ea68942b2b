// The README's KV commands against `wrangler dev`: a document put with
// `wrangler kv key put --local` for the host 127.0.0.1 replaces the bundled one.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run, type Started, startWranglerDev } from "../support/processes";
import { schemaErrors } from "../support/schemas";
import { until } from "../support/wait";

describe("wrangler kv key put + wrangler dev", () => {
  let dev: Started;
  let base: string;
  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), "kv-dev-"));
    const doc = join(dir, "agent.json");
    writeFileSync(doc, JSON.stringify({ name: "Local KV Agent", skills: [{ name: "Echo" }] }));
    const bad = join(dir, "bad.json");
    writeFileSync(bad, "{ not json");
    const persist = join(dir, "state");
    for (const [key, path] of [
      ["127.0.0.1", doc],
      ["default", bad],
    ]) {
      const put = await run("node_modules/.bin/wrangler", [
        "kv",
        "key",
        "put",
        key!,
        "--path",
        path!,
        "--binding",
        "SKILLS",
        "--local",
        "--persist-to",
        persist,
      ]);
      expect(put.code, put.stdout + put.stderr).toBe(0);
    }
    ({ dev, base } = await startWranglerDev(["--persist-to", persist]));
  });
  afterAll(() => dev?.stop());

  it("serves the document stored under the request's hostname", async () => {
    const card = (await (await fetch(`${base}/.well-known/agent-card.json`, { headers: { "A2A-Version": "1.0" } })).json()) as Record<
      string,
      any
    >;
    expect(schemaErrors.v1Card(card)).toEqual([]);
    expect(card.name).toBe("Local KV Agent");
    expect(card.skills.map((s: any) => s.id)).toEqual(["Echo"]);
  });

  it("never serves the bundled card for other hosts when `default` is broken: 503 CARD_UNAVAILABLE, logged once", async () => {
    const response = await fetch(`http://localhost:${new URL(base).port}/.well-known/agent-card.json`);
    expect(response.status).toBe(503);
    const body = await response.text();
    expect(body).toContain("CARD_UNAVAILABLE");
    expect(body).not.toContain("Acme Travel Concierge");
    const invalidDefault = () => dev.output().match(/"event":"kv_document_invalid","key":"default"/g)?.length ?? 0;
    await until(() => invalidDefault() > 0, "a kv_document_invalid log line for default");
    const logged = invalidDefault();
    // Not per request: more requests do not log it again. A later log line (no ORIGIN_URL here: origin_failed)
    // shows that everything the worker logged before it has arrived.
    expect(
      (await fetch(`http://localhost:${new URL(base).port}/.well-known/agent-card.json`, { headers: { "A2A-Version": "0.3" } })).status,
    ).toBe(503);
    const marker = await fetch(`${base}/`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"jsonrpc":"2.0","id":1,"method":"GetTask"}',
    });
    expect(marker.status).toBe(503);
    await until(() => dev.output().includes('"event":"origin_failed"'), "the origin_failed log line after it");
    expect(invalidDefault()).toBe(logged);
  });
});
