import { createExecutionContext } from "cloudflare:test";
import { env as bindings } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createWorker } from "../../src/app";
import bundled from "../fixtures/sample-card.json";
import { captureConsole } from "../support/console";
import { schemaErrors } from "../support/schemas";
import { CARD, callVia, fakeOrigin, makeEnv } from "../support/worker";

const PRIVATE = "http://10.9.8.7:9000";
const originCard = {
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
    { id: "echo", name: "Echo", description: "Echoes", tags: ["echo"], securityRequirements: [{ schemes: { key: { list: ["read"] } } }] },
  ],
  signatures: [{ protected: "e30", signature: "AA" }],
};

afterEach(async () => {
  vi.restoreAllMocks();
  // The origin card's last good copy, saved for fresh isolates (card/last-good.ts).
  await bindings.SKILLS.delete("last-good:origin");
});

function cardOrigin(respond: (req: Request) => Response | Promise<Response>) {
  return fakeOrigin(respond);
}

const env = (overrides: Record<string, unknown> = {}) =>
  makeEnv({
    ORIGIN_URL: `${PRIVATE}/`,
    CARD_SOURCE: "origin",
    ORIGIN_HEADERS: '{"Authorization":"Bearer origin-only-secret"}',
    ...overrides,
  });

/** The origin's card names its own interfaces and signatures: hints the edge replaces, said once per card version. */
function expectOnlyRepairNotices(logs: ReturnType<typeof captureConsole>): void {
  const events = logs.events();
  expect(events.length).toBeGreaterThan(0);
  for (const event of events) expect(event).toMatchObject({ level: "warn", event: "card_repaired", source: "origin" });
}

