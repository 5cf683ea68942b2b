// The one failure table (src/errors/failures.ts) and its two renderers: every
// row is well-formed, and every failure the JSON-RPC path produces reaches the
// client as that row says (status, code, reason), through the real worker.
import { afterEach, describe, expect, it, vi } from "vitest";
import { FAILURES, type FailureReason, failure, STATUS_NAMES } from "../../src/errors/failures";
import { httpFailureResponse, rpcFailureResponse } from "../../src/errors/responses";
import { callVia, fakeOrigin, makeEnv } from "../support/worker";

afterEach(() => vi.restoreAllMocks());

describe("the failure table", () => {
  it.each(Object.entries(FAILURES))("%s is a complete row", (reason, row) => {
    expect(reason).toMatch(/^[A-Z][A-Z0-9_]+$/); // A2A 1.0 §9.5: ErrorInfo reasons are UPPER_SNAKE_CASE
    expect(STATUS_NAMES).toHaveProperty(String(row.status));
    expect(Number.isInteger(row.code) && row.code < 0).toBe(true);
    expect(row.message).toMatch(/^[A-Z]/);
  });

  it("renders a row as a JSON-RPC envelope with the request id, and as google.rpc.Status", async () => {
    const refused = failure("VERSION_NOT_SUPPORTED", "this agent serves 1.0", { metadata: { supportedVersions: "1.0" } });
    const rpc = rpcFailureResponse(refused, "call-7");
    expect(rpc.status).toBe(200);
    expect(await rpc.json()).toEqual({
      jsonrpc: "2.0",
      id: "call-7",
      error: {
        code: -32009,
        message: "Protocol version not supported: this agent serves 1.0",
        data: [
          {
            "@type": "type.googleapis.com/google.rpc.ErrorInfo",
            reason: "VERSION_NOT_SUPPORTED",
            domain: "a2a-protocol.org",
            metadata: { supportedVersions: "1.0" },
          },
        ],
      },
    });
    const http = httpFailureResponse(
      failure("INVALID_DOCUMENT", "nothing was written", { violations: [{ path: "name", message: "required" }] }),
    );
    expect(http.status).toBe(422);
    expect(await http.json()).toEqual({
      error: {
        code: 422,
        status: "INVALID_ARGUMENT",
        message: "nothing was written",
        details: [
          { "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "INVALID_DOCUMENT", domain: "agent-card-edge" },
          { "@type": "type.googleapis.com/google.rpc.BadRequest", fieldViolations: [{ field: "name", description: "required" }] },
        ],
      },
    });
  });
});

const PUBLIC = "https://agents.example.com/";
const rpc = (body: string | Uint8Array, headers: Record<string, string> = {}): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/json", ...headers },
  body,
});
const call = (method: string, id: unknown = 1) => JSON.stringify({ jsonrpc: "2.0", id, method, params: {} });

const CASES: Array<[string, () => Response | Promise<Response>, RequestInit, Record<string, unknown>, FailureReason]> = [
  [
    "a body over MAX_BODY_BYTES",
    () => Response.json({}),
    rpc(call("GetTask").padEnd(200, " ")),
    { MAX_BODY_BYTES: "100" },
    "PAYLOAD_TOO_LARGE",
  ],
  ["another content type", () => Response.json({}), rpc(call("GetTask"), { "content-type": "text/plain" }), {}, "UNSUPPORTED_MEDIA_TYPE"],
  ["broken JSON", () => Response.json({}), rpc("{ nope"), {}, "PARSE_ERROR"],
  ["a batch", () => Response.json({}), rpc(`[${call("GetTask")}]`), {}, "INVALID_REQUEST"],
  [
    "a method outside METHOD_ALLOWLIST",
    () => Response.json({}),
    rpc(call("CancelTask")),
    { METHOD_ALLOWLIST: "GetTask" },
    "METHOD_NOT_FOUND",
  ],
  [
    "a version the edge does not serve",
    () => Response.json({}),
    rpc(call("message/send")),
    { PROTOCOL_VERSIONS: "1.0" },
    "VERSION_NOT_SUPPORTED",
  ],
  ["no origin", () => Response.json({}), rpc(call("GetTask")), { ORIGIN_URL: undefined }, "ORIGIN_NOT_CONFIGURED"],
  ["an unreachable origin", () => Promise.reject(new TypeError("connect")), rpc(call("GetTask")), {}, "ORIGIN_UNREACHABLE"],
  ["an origin's 500", () => new Response("<h1>down</h1>", { status: 500 }), rpc(call("GetTask")), {}, "ORIGIN_ERROR"],
  ["an origin's redirect", () => Response.json({}, { status: 302 }), rpc(call("GetTask")), {}, "ORIGIN_INVALID_RESPONSE"],
  [
    "an origin's HTML",
    () => new Response("<html/>", { headers: { "content-type": "text/html" } }),
    rpc(call("GetTask")),
    {},
    "ORIGIN_INVALID_RESPONSE",
  ],
];

describe("failures of the JSON-RPC path, as the table says", () => {
  it.each(CASES)("%s", async (_name, answer, init, overrides, reason) => {
    for (const level of ["log", "warn", "error"] as const) vi.spyOn(console, level).mockImplementation(() => {});
    const origin = fakeOrigin(answer);
    const response = await callVia(origin, PUBLIC, init, makeEnv({ ORIGIN_URL: "http://10.0.0.9/", EDGE_AUTH: "off", ...overrides }));
    const row = FAILURES[reason];
    expect(response.status).toBe(row.status);
    const body = (await response.json()) as { jsonrpc: string; error: { code: number; data: { reason: string }[] } };
    expect(body.jsonrpc).toBe("2.0");
    expect(body.error.code).toBe(row.code);
    expect(body.error.data[0]!.reason).toBe(reason);
  });
});
