// The admin API's document bodies: the 1 MiB cap counts bytes actually read
// (not UTF-16 characters, not Content-Length), a stalled body gets 408, the
// bytes must be UTF-8, and a pathological document is a 422, never a 500.
import { beforeEach, describe, expect, it, vi } from "vitest";
import { adminWorker, kv, put, useHosts } from "../support/admin";
import { type Captured, captureConsole } from "../support/console";

const { host } = useHosts();
// Every write logs what changed (key and action, never the document): taken here, asserted where it matters.
let logs: Captured;
beforeEach(() => {
  logs = captureConsole();
});
const MiB = 1024 * 1024;
const doc = (key: string) => `https://x.example.com/_admin/documents/${key}`;
const encoder = new TextEncoder();

/** A body streamed in 64 KiB chunks, without Content-Length. */
function streamed(bytes: Uint8Array): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.byteLength) return controller.close();
      controller.enqueue(bytes.slice(offset, offset + 64 * 1024));
      offset += 64 * 1024;
    },
  });
}

async function expectNothingWritten(call: ReturnType<typeof adminWorker>, h: string) {
  expect(await kv.get(h)).toBeNull();
  expect((await call(doc(h))).status).toBe(404);
}

describe("admin document bodies", () => {
  it('refuses a 3,000,029-byte document of "€" (1,000,029 characters) with 413', async () => {
    const call = adminWorker();
    const h = host("euro3m");
    const text = `{"name":"x","description":"${"€".repeat(1_000_000)}"}`;
    expect(text.length).toBe(1_000_029);
    expect(encoder.encode(text).byteLength).toBe(3_000_029);
    const response = await call(doc(h), put(text));
    expect(response.status).toBe(413);
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe("The document is larger than 1 MiB");
    await expectNothingWritten(call, h);
  });

  it('refuses a 700,000-character "€" document (2.1 MB) with 413, also when streamed without Content-Length', async () => {
    const call = adminWorker();
    const h = host("euro700k");
    const text = `{"name":"${"€".repeat(700_000)}"}`;
    expect((await call(doc(h), put(text))).status).toBe(413);
    const body = streamed(encoder.encode(text));
    expect((await call(doc(h), { method: "PUT", headers: { "content-type": "application/json" }, body })).status).toBe(413);
    await expectNothingWritten(call, h);
  });

  it("accepts exactly 1 MiB of bytes and refuses one byte more", async () => {
    const call = adminWorker();
    const h = host("boundary");
    const frame = '{"name":"Big","description":""}'.length;
    const exact = `{"name":"Big","description":"${"a".repeat(MiB - frame)}"}`;
    expect(encoder.encode(exact).byteLength).toBe(MiB);
    const over = `{"name":"Big","description":"${"a".repeat(MiB - frame + 1)}"}`;
    expect((await call(doc(h), put(over))).status).toBe(413);
    expect((await call(doc(h), { method: "PUT", body: streamed(encoder.encode(over)) })).status).toBe(413);
    await expectNothingWritten(call, h);
    const response = await call(doc(h), { method: "PUT", body: streamed(encoder.encode(exact)) });
    expect(response.status).toBe(200);
    expect((await kv.get(h))!.length).toBe(MiB);
    // The refused bodies wrote and logged nothing; the accepted one logs its key, not its megabyte.
    expect(logs.events()).toEqual([{ level: "info", event: "admin_document_changed", key: h, action: "put", repairs: 0 }]);
  });

  it("accepts a multi-byte document under 1 MiB of bytes, stored byte for byte", async () => {
    const call = adminWorker();
    const h = host("euro-small");
    const text = `{"name":"Euro ${"€".repeat(300_000)}"}`; // 900,016 bytes
    expect((await call(doc(h), put(text))).status).toBe(200);
    expect(await kv.get(h)).toBe(text);
  });

  it("answers 408 when the body stalls longer than BODY_TIMEOUT_MS", async () => {
    const call = adminWorker({ BODY_TIMEOUT_MS: "200" });
    const h = host("stalled");
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode('{"name":"Sl'));
      },
    });
    const response = await call(doc(h), { method: "PUT", body });
    expect(response.status).toBe(408);
    await expectNothingWritten(call, h);
  });

  it("refuses bytes that are not UTF-8 with 400, writing nothing", async () => {
    const call = adminWorker();
    const h = host("latin1");
    const bytes = new Uint8Array([...encoder.encode('{"name":"Caf'), 0xe9, ...encoder.encode('"}')]);
    const response = await call(doc(h), { method: "PUT", body: bytes });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toContain("UTF-8");
    await expectNothingWritten(call, h);
  });

  it("answers 422, not 500, for a document nested 5,000 levels deep in extension params", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    vi.spyOn(console, "error").mockImplementation(() => {});
    const call = adminWorker();
    const h = host("deep");
    const params = `${'{"a":'.repeat(5000)}1${"}".repeat(5000)}`;
    const text = `{"name":"Deep","capabilities":{"extensions":[{"uri":"https://ext.example/deep","params":${params}}]}}`;
    const response = await call(doc(h), put(text));
    expect(response.status).toBe(422);
    const { error } = (await response.json()) as { error: { details: unknown[] } };
    expect(error.details.length).toBeGreaterThan(0);
    await expectNothingWritten(call, h);
  });
});