describe("passthrough card mode", () => {
  it("fetches the origin's card with its credentials and serves every variant with public URLs", async () => {
    const logs = captureConsole();
    const origin = cardOrigin(() => Response.json(originCard, { headers: { etag: '"v1"' } }));
    const workerEnv = env();
    for (const [headers, validate] of [
      [{ "A2A-Version": "1.0" }, schemaErrors.v1Card],
      [{ "A2A-Version": "0.3" }, schemaErrors.v03Card],
      [{}, schemaErrors.v03Card],
    ] as const) {
      const response = await callVia(origin, `https://agents.example.com${CARD}`, { headers }, workerEnv);
      const text = await response.text();
      expect(text).not.toContain("10.9.8.7");
      const card = JSON.parse(text);
      expect(validate(card)).toEqual([]);
      expect(card.name).toBe("Private Origin Agent");
      expect(card.documentationUrl).toBe("https://agents.example.com/docs");
      expect(card).not.toHaveProperty("signatures");
    }
    const v1 = (await (
      await callVia(origin, `https://agents.example.com${CARD}`, { headers: { "A2A-Version": "1.0" } }, workerEnv)
    ).json()) as any;
    expect(v1.supportedInterfaces).toEqual([
      { url: "https://agents.example.com/", protocolBinding: "JSONRPC", protocolVersion: "1.0" },
      { url: "https://agents.example.com/", protocolBinding: "JSONRPC", protocolVersion: "0.3" },
    ]);
    expect(v1.securitySchemes).toEqual(originCard.securitySchemes);
    expect(v1.skills[0].securityRequirements).toEqual([{ schemes: { key: { list: ["read"] } } }]);
    expect(v1.capabilities.extendedAgentCard).toBe(true);
    // Fetched once for all of those requests, from the well-known path, with the origin's credential.
    expect(origin.requests).toHaveLength(1);
    expect(origin.requests[0]!.url).toBe(`${PRIVATE}/.well-known/agent-card.json`);
    expect(origin.requests[0]!.headers.get("authorization")).toBe("Bearer origin-only-secret");
    expectOnlyRepairNotices(logs);
  });

  it("says Card-Source: origin on the 200, the 304, HEAD and the page; before the origin first answered, a 503 (never the bundled card)", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    let up = false;
    const origin = cardOrigin(() => (up ? Response.json(originCard) : Promise.reject(new TypeError("down"))));
    const worker = createWorker({ fetch: origin.fetch });
    const workerEnv = env();
    const get = (path: string, init: RequestInit = {}) =>
      worker.fetch!(new Request(`https://agents.example.com${path}`, init) as any, workerEnv, createExecutionContext());
    const before = await get(CARD);
    expect(before.status).toBe(503);
    expect(before.headers.get("card-source")).toBeNull();
    expect(await before.text()).not.toContain(bundled.name);
    up = true;
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.advanceTimersByTime(6_000); // past the pause after a failed read
    const ok = await get(CARD);
    expect(((await ok.json()) as { name: string }).name).toBe("Private Origin Agent");
    const notModified = await get(CARD, { headers: { "If-None-Match": ok.headers.get("etag") ?? "" } });
    const head = await get(CARD, { method: "HEAD" });
    const page = await get("/", { headers: { accept: "text/html" } });
    expect([ok.status, notModified.status, head.status, page.status]).toEqual([200, 304, 200, 200]);
    expect([ok, notModified, head, page].map((r) => r.headers.get("card-source"))).toEqual(["origin", "origin", "origin", "origin"]);
    expect(await page.text()).toContain("Card data: the origin&#39;s own card (CARD_SOURCE=origin)");
    vi.useRealTimers();
  });

  it("revalidates with the origin's ETag after ORIGIN_CARD_TTL and keeps the card on 304", async () => {
    const logs = captureConsole();
    vi.useFakeTimers({ toFake: ["Date"] });
    let version = 0;
    const origin = cardOrigin((req) => {
      version++;
      if (req.headers.get("if-none-match") === '"v1"') return new Response(null, { status: 304 });
      return Response.json(originCard, { headers: { etag: '"v1"' } });
    });
    const workerEnv = env({ ORIGIN_CARD_TTL: "10" });
    const first = await callVia(origin, `https://agents.example.com${CARD}`, {}, workerEnv);
    vi.advanceTimersByTime(11_000);
    const second = await callVia(origin, `https://agents.example.com${CARD}`, {}, workerEnv);
    expect(origin.requests.map((r) => r.headers.get("if-none-match"))).toEqual([null, '"v1"']);
    expect(second.headers.get("etag")).toBe(first.headers.get("etag"));
    expect(version).toBe(2);
    vi.useRealTimers();
    expectOnlyRepairNotices(logs);
  });

  it("answers 503 CARD_UNAVAILABLE, saying why, while the origin's card cannot be read and no good copy is kept; never another card", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    for (const [answer, why] of [
      [() => Promise.reject(new TypeError("refused")), "unreachable"],
      [() => new Response("<html>", { status: 200, headers: { "content-type": "text/html" } }), "invalid"],
      [() => new Response("nope", { status: 500 }), "HTTP 500"],
      [() => Response.json({ name: "", skills: "not an array" }), "invalid"],
    ] as const) {
      const response = await callVia(cardOrigin(answer), `https://agents.example.com${CARD}`, {}, env());
      expect(response.status).toBe(503);
      const body = (await response.json()) as any;
      expect(body.error.message).toContain(`the origin's own card cannot be read (${why})`);
      expect(body.error.details[0]).toMatchObject({ reason: "CARD_UNAVAILABLE", metadata: { document: "origin", why } });
      expect(JSON.stringify(body)).not.toContain(bundled.name);
    }
    const events = warn.mock.calls.map((c) => JSON.parse(c[0] as string).event);
    expect(events).toEqual(["origin_card_unavailable", "origin_card_invalid", "origin_card_unavailable", "origin_card_invalid"]);
    expect(JSON.stringify(warn.mock.calls)).not.toContain("origin-only-secret");
  });

  it("keeps serving the last good card when the origin goes away", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.spyOn(console, "warn").mockImplementation(() => {});
    let up = true;
    const origin = cardOrigin(() => (up ? Response.json(originCard) : Promise.reject(new TypeError("down"))));
    const workerEnv = env({ ORIGIN_CARD_TTL: "5" });
    const worker = createWorker({ fetch: origin.fetch });
    const get = async () =>
      (await (
        await worker.fetch!(new Request(`https://agents.example.com${CARD}`) as any, workerEnv, createExecutionContext())
      ).json()) as any;
    expect((await get()).name).toBe("Private Origin Agent");
    up = false;
    vi.advanceTimersByTime(6_000);
    expect((await get()).name).toBe("Private Origin Agent"); // answered at once; the refresh fails in the background
    vi.advanceTimersByTime(6_000);
    const stale = await worker.fetch!(new Request(`https://agents.example.com${CARD}`) as any, workerEnv, createExecutionContext());
    expect(((await stale.json()) as any).name).toBe("Private Origin Agent");
    // The copy's age: the last good read was 12 s ago.
    expect(stale.headers.get("card-last-good-age")).toBe("12");
    vi.useRealTimers();
  });

  it("a fresh isolate whose origin is down serves the last good copy another isolate saved, with its age", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const good = await callVia(
      cardOrigin(() => Response.json(originCard)),
      `https://agents.example.com${CARD}`,
      {},
      env(),
    );
    expect(good.status).toBe(200);
    expect(good.headers.get("card-last-good-age")).toBeNull();
    const fresh = await callVia(
      cardOrigin(() => Promise.reject(new TypeError("down"))),
      `https://agents.example.com${CARD}`,
      {},
      env(),
    );
    expect(fresh.status).toBe(200);
    expect(((await fresh.json()) as any).name).toBe("Private Origin Agent");
    expect(Number(fresh.headers.get("card-last-good-age"))).toBeGreaterThanOrEqual(0);
    expect(fresh.headers.get("card-source")).toBe("origin");
  });

  it("lists every binding the edge serves: the HTTP+JSON interfaces of REST_PATH and the tenant, as the bundled path does", async () => {
    const logs = captureConsole();
    const origin = cardOrigin(() => Response.json(originCard));
    const workerEnv = env({ REST_PATH: "/rest", INTERFACE_TENANT: "acme" });
    const v1 = (await (
      await callVia(origin, `https://agents.example.com${CARD}`, { headers: { "A2A-Version": "1.0" } }, workerEnv)
    ).json()) as any;
    expect(v1.supportedInterfaces).toEqual([
      { url: "https://agents.example.com/", protocolBinding: "JSONRPC", tenant: "acme", protocolVersion: "1.0" },
      { url: "https://agents.example.com/rest", protocolBinding: "HTTP+JSON", tenant: "acme", protocolVersion: "1.0" },
      { url: "https://agents.example.com/", protocolBinding: "JSONRPC", tenant: "acme", protocolVersion: "0.3" },
      { url: "https://agents.example.com/rest", protocolBinding: "HTTP+JSON", tenant: "acme", protocolVersion: "0.3" },
    ]);
    const hybrid = (await (await callVia(origin, `https://agents.example.com${CARD}`, {}, workerEnv)).json()) as any;
    expect(hybrid.additionalInterfaces).toEqual([
      { url: "https://agents.example.com/", transport: "JSONRPC" },
      { url: "https://agents.example.com/rest", transport: "HTTP+JSON" },
    ]);
    expect(schemaErrors.v1Card(v1)).toEqual([]);
    expect(schemaErrors.v03Card(hybrid)).toEqual([]);
    expectOnlyRepairNotices(logs);
  });

  it("answers from the held card at once while the origin revalidates, even if it hangs", async () => {
    const logs = captureConsole();
    vi.useFakeTimers({ toFake: ["Date"] });
    let hang = false;
    const origin = cardOrigin((req) =>
      hang
        ? new Promise<Response>((_r, reject) => req.signal.addEventListener("abort", () => reject(new Error("aborted"))))
        : Response.json(originCard),
    );
    const workerEnv = env({ ORIGIN_CARD_TTL: "5", ORIGIN_TIMEOUT_MS: "60000" });
    const worker = createWorker({ fetch: origin.fetch });
    const get = async () =>
      (await (
        await worker.fetch!(new Request(`https://agents.example.com${CARD}`) as any, workerEnv, {
          waitUntil() {},
          passThroughOnException() {},
          props: {},
        } as any)
      ).json()) as any;
    expect((await get()).name).toBe("Private Origin Agent");
    hang = true;
    vi.advanceTimersByTime(6_000);
    expect((await get()).name).toBe("Private Origin Agent"); // did not wait for the hanging origin
    expect(origin.requests).toHaveLength(2);
    vi.useRealTimers();
    expectOnlyRepairNotices(logs);
  });

  it("never publishes the address the origin advertises for itself", async () => {
    const logs = captureConsole();
    const advertised = {
      ...originCard,
      supportedInterfaces: [{ url: "http://agent.svc.cluster.local:8080/", protocolBinding: "JSONRPC", protocolVersion: "1.0" }],
      documentationUrl: "HTTP://Agent.SVC.cluster.local:8080/docs",
      iconUrl: "http://agent.svc.cluster.local:8080/icon.png",
    };
    const origin = cardOrigin(() => Response.json(advertised));
    for (const headers of [{ "A2A-Version": "1.0" }, {}, { accept: "text/html" }] as Record<string, string>[]) {
      const text = await (await callVia(origin, `https://agents.example.com${CARD}`, { headers }, env())).text();
      expect(text.toLowerCase()).not.toContain("cluster.local");
    }
    expectOnlyRepairNotices(logs);
  });

  it("refuses CARD_SOURCE=origin without an origin", async () => {
    const logs = captureConsole();
    const response = await callVia(
      cardOrigin(() => Response.json({})),
      `https://agents.example.com${CARD}`,
      {},
      makeEnv({ CARD_SOURCE: "origin" }),
    );
    expect(response.status).toBe(500);
    expect(await response.text()).toContain("CARD_SOURCE");
    expect(logs.events()).toEqual([
      { level: "error", event: "config_invalid", issues: "CARD_SOURCE: origin needs ORIGIN_URL or ORIGIN_CARD_URL" },
    ]);
  });
});

describe("passthrough with an origin of one generation", () => {
  // Isolates come and go: a client that read the card from one isolate calls another, whose first request
  // is that call. What the origin speaks is read from its card before the call is translated, not guessed.
  it.each([
    ["a 0.3 origin, a 1.0 GetTask", "0.3", "GetTask", "tasks/get", { id: "t1" }],
    ["a 1.0 origin, a 0.3 tasks/get", "1.0", "tasks/get", "GetTask", { id: "t1" }],
  ])("bridges a fresh isolate's first call, before the card was asked for: %s", async (_name, speaks, method, expected, params) => {
    const logs = captureConsole();
    const only = { ...originCard, supportedInterfaces: [{ url: `${PRIVATE}/`, protocolBinding: "JSONRPC", protocolVersion: speaks }] };
    const task =
      speaks === "1.0"
        ? { id: "t1", contextId: "c1", status: { state: "TASK_STATE_COMPLETED" } }
        : { kind: "task", id: "t1", contextId: "c1", status: { state: "completed" } };
    const origin = cardOrigin(async (req) => {
      if (req.method === "GET") return Response.json(only);
      const { id } = (await req.clone().json()) as { id: unknown };
      return Response.json({ jsonrpc: "2.0", id, result: task });
    });
    const init = {
      method: "POST",
      headers: { "content-type": "application/json", "A2A-Version": speaks === "1.0" ? "0.3" : "1.0" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 9, method, params }),
    };
    const reply = (await (await callVia(origin, "https://agents.example.com/", init, env({ EDGE_AUTH: "off" }))).json()) as {
      result?: { id?: string };
    };
    const posted = origin.requests.findIndex((r) => r.method === "POST");
    expect(origin.requests[posted]?.headers.get("a2a-version")).toBe(speaks);
    expect(JSON.parse(new TextDecoder().decode(origin.bodies[posted]))).toMatchObject({ method: expected });
    expect(reply.result).toMatchObject({ id: "t1" });
    expect(logs.events().map((e) => e.event)).not.toContain("origin_failed");
  });

  it("advertises PROTOCOL_VERSIONS, reads what the origin speaks from its card, and bridges the other", async () => {
    const logs = captureConsole();
    const v1Only = { ...originCard, supportedInterfaces: [{ url: `${PRIVATE}/`, protocolBinding: "JSONRPC", protocolVersion: "1.0" }] };
    const origin = cardOrigin(async (req) => {
      if (req.method === "GET") return Response.json(v1Only);
      const { id } = (await req.clone().json()) as { id: unknown };
      return Response.json({
        jsonrpc: "2.0",
        id,
        result: { task: { id: "t1", contextId: "c1", status: { state: "TASK_STATE_COMPLETED" } } },
      });
    });
    const workerEnv = env({ EDGE_AUTH: "off" });
    const card = (await (
      await callVia(origin, `https://agents.example.com${CARD}`, { headers: { "A2A-Version": "1.0" } }, workerEnv)
    ).json()) as {
      supportedInterfaces: { protocolVersion: string }[];
    };
    expect(card.supportedInterfaces.map((i) => i.protocolVersion)).toEqual(["1.0", "0.3"]);
    const message = { kind: "message", messageId: "m1", role: "user", parts: [{ kind: "text", text: "hi" }] };
    const init = {
      method: "POST",
      headers: { "content-type": "application/json", "A2A-Version": "0.3" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "message/send", params: { message } }),
    };
    const reply = (await (await callVia(origin, "https://agents.example.com/", init, workerEnv)).json()) as { result: unknown };
    const sent = origin.requests.filter((r) => r.method === "POST");
    expect(sent.map((r) => r.headers.get("a2a-version"))).toEqual(["1.0"]);
    expect(JSON.parse(new TextDecoder().decode(origin.bodies[origin.requests.indexOf(sent[0]!)]))).toMatchObject({ method: "SendMessage" });
    expect(reply.result).toMatchObject({ kind: "task", id: "t1", status: { state: "completed" } });
    expect(logs.events()).toEqual([
      { level: "warn", event: "edge_auth_off", lends: "ORIGIN_HEADERS Authorization" },
      // The origin's card names its own interfaces and signatures: hints the edge replaces, said once.
      {
        level: "warn",
        event: "card_repaired",
        source: "origin",
        repairs: 2,
        list: "derived-field supportedInterfaces: a hint: the edge publishes its own; derived-field signatures: a hint: the edge publishes its own",
      },
    ]);
  });
});
