// npm run mutation [-- NAME_FILTER ...] [--list] [--no-baseline]
//   --list checks every target and lists the mutations without running anything.
//
// Do the tests guard the security checks? For each entry of MUTATIONS: replace
// an exact string in a file under src/ (removing or breaking one check), run
// the test files named for it, expect at least one test to FAIL, restore the
// file. Prints a table (mutation, test files, killed, seconds) and exits 1 if
// any mutation survives, if a target string is not found exactly once (the
// list must follow the code when it moves), or if the targeted tests do not
// pass on the unmutated code (the baseline).
//
// The file is always restored: after each run, on errors, on Ctrl-C/SIGTERM,
// and, should this process be killed outright, by the next run (the original
// is kept in node_modules/.cache/mutation-check/pending.json until restored).
// Not part of `npm test`: it takes minutes.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { constants, tmpdir } from "node:os";
import { join, relative } from "node:path";
import { cli } from "./usage";

// Flags first: a mistyped one is refused before any file is touched or test started.
const { values, positionals } = cli("mutation-check", "usage: npm run mutation [-- NAME_FILTER ...] [--list] [--no-baseline]").parseArgs({
  options: { list: { type: "boolean", default: false }, "no-baseline": { type: "boolean", default: false } },
  allowPositionals: true,
});

const ROOT = new URL("../", import.meta.url).pathname;
const VITEST = join(ROOT, "node_modules/.bin/vitest");
const PENDING_DIR = join(ROOT, "node_modules/.cache/mutation-check");
const PENDING = join(PENDING_DIR, "pending.json");
/** Each run's vitest output, for a look at why a mutation survived or was killed. */
const LOGS = join(PENDING_DIR, "logs");

interface Mutation {
  /** What the mutation removes, e.g. "validate: UTF-8 check". */
  name: string;
  /** File under src/. */
  file: string;
  /** Exact text, found exactly once in the file. */
  from: string;
  /** Its replacement. */
  to: string;
  /** Test files expected to catch it (at least one test must fail). */
  tests: string[];
}

const W = (name: string) => `test/worker/${name}.test.ts`;
const N = (name: string) => `test/node/${name}.test.ts`;

export const MUTATIONS: Mutation[] = [
  // ---- body caps ----
  {
    name: "body: size cap on bytes read",
    file: "src/http/body.ts",
    from: "if (size > limits.maxBytes) {",
    to: "if (false) {",
    tests: [W("proxy")],
  },
  {
    name: "body: read deadline (BODY_TIMEOUT_MS)",
    file: "src/http/body.ts",
    from: 'next = await clock.race(reader.read(), deadline);\n    } catch {\n      return { ok: false, reason: "broken" };',
    to: 'next = await reader.read();\n    } catch {\n      return { ok: false, reason: "broken" };',
    tests: [W("proxy")],
  },
  {
    name: "deadlines: a later wait re-armed when the request's first deadline fires",
    file: "src/http/deadlines.ts",
    from: "if (next !== Number.POSITIVE_INFINITY) this.#arm(next);",
    to: "void next;",
    tests: [W("deadlines")],
  },
  {
    name: "deadlines: an earlier wait arms its own timer",
    file: "src/http/deadlines.ts",
    from: "if (at >= this.#armedFor) return;",
    to: "if (at >= 0) return;",
    tests: [W("deadlines")],
  },
  {
    name: "deadlines: a call's timer cleared when it has its answer",
    file: "src/observe/call-scope.ts",
    from: "      (response) => {\n        edge.deadlines.release();",
    to: "      (response) => {",
    tests: [W("deadlines")],
  },
  {
    name: "body: a refusal sent with the body unread is not held while the rest is read (the reset erases the 413)",
    file: "src/http/body.ts",
    from: "if (rest === null || rest.locked || response.status < 400) return response;",
    to: "if (rest !== undefined) return response;",
    tests: [N("oversized-bodies")],
  },
  {
    name: "body: the rest of a body past the cap cancelled, not left for lingerBehind",
    file: "src/http/body.ts",
    from: 'if (limits.excess === "cancel") reader.cancel().catch(() => undefined);\n      else reader.releaseLock();',
    to: "reader.cancel().catch(() => undefined);",
    tests: [N("oversized-bodies")],
  },
  {
    name: "body: the held refusal of known length (wrangler dev's proxy ends it, and closes, once its length has come)",
    file: "src/http/body.ts",
    from: "new IdentityTransformStream()",
    to: "new FixedLengthStream(bytes.byteLength)",
    tests: [N("oversized-bodies")],
  },
  {
    name: "body: the rest read to its end before the refusal (the 413 waits for all of it)",
    file: "src/http/body.ts",
    from: 'if (limits.excess === "cancel") reader.cancel().catch(() => undefined);\n      else reader.releaseLock();',
    to: "for (let rest = await reader.read(); !rest.done; rest = await reader.read());",
    tests: [N("oversized-bodies")],
  },
  {
    name: "feed: a subscriber's Close frame is not answered (its close ends as 1006 after its own timeout)",
    file: "src/feed/card-feed.ts",
    from: "socket.close(code, reason);",
    to: ";",
    tests: [W("feed"), N("feed")],
  },
  // ---- JSON-RPC validation ----
  {
    name: "validate: strict UTF-8",
    file: "src/bindings/jsonrpc-envelope.ts",
    from: 'new TextDecoder("utf-8", { fatal: true, ignoreBOM: false })',
    to: 'new TextDecoder("utf-8", { fatal: false, ignoreBOM: false })',
    tests: [W("proxy"), W("properties")],
  },
  {
    name: 'validate: jsonrpc "2.0"',
    file: "src/bindings/jsonrpc-envelope.ts",
    from: 'if (request.jsonrpc !== "2.0") return invalid(',
    to: "if (false) return invalid(",
    tests: [W("proxy"), W("properties")],
  },
  {
    // Deleting the line alone is an equivalent mutant (the id type check then refuses
    // `undefined` with the same code); the requirement is gone when a missing id counts as null.
    name: "validate: id required (no notifications)",
    file: "src/bindings/jsonrpc-envelope.ts",
    from: `if (!("id" in request)) return invalid('"id" is required (A2A has no notifications)');`,
    to: 'if (!("id" in request)) request.id = null;',
    tests: [W("proxy"), W("properties")],
  },
  {
    name: "validate: id type",
    file: "src/bindings/jsonrpc-envelope.ts",
    from: "if (!isValidId(request.id)) return invalid(",
    to: "if (false) return invalid(",
    tests: [W("proxy"), W("properties")],
  },
  {
    name: "validate: method non-empty string",
    file: "src/bindings/jsonrpc-envelope.ts",
    from: 'if (typeof request.method !== "string" || request.method === "") return invalid(',
    to: "if (false) return invalid(",
    tests: [W("proxy"), W("properties")],
  },
  {
    name: "validate: params object or array",
    file: "src/bindings/jsonrpc-envelope.ts",
    from: 'if ("params" in request && (typeof request.params !== "object" || request.params === null)) {',
    to: "if (false) {",
    tests: [W("proxy"), W("properties")],
  },
  {
    name: "METHOD_ALLOWLIST: checked for every binding",
    file: "src/call/admit.ts",
    from: 'if (!allowedBy(config.methodAllowlist, received.method)) return failure("METHOD_NOT_FOUND");',
    to: "",
    tests: [W("proxy"), W("properties"), W("surface-holes")],
  },
  {
    name: "METHOD_ALLOWLIST: by operation, not by name",
    file: "src/call/admit.ts",
    from: "return operation ? allowlist.operations.has(operation) : allowlist.extensionMethods.has(method);",
    to: "return operation ? true : allowlist.extensionMethods.has(method);",
    tests: [W("surface-holes")],
  },
  {
    name: "METHOD_ALLOWLIST: extension methods only as listed",
    file: "src/call/admit.ts",
    from: "return operation ? allowlist.operations.has(operation) : allowlist.extensionMethods.has(method);",
    to: "return operation ? allowlist.operations.has(operation) : true;",
    tests: [W("surface-holes")],
  },
  {
    name: "validate: duplicate keys refused",
    file: "src/bindings/jsonrpc-envelope.ts",
    from: "if (scan.duplicateKey) return invalid(",
    to: "if (false) return invalid(",
    tests: [W("proxy"), W("properties"), W("hardening")],
  },
  {
    name: "validate: BOM dropped from the forwarded bytes",
    file: "src/bindings/jsonrpc-envelope.ts",
    from: "const bytes = BOM.every((byte, i) => body[i] === byte) ? body.subarray(3) : body;",
    to: "const bytes = body;",
    tests: [W("proxy"), W("properties"), W("hardening")],
  },
  // ---- header allowlists ----
  {
    name: "headers: request allowlist",
    file: "src/proxy/forwarding-headers.ts",
    from: "for (const name of FORWARDED_REQUEST_HEADERS) {\n    const value = incoming.get(name);",
    to: "for (const [name, value] of incoming) {",
    tests: [W("proxy")],
  },
  {
    name: "headers: X-Forwarded-For claim only when trusted",
    file: "src/proxy/forwarding-headers.ts",
    from: 'const claimed = config.trustForwardedHeaders ? incoming.get("x-forwarded-for") : null;',
    to: 'const claimed = incoming.get("x-forwarded-for");',
    tests: [W("proxy")],
  },
  {
    name: "headers: response allowlist",
    file: "src/proxy/forwarding-headers.ts",
    from: "for (const name of RETURNED_RESPONSE_HEADERS) {\n    const value = origin.get(name);",
    to: "for (const [name, value] of origin) {",
    tests: [W("proxy")],
  },
  {
    name: "headers: private host filter",
    file: "src/proxy/forwarding-headers.ts",
    from: "if (hosts.some((host) => lower.includes(host)) || secrets.some((secret) => lower.includes(secret))) continue;",
    to: "if (secrets.some((secret) => lower.includes(secret))) continue;",
    tests: [W("proxy")],
  },
  {
    name: "headers: secret filter",
    file: "src/proxy/forwarding-headers.ts",
    from: "if (hosts.some((host) => lower.includes(host)) || secrets.some((secret) => lower.includes(secret))) continue;",
    to: "if (hosts.some((host) => lower.includes(host))) continue;",
    tests: [W("proxy")],
  },
  {
    name: "headers: filters compare case-insensitively",
    file: "src/proxy/forwarding-headers.ts",
    from: "const lower = value.toLowerCase();",
    to: "const lower = value;",
    tests: [W("proxy"), W("hardening")],
  },
  {
    name: "headers: a credential's token alone is filtered too",
    file: "src/proxy/forwarding-headers.ts",
    from: "for (const part of [value, ...value.split(/[\\s,;:=\"']+/)])",
    to: "for (const part of [value])",
    tests: [W("proxy"), W("secrets"), W("hardening")],
  },
  {
    name: "classify: an origin redirect is a 502",
    file: "src/call/classify.ts",
    from: "if (status >= 300 && status < 400)",
    to: "if (false)",
    tests: [W("proxy"), W("hardening")],
  },
  {
    name: "CORS: the RPC endpoint reflects only listed origins (hono/cors origin option)",
    file: "src/http/rpc-cors.ts",
    from: "return { origin: config.corsAllowedOrigins, allowMethods",
    to: "return { origin: (origin: string) => origin, allowMethods",
    tests: [W("proxy"), W("properties"), W("routes")],
  },
  {
    name: "CORS: the RPC fast path reflects only listed origins",
    file: "src/http/rpc-cors.ts",
    from: "if (requestOrigin !== null && allowed.includes(requestOrigin))",
    to: "if (requestOrigin !== null)",
    tests: [W("proxy"), W("properties"), W("routes")],
  },
  {
    name: "CORS: the RPC endpoint never allows credentials",
    file: "src/http/rpc-cors.ts",
    from: "return { origin: config.corsAllowedOrigins, allowMethods",
    to: "return { credentials: true, origin: config.corsAllowedOrigins, allowMethods",
    tests: [W("proxy"), W("properties"), W("routes")],
  },
  // ---- signing ----
  {
    name: "jcs: key sort",
    file: "src/sign/jcs.ts",
    from: "    .sort()\n",
    to: "",
    tests: [W("proxy"), W("signing")],
  },
  {
    name: "sign: JCS payload",
    file: "src/sign/sign.ts",
    from: "const payload = canonicalJson(unsigned);",
    to: "const payload = JSON.stringify(unsigned);",
    tests: [W("proxy"), W("signing")],
  },
  {
    name: "sign: SDK-payload signature only when it covers every URL",
    file: "src/sign/sign.ts",
    from: "if (sdkPayload !== payload && a2aJsPayloadCoversUrls(unsigned))",
    to: "if (sdkPayload !== payload)",
    tests: [W("signing"), W("hardening")],
  },
  // ---- public base URL ----
  {
    name: "public base: TRUST_FORWARDED_HEADERS flag",
    file: "src/http/public-base.ts",
    from: "if (!config.trustForwardedHeaders) return requestUrl.origin;",
    to: "",
    tests: [W("card-http"), W("properties")],
  },
  {
    name: "public base: forwarded host validation",
    file: "src/http/public-base.ts",
    from: "host !== undefined && host.length <= 260 && HOST.test(host) ? host : requestUrl.host",
    to: "host !== undefined ? host : requestUrl.host",
    tests: [W("card-http")],
  },
  {
    name: "public base: forwarded proto validation",
    file: "src/http/public-base.ts",
    from: 'proto === "http" || proto === "https" ? proto : requestUrl.protocol.slice(0, -1)',
    to: "proto ?? requestUrl.protocol.slice(0, -1)",
    tests: [W("card-http")],
  },
  // ---- host normalization ----
  // RESERVED for host normalization (landed on main while this list was written,
  // in src/http/request-url.ts normalizeHost): keep its entries here, one per
  // place that normalizes, and add one for every new place.
  {
    name: "host normalization: request host",
    file: "src/http/request-target.ts",
    from: "const host = normalizeHost(url.slice(afterScheme, pathStart));",
    to: "const host = url.slice(afterScheme, pathStart);",
    tests: [W("host-form"), N("edge-sockets")],
  },
  {
    name: "host normalization: trusted X-Forwarded-Host",
    file: "src/http/public-base.ts",
    from: "const host = forwarded === undefined ? undefined : normalizeHost(forwarded);",
    to: "const host = forwarded;",
    tests: [W("host-form")],
  },
  {
    name: "host allowlist: one check for every route",
    file: "src/http/public-base.ts",
    from: "return config.hostAllowlist === undefined || config.hostAllowlist.has(hostname);",
    to: "return true;",
    tests: [W("signing"), W("card-http")],
  },
  {
    name: "signing: only for a host[:port] named",
    file: "src/http/public-base.ts",
    from: "return config.hostAllowlist?.authorities.has(new URL(base).host) ?? false;",
    to: "return config.hostAllowlist?.has(new URL(base).hostname) ?? false;",
    tests: [W("surface-holes"), N("surface-holes")],
  },
  {
    name: "signing: the signer asks which bases it signs for",
    file: "src/sign/card-signer.ts",
    from: "    if (!this.signsFor(base)) return card;\n",
    to: "",
    tests: [W("surface-holes"), N("surface-holes")],
  },
  {
    name: "signing: a catalog's trust manifests only under a base named",
    file: "src/sign/card-signer.ts",
    from: "    if (!this.signsFor(base)) return undefined;\n",
    to: "",
    tests: [W("ard")],
  },
  // ---- documents, signing scope, versions ----
  {
    name: "documents: depth bound",
    file: "src/card/source.ts",
    from: "if (exceedsDepth(value)) return",
    to: "if (false) return",
    tests: [W("hardening")],
  },
  {
    name: "documents: reserved key names refused",
    file: "src/card/source.ts",
    from: "if (reserved !== undefined)\n",
    to: "if (false)\n",
    tests: [W("hardening")],
  },
  {
    name: "signing: only for hosts the operator named",
    file: "src/config/variables.ts",
    from: "if (v.CARD_SIGNING_KEY !== undefined && v.PUBLIC_BASE_URL === undefined && v.HOST_ALLOWLIST === undefined) {",
    to: "if (false) {",
    tests: [W("config"), W("signing")],
  },
  {
    name: "versions: a call in an unserved version gets -32009",
    file: "src/call/version.ts",
    from: "if (served.includes(version)) return undefined;",
    to: "return undefined;",
    tests: [W("hardening")],
  },
  {
    name: "cards: 0.3-shaped variants give way when 0.3 is not served",
    file: "src/card/build-card.ts",
    from: "servesV03(input.endpoint.protocolVersions) ? build(input) : buildV1Card(input)",
    to: "build(input)",
    tests: [W("hardening")],
  },
  {
    name: "extended card: depth bound on the origin's reply",
    file: "src/call/reply.ts",
    from: "(body === undefined || exceedsDepth(body))",
    to: "body === undefined",
    tests: [W("hardening")],
  },
  // ---- admin auth ----
  {
    name: "admin: bearer token check",
    file: "src/admin/admin-api.ts",
    from: 'admin.use(adminAuth(runtime.config.adminToken ?? ""));',
    to: "admin.use(async (_c, next) => next());",
    tests: [W("admin")],
  },
  {
    name: "admin: token compared in full",
    file: "src/admin/admin-requests.ts",
    from: "(await callerOfKey(presented, await stored)) !== undefined",
    to: "presented.length === token.length",
    tests: [W("admin")],
  },
  {
    name: "admin: absent without ADMIN_TOKEN",
    file: "src/routes.ts",
    from: "if (runtime.config.adminToken) app.route(adminPath, createAdminApp(runtime));",
    to: "app.route(adminPath, createAdminApp(runtime));",
    tests: [W("admin"), W("routes")],
  },
  // ---- the live feed's door ----
  {
    name: "feed: read token compared in full",
    file: "src/feed/feed-routes.ts",
    from: "return a !== undefined && b !== undefined && crypto.subtle.timingSafeEqual(a, b);",
    to: "return a !== undefined && b !== undefined;",
    tests: [W("feed")],
  },
  {
    name: "feed: a ticket names its feed",
    file: "src/feed/tickets.ts",
    from: "[LABEL, feed, expiresAt, nonce].join",
    to: "[LABEL, expiresAt, nonce].join",
    tests: [W("feed")],
  },
  {
    name: "feed: a ticket expires",
    file: "src/feed/tickets.ts",
    from: "if (expiresAt <= now || expiresAt > now + TICKET_LIFETIME_S) return null;",
    to: "if (expiresAt > now + TICKET_LIFETIME_S) return null;",
    tests: [W("feed")],
  },
  {
    name: "feed: a ticket is used once",
    file: "src/feed/card-feed.ts",
    from: "if (ticket && !this.#admitOnce(ticket)) {",
    to: "if (ticket && false) {",
    tests: [W("feed"), N("feed")],
  },
  {
    name: "feed: on a host outside HOST_ALLOWLIST, 404 as every route",
    file: "src/routes.ts",
    from: "(c) => subscribe(c, edgeOf(c, runtime))",
    to: "(c) => subscribe(c, { runtime, keepAlive: () => undefined } as never)",
    tests: [W("feed")],
  },
  {
    name: "feed: none for a hostname the edge has no document for",
    file: "src/feed/feed-routes.ts",
    from: "if (!(await feedExists(runtime, feed, edge.keepAlive)))",
    to: "if (false)",
    tests: [W("feed")],
  },
  {
    name: "feed: FEED_PATH is no agent path (written)",
    file: "src/admin/document-keys.ts",
    from: "return [rpcPath, restPath, adminPath, feedPath, mastraApiPrefix, RELAY_PATH,",
    to: "return [rpcPath, restPath, adminPath, mastraApiPrefix, RELAY_PATH,",
    tests: [W("feed")],
  },
  {
    name: "feed: FEED_PATH is no agent path (requested)",
    file: "src/agents/request-agent.ts",
    from: "return !under(restPath) && !under(adminPath) && !under(feedPath) && !under(mastraApiPrefix);",
    to: "return !under(restPath) && !under(adminPath) && !under(mastraApiPrefix);",
    tests: [W("feed")],
  },
  {
    name: "feed: absent without FEED_TOKEN or FEED_PUBLIC",
    file: "src/feed/publish.ts",
    from: "return config.feedToken !== undefined || config.feedPublic;",
    to: "return true;",
    tests: [W("feed")],
  },
  {
    name: "admin: document size counted in bytes read",
    file: "src/admin/admin-requests.ts",
    from: "const read = await readMessageBody(c.req.raw, { maxBytes: MAX_DOCUMENT_BYTES,",
    to: "const read = await readMessageBody(c.req.raw, { maxBytes: 4 * MAX_DOCUMENT_BYTES,",
    tests: [W("admin-body")],
  },
  {
    name: "admin: strict UTF-8",
    file: "src/admin/admin-requests.ts",
    from: 'return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(read.bytes);',
    to: 'return new TextDecoder("utf-8", { fatal: false, ignoreBOM: false }).decode(read.bytes);',
    tests: [W("admin-body")],
  },
  {
    name: "admin: If-Match names the current version",
    file: "src/admin/preconditions.ts",
    from: "} else if (!ifMatch.some((t) => !t.weak && t.tag === current.etag)) {",
    to: "} else if (false) {",
    tests: [W("admin-versions")],
  },
  {
    name: "admin: one write at a time per key",
    file: "src/admin/document-log.ts",
    from: "return this.ctx.blockConcurrencyWhile(async (): Promise<T | LogRefusal> => {",
    to: "return (async (f: () => Promise<T | LogRefusal>) => f())(async (): Promise<T | LogRefusal> => {",
    tests: [W("admin-versions")],
  },
  {
    name: "page: its security headers and script-free CSP",
    file: "src/view/page-response.ts",
    from: "      ...PAGE_SECURITY,\n",
    to: "",
    tests: [W("page")],
  },
  {
    name: "REST: refusals keep their HTTP status",
    file: "src/bindings/rest-client.ts",
    from: "if (FAILURES[refused.reason].status !== 200) return refusal(refused, route.version);",
    to: "",
    tests: [W("rest-edge")],
  },
  // ---- edge authentication ----
  {
    name: "auth: JWT audience",
    file: "src/auth/jwt-verifier.ts",
    from: "audience: this.config.jwtAudience ? [...this.config.jwtAudience] : [],",
    to: "audience: undefined,",
    tests: [W("auth")],
  },
  {
    name: "auth: JWT expiry within 60 s of skew",
    file: "src/auth/jwt-verifier.ts",
    from: "clockTolerance: CLOCK_SKEW_S,",
    to: "clockTolerance: 3600,",
    tests: [W("auth")],
  },
  {
    name: "auth: JWKS refetched at most once a minute",
    file: "src/auth/jwt-verifier.ts",
    from: "now - this.#lastFetch >= REFETCH_COOLDOWN_MS",
    to: "true",
    tests: [W("auth")],
  },
  {
    name: "auth: an issuer that failed is not asked again for a minute",
    file: "src/auth/jwt-verifier.ts",
    from: ": now - this.#lastFailure >= REFETCH_COOLDOWN_MS;",
    to: ": true;",
    tests: [W("surface-holes"), N("surface-holes")],
  },
  {
    name: "auth: one token verification per request",
    file: "src/auth/edge-auth.ts",
    from: "      tokens.set(token, verified);\n",
    to: "",
    tests: [W("surface-holes")],
  },
  {
    name: "auth: required scopes",
    file: "src/auth/edge-auth.ts",
    from: "if (needed.every((scope) => granted.has(scope))) return callerOf(alternative, oks);",
    to: "return callerOf(alternative, oks);",
    tests: [W("auth")],
  },
  {
    name: "auth: a scheme without verifier fails closed",
    file: "src/auth/edge-auth.ts",
    from: 'return Promise.resolve({ state: "unverifiable" });',
    to: 'return Promise.resolve({ state: "ok", subject: "x", scopes: [], consumed: undefined });',
    tests: [W("auth")],
  },
  {
    name: "auth: API key compared to the stored hashes",
    file: "src/auth/api-keys.ts",
    from: "if (crypto.subtle.timingSafeEqual(digest, hash) && caller === undefined) caller = name;",
    to: "if (caller === undefined) caller = name;",
    tests: [W("auth")],
  },
  {
    name: "auth: mTLS fingerprints",
    file: "src/auth/mtls.ts",
    from: "if (fingerprints && !fingerprints.has(fingerprint)) return undefined;",
    to: "",
    tests: [W("auth")],
  },
  {
    name: "auth: extended card only to an authenticated caller",
    file: "src/call/caller.ts",
    from: "if (isFailure(caller) || caller || !needsCaller) return caller;",
    to: "return caller;",
    tests: [W("auth"), W("properties")],
  },
  {
    name: "auth: the consumed credential is not lent on",
    file: "src/proxy/forwarding-headers.ts",
    from: 'for (const credential of side.consumed ?? []) if (credential.in === "header") headers.delete(credential.name);',
    to: "",
    tests: [W("auth")],
  },
  {
    name: "auth: EDGE_AUTH=enforce checks every call",
    file: "src/call/caller.ts",
    from: 'if (config.edgeAuth === "off" && !needsCaller) return undefined;',
    to: "if (!needsCaller) return undefined;",
    tests: [W("auth"), N("edge-sockets")],
  },
  {
    name: "auth: JWT algorithms allowlist",
    file: "src/auth/jwt-verifier.ts",
    from: "algorithms: [...this.config.jwtAlgorithms],",
    to: "",
    tests: [W("auth")],
  },
  {
    name: "auth: a client's A2A-Caller never reaches the origin",
    file: "src/proxy/forwarding-headers.ts",
    from: '"authorization"];',
    to: '"authorization", "a2a-caller"];',
    tests: [W("auth")],
  },
  {
    name: "telemetry: a traceparent with an all-zero id is replaced, not forwarded",
    file: "src/observe/trace-context.ts",
    from: "if (traceId === ZERO_TRACE || parentId === ZERO_SPAN) return undefined;",
    to: "",
    tests: [W("telemetry")],
  },
  {
    name: "telemetry: a tracestate is forwarded only beside a valid traceparent, and only when well formed",
    file: "src/observe/trace-context.ts",
    from: "if (!STATE_MEMBER.test(member)) return undefined;",
    to: "",
    tests: [W("telemetry")],
  },
  {
    name: "telemetry: ACCESS_LOG_HASH_SUBJECT keeps the subject out of records",
    file: "src/observe/access-record.ts",
    from: "return config.accessLogHashSubject ?",
    to: "return false ?",
    tests: [W("telemetry")],
  },
  {
    name: "auth: rate limit",
    file: "src/call/caller.ts",
    from: "if (success) return undefined;",
    to: "return undefined;",
    tests: [W("auth")],
  },
  {
    name: "auth: refused calls count against the client's address",
    file: "src/call/caller.ts",
    from: "if (isFailure(caller)) return (await withinRateLimit(edge, undefined)) ?? caller;",
    to: "if (isFailure(caller)) return caller;",
    tests: [W("surface-holes"), N("surface-holes")],
  },
  {
    name: "auth: {} lets anonymous callers in as anonymous",
    file: "src/auth/edge-auth.ts",
    from: "const guarded = open ? requirements.filter((alternative) => alternative.length > 0) : requirements;",
    to: "const guarded = requirements;",
    tests: [W("surface-holes"), N("surface-holes")],
  },
  {
    name: "auth: a refused credential is not downgraded to anonymous beside {}",
    file: "src/auth/edge-auth.ts",
    from: "if (open && !refused) return undefined;",
    to: "if (open) return undefined;",
    tests: [W("surface-holes"), N("surface-holes")],
  },
  {
    name: "assertion: aud is the origin of the attempt",
    file: "src/call/run.ts",
    from: "beforeAttempt: assert && ((candidate, target, out) => assert(audience ?? candidate, httpMethod, target, body, out)),",
    to: 'beforeAttempt: assert && ((_candidate, target, out) => assert(audience ?? config.originUrl ?? "", httpMethod, target, body, out)),',
    tests: [W("surface-holes"), N("surface-holes")],
  },
  {
    name: "assertion: aud of a REST origin is ORIGIN_REST_URL",
    file: "src/origins/rest-origin.ts",
    from: "      audience: base,",
    to: "      audience: url,",
    tests: [W("surface-holes")],
  },
  {
    name: "assertion: a unique jti",
    file: "src/auth/caller-assertion.ts",
    from: "jti: crypto.randomUUID(),",
    to: 'jti: "fixed",',
    tests: [W("surface-holes")],
  },
  {
    name: "assertion: the body hash",
    file: "src/auth/caller-assertion.ts",
    from: "...(request.bodySha256 === undefined ? {} : { body_sha256: request.bodySha256 }),",
    to: "",
    tests: [W("surface-holes"), N("surface-holes")],
  },
  {
    name: "assertion: htm and htu",
    file: "src/auth/caller-assertion.ts",
    from: "htm: request.method,\n      htu: htu.href,",
    to: 'htm: "POST",\n      htu: request.audience,',
    tests: [W("surface-holes")],
  },
  {
    name: "REST: a conflicting A2A-Version refused",
    file: "src/bindings/rest-client.ts",
    from: '  if ("notFound" in match && wanted !== undefined && !("notFound" in matchRestRoute(method, path || "/"))) {',
    to: "  if (false) {",
    tests: [W("surface-holes"), N("surface-holes")],
  },
  {
    name: "REST: the header chooses the route's version",
    file: "src/bindings/rest-client.ts",
    from: '? matchRestRoute(method, path || "/", wanted)',
    to: '? matchRestRoute(method, path || "/")',
    tests: [W("surface-holes"), N("surface-holes")],
  },
  // ---- streaming ----
  {
    name: "stream: client cancel reaches the origin",
    file: "src/proxy/sse-guard.ts",
    from: "cancel(reason) {\n      cancelled = true;\n      return reader.cancel(reason);\n    },",
    to: "cancel() {\n      cancelled = true;\n    },",
    tests: [W("proxy"), N("faults")],
  },
  {
    name: "stream: SSE passed through unbuffered",
    file: "src/call/reply.ts",
    from: "    return new Response(endStreamCleanly(events, broken, onBreak), { status: response.status, headers });",
    to: "    return new Response(await new Response(endStreamCleanly(events, broken, onBreak)).arrayBuffer(), { status: response.status, headers });",
    tests: [W("proxy"), N("e2e-proxy")],
  },
  {
    // Not a check that exists, but the bug the end-to-end test is for: something that
    // keeps reading the origin's stream after the client left (here a tee drained in waitUntil).
    name: "stream: nothing reads the origin after the client left",
    file: "src/call/reply.ts",
    from: "    return new Response(endStreamCleanly(events, broken, onBreak), { status: response.status, headers });",
    to: "    const [toClient, kept] = events.tee();\n    edge.keepAlive(kept.pipeTo(new WritableStream()));\n    return new Response(endStreamCleanly(toClient, broken, onBreak), { status: response.status, headers });",
    tests: [N("faults")],
  },
  // ---- protocol bridge: the wiring, then what each decision of src/bridge/ is guarded by ----
  {
    name: "bridge: a call the origin does not speak is translated",
    file: "src/call/admit.ts",
    from: "if (originVersion === undefined || originVersions.includes(call.version)) return call;",
    to: "return call;",
    tests: [W("bridge-proxy"), W("passthrough")],
  },
  {
    name: "bridge: passthrough reads the origin's card before a fresh isolate's first call",
    file: "src/card/card-service.ts",
    from: "return Promise.resolve(origin.resolve(keepAlive)).then(",
    to: "return Promise.resolve(protocolVersions).then(",
    tests: [W("passthrough")],
  },
  {
    name: "bridge: SSE translated event by event",
    file: "src/call/reply.ts",
    from: "const { outcome, unreadable } = translated(plan, read.outcome);",
    to: "const { outcome, unreadable } = { outcome: read.outcome, unreadable: undefined };",
    tests: [W("bridge-proxy")],
  },
  {
    name: "bridge: the origin is told its own version",
    file: "src/call/run.ts",
    from: 'headers.set("a2a-version", origin.version);',
    to: 'headers.set("a2a-version", plan.call.version);',
    tests: [W("bridge-proxy")],
  },
  {
    name: "version: the origin is told the checked version, never the client's text",
    file: "src/call/run.ts",
    from: 'headers.set("a2a-version", origin.version);',
    to: 'if (!headers.has("a2a-version")) headers.set("a2a-version", origin.version);',
    tests: [W("proxy"), W("surface-holes")],
  },
  {
    name: "bridge: members the target lacks are dropped",
    file: "src/bridge/reshape.ts",
    from: "const out: JsonObject = { ...base };",
    to: "const out: JsonObject = { ...base, ...value };",
    tests: [W("bridge"), W("bridge-sdk")],
  },
  {
    name: "bridge: ProtoJSON integer enums read",
    file: "src/bridge/reshape.ts",
    from: "const at = numbered && typeof value",
    to: "const at = false && typeof value",
    tests: [W("bridge"), W("bridge-events")],
  },
  {
    name: "bridge: roles",
    file: "src/bridge/parts.ts",
    from: 'const V03_ROLES = [undefined, "user", "agent"];',
    to: 'const V03_ROLES = [undefined, "agent", "user"];',
    tests: [W("bridge")],
  },
  {
    name: "bridge: task states",
    file: "src/bridge/events.ts",
    from: '  "input-required",\n  "rejected",\n  "auth-required",\n];',
    to: '  "rejected",\n  "input-required",\n  "auth-required",\n];',
    tests: [W("bridge-events")],
  },
  {
    name: "bridge: input-required is final in 0.3",
    file: "src/bridge/events.ts",
    from: '"rejected", "input-required"]);',
    to: '"rejected"]);',
    tests: [W("bridge-events")],
  },
  {
    name: "bridge: final derived from the state",
    file: "src/bridge/events.ts",
    from: "final: FINAL_V03_STATES.has(state)",
    to: "final: true",
    tests: [W("bridge-events"), W("bridge-sdk")],
  },
  {
    name: "bridge: 0.3 contextId written as the proto default",
    file: "src/bridge/events.ts",
    from: '{ kind: "task", contextId: "" }',
    to: '{ kind: "task" }',
    tests: [W("bridge-events")],
  },
  {
    name: "bridge: an empty contextId left out of 1.0",
    file: "src/bridge/events.ts",
    from: "contextId: unlessEmpty,",
    to: "contextId: true,",
    tests: [W("bridge-events"), W("bridge-roundtrip")],
  },
  {
    name: "bridge: append handed on",
    file: "src/bridge/events.ts",
    from: "artifact: artifactV1, append: true, lastChunk: true,",
    to: "artifact: artifactV1, lastChunk: true,",
    tests: [W("bridge-events"), W("bridge-roundtrip")],
  },
  {
    name: "bridge: non-object data wrapped with the compat flag",
    file: "src/bridge/parts.ts",
    from: "[DATA_PART_COMPAT]: true } };",
    to: "[DATA_PART_COMPAT]: false } };",
    tests: [W("bridge"), W("bridge-sdk")],
  },
  {
    name: "bridge: compat data unwrapped",
    file: "src/bridge/parts.ts",
    from: '!Object.hasOwn(data, "value")) {',
    to: 'Object.hasOwn(data, "value")) {',
    tests: [W("bridge"), W("bridge-roundtrip")],
  },
  {
    name: "bridge: bytes win over a uri beside them",
    file: "src/bridge/parts.ts",
    from: 'Object.hasOwn(file, "bytes") ? FILE_BYTES_V1 : FILE_URI_V1',
    to: 'Object.hasOwn(file, "uri") ? FILE_URI_V1 : FILE_BYTES_V1',
    tests: [W("bridge")],
  },
  {
    name: "bridge: file mediaType is 0.3 mimeType",
    file: "src/bridge/parts.ts",
    from: 'const FILE_RAW_V03: Fields = { raw: "bytes", filename: "name", mediaType: "mimeType" };',
    to: 'const FILE_RAW_V03: Fields = { raw: "bytes", filename: "name", mediaType: "mediaType" };',
    tests: [W("bridge"), W("bridge-sdk")],
  },
  {
    name: "bridge: a text part's mediaType dropped for 0.3",
    file: "src/bridge/parts.ts",
    from: 'if (has("text")) return reshape(part, { text: true, metadata: true }, { kind: "text" });',
    to: 'if (has("text")) return reshape(part, { text: true, metadata: true, mediaType: true }, { kind: "text" });',
    tests: [W("bridge")],
  },
  {
    name: "bridge: blocking is not returnImmediately",
    file: "src/bridge/params.ts",
    from: 'blocking: ["returnImmediately", negate],',
    to: 'blocking: "returnImmediately",',
    tests: [W("bridge"), W("bridge-sdk")],
  },
  {
    name: "bridge: historyLength as a JSON integer for 0.3",
    file: "src/bridge/params.ts",
    from: "  historyLength: integer,\n  returnImmediately",
    to: "  historyLength: true,\n  returnImmediately",
    tests: [W("bridge")],
  },
  {
    name: "bridge: first push scheme kept",
    file: "src/bridge/params.ts",
    from: '(schemes[0] ?? "")',
    to: 'schemes.join(",")',
    tests: [W("bridge")],
  },
  {
    name: "bridge: push config task and config ids",
    file: "src/bridge/params.ts",
    from: 'reshape(params, { id: "taskId", pushNotificationConfigId: "id" });',
    to: 'reshape(params, { id: "id", pushNotificationConfigId: "taskId" });',
    tests: [W("bridge"), W("bridge-sdk")],
  },
  {
    name: "bridge: 0.3 metadata dropped where 1.0 has none",
    file: "src/bridge/params.ts",
    from: "(params) => reshape(params, { id: true, historyLength: true }),",
    to: "(params) => reshape(params, { id: true, historyLength: true, metadata: true }),",
    tests: [W("bridge")],
  },
  {
    name: "bridge: push-config list wrapped and mapped",
    file: "src/bridge/params.ts",
    from: "{ configs: result.map(taskPushConfigV1) }",
    to: "{ configs: result }",
    tests: [W("bridge-events"), W("bridge-sdk")],
  },
  {
    name: "bridge: no configs is []",
    file: "src/bridge/params.ts",
    from: "listOf(taskPushConfigV03)(result.configs ?? [])",
    to: "listOf(taskPushConfigV03)(result.configs)",
    tests: [W("bridge-events")],
  },
  {
    name: "bridge: delete result null <-> {}",
    file: "src/bridge/params.ts",
    from: "(result === null ? {} : result)",
    to: "result",
    tests: [W("bridge-events"), W("bridge-sdk")],
  },
  {
    name: "bridge: tenant written into 1.0 calls",
    file: "src/bridge/index.ts",
    from: 'if (to === "1.0" && options.tenant',
    to: 'if (to === "0.3" && options.tenant',
    tests: [W("bridge")],
  },
  {
    name: "bridge: a method the origin lacks answered at the edge",
    file: "src/bridge/index.ts",
    from: "if (method === undefined) return { unsupported: true,",
    to: 'if (method === "") return { unsupported: true,',
    tests: [W("bridge")],
  },
  {
    name: "bridge: ErrorInfo of an A2A code added for 1.0",
    file: "src/bridge/error-data.ts",
    from: "if (reason !== undefined && !details.some(",
    to: "if (false && !details.some(",
    tests: [W("bridge-errors"), W("bridge-sdk")],
  },
  {
    name: "bridge: implied ErrorInfo dropped for 0.3",
    file: "src/bridge/error-data.ts",
    from: "data.filter((detail) => !isImpliedErrorInfo(detail, reason))",
    to: "data.filter(() => true)",
    tests: [W("bridge-errors"), W("bridge-sdk")],
  },
  {
    name: "bridge: ErrorInfo with metadata is not implied",
    file: "src/bridge/error-data.ts",
    from: "&& Object.keys(more).length === 0;",
    to: ";",
    tests: [W("bridge-errors")],
  },
  {
    name: "bridge: only codes both generations define get a reason",
    file: "src/bridge/error-data.ts",
    from: '  "EXTENDED_AGENT_CARD_NOT_CONFIGURED",\n];',
    to: '  "EXTENDED_AGENT_CARD_NOT_CONFIGURED",\n  "EXTENSION_SUPPORT_REQUIRED",\n  "VERSION_NOT_SUPPORTED",\n];',
    tests: [W("bridge-errors")],
  },
  {
    name: "bridge: free-form 0.3 data wrapped as a Value",
    file: "src/bridge/error-data.ts",
    from: '[{ "@type": VALUE_TYPE, value: data }]',
    to: "[data]",
    tests: [W("bridge-errors")],
  },
  {
    name: "bridge: a lone Value unwrapped for 0.3",
    file: "src/bridge/error-data.ts",
    from: "return only.value;",
    to: "return rest;",
    tests: [W("bridge-errors")],
  },
  {
    name: "bridge: an error envelope's error translated",
    file: "src/bridge/index.ts",
    from: 'if (Object.hasOwn(response, "error")) return',
    to: "if (false) return",
    tests: [W("bridge-errors"), W("bridge-sdk")],
  },
  // ---- protocol bridge end to end: real SDK peers of either generation through `wrangler dev` ----
  {
    name: "bridge e2e: a call the origin cannot read is translated",
    file: "src/call/admit.ts",
    from: "if (originVersion === undefined || originVersions.includes(call.version)) return call;",
    to: "if (true) return call;",
    tests: [N("e2e-bridge")],
  },
  {
    name: "bridge e2e: the origin is told its own version",
    file: "src/call/run.ts",
    from: 'headers.set("a2a-version", origin.version);',
    to: 'headers.set("a2a-version", plan.call.version);',
    tests: [N("e2e-bridge")],
  },
  {
    name: "bridge e2e: a JSON reply translated back",
    file: "src/call/reply.ts",
    from: "if (plan.native && !EXTENDED_CARD_METHODS.has(call.method)) {",
    to: "if (!EXTENDED_CARD_METHODS.has(call.method)) {",
    tests: [N("e2e-bridge")],
  },
  {
    name: "bridge e2e: SSE events translated back",
    file: "src/call/reply.ts",
    from: "const { outcome, unreadable } = translated(plan, read.outcome);",
    to: "const { outcome, unreadable } = { outcome: read.outcome, unreadable: undefined };",
    tests: [N("e2e-bridge")],
  },
  {
    name: "bridge e2e: SSE translated as each event arrives, not buffered",
    file: "src/call/reply.ts",
    from: "const events = plan.native ? response.body : readEvents(edge, plan, reply, codec, response.body);",
    to: "const events = plan.native ? response.body : readEvents(edge, plan, reply, codec, new Response(await new Response(response.body).arrayBuffer()).body ?? response.body);",
    tests: [N("e2e-bridge")],
  },
  {
    name: "bridge e2e: errors translated back",
    file: "src/bridge/index.ts",
    from: 'if (Object.hasOwn(response, "error")) return',
    to: "if (false) return",
    tests: [N("e2e-bridge")],
  },
  {
    name: "bridge e2e: the extended card rebuilt in the caller's version",
    file: "src/call/extended-card.ts",
    from: 'call.generation === "1.0" ? "v1" : "v0.3"',
    to: 'origin.generation === "1.0" ? "v1" : "v0.3"',
    tests: [N("e2e-bridge")],
  },
  // ---- REST binding: what each decision of src/rest/ is guarded by ----
  {
    name: "rest: every 1.0 route under /{tenant} too",
    file: "src/rest/rest-routes.ts",
    from: "`{tenant}/",
    to: "`",
    tests: [W("rest-routes")],
  },
  {
    name: "rest: subscribe by POST as well as GET",
    file: "src/rest/rest-routes.ts",
    from: '["GET POST", "tasks/{id}:subscribe", 5]',
    to: '["GET", "tasks/{id}:subscribe", 5]',
    tests: [W("rest-routes"), W("rest-sdk")],
  },
  {
    name: "rest: no 0.3 ListTasks route",
    file: "src/rest/rest-routes.ts",
    from: "operation !== 3)",
    to: "true)",
    tests: [W("rest-routes")],
  },
  {
    name: "rest: 0.3 extended card at /v1/card",
    file: "src/rest/rest-routes.ts",
    from: 'operation === 10 ? "v1/card"',
    to: 'operation === -1 ? "v1/card"',
    tests: [W("rest-routes"), W("rest-sdk")],
  },
  {
    // "(.+)" would be an equivalent mutant: a value with a slash is refused once decoded (next entry).
    name: "rest: a path variable is never empty",
    file: "src/rest/rest-routes.ts",
    from: '"([^/]+)"',
    to: '"([^/]*)"',
    tests: [W("rest-routes")],
  },
  {
    name: "rest: a variable decoding to a slash refused",
    file: "src/rest/rest-routes.ts",
    from: 'return value !== "" && value !== "." && value !== ".." && !value.includes("/");',
    to: 'return value !== "" && value !== "." && value !== "..";',
    tests: [W("rest-routes")],
  },
  {
    name: "rest: a dot segment is no path variable",
    file: "src/rest/rest-routes.ts",
    from: 'return value !== "" && value !== "." && value !== ".." && !value.includes("/");',
    to: 'return value !== "" && !value.includes("/");',
    tests: [W("surface-holes"), N("surface-holes")],
  },
  {
    name: "rest origin: ids checked as path segments",
    file: "src/rest/rest-routes.ts",
    from: "  if (invalid) return { invalid };\n",
    to: "",
    tests: [W("surface-holes")],
  },
  {
    name: "rest origin: the built URL checked to stay under ORIGIN_REST_URL",
    file: "src/origins/rest-origin.ts",
    from: "return url.origin === root.origin && url.pathname.startsWith(prefix) ? url.href : undefined;",
    to: "return url.href;",
    tests: [W("surface-holes")],
  },
  {
    name: "rest: a malformed escape refused",
    file: "src/rest/rest-routes.ts",
    from: "  } catch {\n    return undefined;\n  }",
    to: "  } catch {\n    return raw;\n  }",
    tests: [W("rest-routes")],
  },
  {
    name: "rest: 405 with the path's methods",
    file: "src/rest/rest-routes.ts",
    from: "allowed.size > 0 ? { methodNotAllowed: [...allowed] } : { notFound: true }",
    to: "{ notFound: true }",
    tests: [W("rest-routes")],
  },
  {
    name: "rest: routes chosen by method, not by path alone",
    file: "src/rest/rest-routes.ts",
    from: "if (route.methods.includes(method)) return",
    to: "if (true) return",
    tests: [W("rest-routes")],
  },
  {
    name: "rest: routes of the caller's version only",
    file: "src/rest/rest-routes.ts",
    from: "version === undefined || route.version === version ?",
    to: "true ?",
    tests: [W("rest-routes")],
  },
  {
    name: "rest: the path's tenant in the params",
    file: "src/rest/rest-request.ts",
    from: "if (tenant !== undefined) params.tenant = tenant;",
    to: "",
    tests: [W("rest-request")],
  },
  {
    name: "rest: a push config's task is taskId",
    file: "src/rest/rest-request.ts",
    from: "params.taskId = id;",
    to: "params.id = id;",
    tests: [W("rest-request"), W("rest-sdk")],
  },
  {
    name: "rest: the path's id over the body's",
    file: "src/rest/rest-request.ts",
    from: "} else if (id !== undefined) params.id = id;",
    to: "}",
    tests: [W("rest-request"), W("rest-sdk")],
  },
  {
    name: "rest: int32 query values only",
    file: "src/rest/rest-request.ts",
    from: "/^\\d{1,9}$/.test(raw) ? Number(raw) : undefined",
    to: "Number(raw)",
    tests: [W("rest-request")],
  },
  {
    name: "rest: bool query values only",
    file: "src/rest/rest-request.ts",
    from: 'raw === "true" ? true : raw === "false" ? false : undefined',
    to: 'raw === "true"',
    tests: [W("rest-request")],
  },
  {
    name: "rest: lower-case task states in the query",
    file: "src/rest/rest-request.ts",
    from: '.toUpperCase().replaceAll("-", "_")',
    to: "",
    tests: [W("rest-request")],
  },
  {
    name: "rest: proto names in the query",
    file: "src/rest/rest-request.ts",
    from: "name.replace(/[A-Z]/g,",
    to: "name.replace(/(?!)/g,",
    tests: [W("rest-request")],
  },
  {
    name: "rest: CancelTask without a body",
    file: "src/rest/rest-request.ts",
    from: 'operation === "cancelTask" && body == null',
    to: "false",
    tests: [W("rest-request"), W("rest-sdk")],
  },
  {
    name: "rest: 1.0 POST bodies are the request",
    file: "src/rest/rest-request.ts",
    from: '  "cancelTask",\n  "createPushNotificationConfig",\n]);',
    to: '  "cancelTask",\n]);',
    tests: [W("rest-request"), W("rest-sdk")],
  },
  {
    name: "rest: method names of the route's version",
    file: "src/rest/rest-request.ts",
    from: 'route.version === "1.0" ? 1 : 0',
    to: "1",
    tests: [W("rest-request"), W("rest-sdk")],
  },
  {
    name: "rest: 0.3 params made by the bridge",
    file: "src/rest/rest-request.ts",
    from: 'return version === "1.0" ? params : jsonObject(row[3](params));',
    to: "return params;",
    tests: [W("rest-request"), W("rest-sdk")],
  },
  {
    name: "rest: 0.3 set takes its task from the path",
    file: "src/rest/rest-request.ts",
    from: "pushConfigFromProto(body, id)",
    to: "pushConfigFromProto(body, body.taskId)",
    tests: [W("rest-request")],
  },
  {
    name: "rest: 0.3 proto content is parts",
    file: "src/rest/proto-v03.ts",
    from: 'content: ["parts", listOf(partFromProto)],',
    to: "content: true,",
    tests: [W("rest-request"), W("rest-sdk")],
  },
  {
    name: "rest: 0.3 proto DataPart unwrapped",
    file: "src/rest/proto-v03.ts",
    from: "(data) => jsonObject(data)?.data",
    to: "(data) => data",
    tests: [W("rest-request"), W("rest-sdk")],
  },
  {
    name: "rest: 0.3 proto file fields",
    file: "src/rest/proto-v03.ts",
    from: '{ fileWithUri: "uri", fileWithBytes: "bytes", mimeType: true, name: true }',
    to: "{ fileWithUri: true, fileWithBytes: true, mimeType: true, name: true }",
    tests: [W("rest-request"), W("rest-sdk")],
  },
  {
    name: "rest: 0.3 JSON-RPC parts read as they are",
    file: "src/rest/proto-v03.ts",
    from: ' || Object.hasOwn(part, "kind")) return part;',
    to: ") return part;",
    tests: [W("rest-request")],
  },
  {
    name: "rest: 0.3 pushNotification is pushNotificationConfig",
    file: "src/rest/proto-v03.ts",
    from: 'pushNotification: ["pushNotificationConfig",',
    to: 'pushNotification: ["pushNotification",',
    tests: [W("rest-request")],
  },
  {
    name: "rest: 0.3 proto spells CANCELLED",
    file: "src/rest/proto-v03.ts",
    from: 'state.replace("CANCELED", "CANCELLED")',
    to: "state",
    tests: [W("rest-response")],
  },
  {
    name: "rest: 0.3 parts are proto content",
    file: "src/rest/proto-v03.ts",
    from: 'parts: ["content", listOf(partToProto)],',
    to: "parts: listOf(partToProto),",
    tests: [W("rest-response"), W("rest-sdk")],
  },
  {
    name: "rest: 0.3 file bytes win over a uri",
    file: "src/rest/proto-v03.ts",
    from: 'Object.hasOwn(file, "bytes") ?',
    to: "false ?",
    tests: [W("rest-response"), W("rest-sdk")],
  },
  {
    name: "rest: 0.3 data part in a DataPart",
    file: "src/rest/proto-v03.ts",
    from: "{ data: { data: part.data } }",
    to: "{ data: part.data }",
    tests: [W("rest-response"), W("rest-sdk")],
  },
  {
    name: "rest: 0.3 push config named by its resource",
    file: "src/rest/proto-v03.ts",
    from: "return { name: `tasks/",
    to: "return { taskId: config.taskId, name: `tasks/",
    tests: [W("rest-response"), W("rest-sdk")],
  },
  {
    name: "rest: 0.3 card security schemes in the proto's form",
    file: "src/rest/proto-v03.ts",
    from: "securitySchemeV1(scheme as OpenApiSecurityScheme)",
    to: "scheme",
    tests: [W("rest-response"), W("rest-sdk")],
  },
  {
    name: "rest: 0.3 card requirements in the proto's form",
    file: "src/rest/proto-v03.ts",
    from: "isJsonObject(requirement) ? securityRequirementV1(requirement as v03.SecurityRequirement) : requirement",
    to: "requirement",
    tests: [W("rest-response"), W("rest-sdk")],
  },
  {
    name: "rest: 0.3 push config list in a response message",
    file: "src/rest/rest-response.ts",
    from: "{ configs: result.map(pushConfigToProto) }",
    to: "result.map(pushConfigToProto)",
    tests: [W("rest-response"), W("rest-sdk")],
  },
  {
    name: "rest: 1.0 results pass as they are",
    file: "src/rest/rest-response.ts",
    from: 'const toProto = version === "0.3" ? PROTO_RESULTS[operation] : undefined;',
    to: "const toProto = PROTO_RESULTS[operation];",
    tests: [W("rest-response"), W("rest-sdk")],
  },
  {
    name: "rest: 201 for a created push config",
    file: "src/rest/rest-response.ts",
    from: 'const created = operation === "createPushNotificationConfig" ||',
    to: "const created =",
    tests: [W("rest-response"), W("rest-sdk")],
  },
  {
    name: "rest: 201 for 0.3 message:send",
    file: "src/rest/rest-response.ts",
    from: '(version === "0.3" && operation === "sendMessage")',
    to: "false",
    tests: [W("rest-response"), W("rest-sdk")],
  },
  {
    name: "rest: 204 for a deleted push config",
    file: "src/rest/rest-response.ts",
    from: 'if (operation === "deletePushNotificationConfig") return { status: 204 };',
    to: "",
    tests: [W("rest-response"), W("rest-sdk")],
  },
  {
    name: "rest: ContentTypeNotSupported is INVALID_ARGUMENT",
    file: "src/rest/rest-response.ts",
    from: "[NOT_FOUND, FAILED, FAILED, FAILED, INVALID, INTERNAL,",
    to: "[NOT_FOUND, FAILED, FAILED, FAILED, FAILED, INTERNAL,",
    tests: [W("rest-response")],
  },
  {
    name: "rest: -32601 is UNIMPLEMENTED (501)",
    file: "src/rest/rest-response.ts",
    from: '[-32601]: "UNIMPLEMENTED",',
    to: "[-32601]: NOT_FOUND,",
    tests: [W("rest-response")],
  },
  {
    name: "rest: 1.0's own reasons for -32008 and -32009",
    file: "src/rest/rest-response.ts",
    from: '[...REASONS, "EXTENSION_SUPPORT_REQUIRED", "VERSION_NOT_SUPPORTED"]',
    to: "[...REASONS]",
    tests: [W("rest-response")],
  },
  {
    name: "rest: the ErrorInfo an A2A error needs",
    file: "src/rest/rest-response.ts",
    from: "if (reason && !details.some(",
    to: "if (false && !details.some(",
    tests: [W("rest-response")],
  },
  {
    name: "rest: the ErrorInfo not repeated",
    file: "src/rest/rest-response.ts",
    from: '!details.some((detail) => jsonObject(detail)?.["@type"] === ERROR_INFO_TYPE)',
    to: "true",
    tests: [W("rest-response"), W("rest-sdk")],
  },
  {
    name: "rest: 0.3 errors are the JSON-RPC error itself",
    file: "src/rest/rest-response.ts",
    from: "body: isJsonObject(error) ? error :",
    to: "body: isJsonObject(error) ? { error } :",
    tests: [W("rest-response"), W("rest-sdk")],
  },
  {
    name: "rest: a reply without a result is InvalidAgentResponse",
    file: "src/rest/rest-response.ts",
    from: 'if (!reply || !Object.hasOwn(reply, "result")) {',
    to: "if (!reply) {",
    tests: [W("rest-response")],
  },
  {
    name: "rest: SSE errors are error events",
    file: "src/rest/rest-response.ts",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: source text of the template literal the mutation replaces, matched verbatim
    from: "`event: error\\ndata: ${JSON.stringify(restError(version, reply.error).body)}`",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: source text of the template literal the mutation writes
    to: "`data: ${JSON.stringify(restError(version, reply.error).body)}`",
    tests: [W("rest-response")],
  },
  {
    name: "rest: 0.3 SSE events in the proto's form",
    file: "src/rest/rest-response.ts",
    from: 'version === "0.3" ? streamToProto(result) : result',
    to: "result",
    tests: [W("rest-response"), W("rest-sdk")],
  },
  {
    name: "rest origin: fields the path binds stay out of body and query",
    file: "src/rest/origin-mapping.ts",
    from: 'const bound: string[] = ["tenant", ...target.names.map((name) => fields[name])];',
    to: "const bound: string[] = [];",
    tests: [W("rest-origin")],
  },
  {
    name: "rest origin: 0.3 ids placed through 1.0's params",
    file: "src/rest/origin-mapping.ts",
    from: "row[2](call.params)",
    to: "call.params",
    tests: [W("rest-origin")],
  },
  {
    name: "rest origin: a push config's task is the path's task",
    file: "src/rest/origin-mapping.ts",
    from: 'id: push ? "taskId" : "id"',
    to: 'id: "id"',
    tests: [W("rest-origin")],
  },
  {
    name: "rest origin: GET and DELETE fields in the query",
    file: "src/rest/origin-mapping.ts",
    from: 'if (target.method !== "POST") {',
    to: "if (false) {",
    tests: [W("rest-origin")],
  },
  {
    name: "rest origin: an empty body is no body",
    file: "src/rest/origin-mapping.ts",
    from: "Object.keys(body).length === 0 ? undefined : body",
    to: "false ? undefined : body",
    tests: [W("rest-origin")],
  },
  {
    name: "rest origin: 0.3 bodies in its proto's JSON",
    file: "src/rest/origin-mapping.ts",
    from: 'version === "0.3" ? BODY_V03[operation]?.(call.params) :',
    to: 'version === "0.3" ? call.params :',
    tests: [W("rest-origin")],
  },
  {
    name: "rest origin: the A2A error an ErrorInfo names",
    file: "src/rest/origin-mapping.ts",
    from: "const at = A2A_REASONS.indexOf(String(info?.reason));",
    to: "const at = -1;",
    tests: [W("rest-origin")],
  },
  {
    name: "rest origin: only ErrorInfo of the A2A domain",
    file: "src/rest/origin-mapping.ts",
    from: " && detail.domain === ERROR_DOMAIN",
    to: "",
    tests: [W("rest-origin")],
  },
  {
    name: "rest origin: 400 without a reason is -32602",
    file: "src/rest/origin-mapping.ts",
    from: "status === 400 ? -32602 :",
    to: "",
    tests: [W("rest-origin")],
  },
  {
    name: "rest origin: 404 and 501 without a reason are -32601",
    file: "src/rest/origin-mapping.ts",
    from: "status === 404 || status === 501 ? -32601 :",
    to: "",
    tests: [W("rest-origin")],
  },
  {
    name: "rest origin: a 0.3 error body is the JSON-RPC error",
    file: "src/rest/origin-mapping.ts",
    from: 'if (version === "0.3" && isJsonObject(body) && typeof body.code === "number") return body;',
    to: "",
    tests: [W("rest-origin")],
  },
  {
    name: "rest origin: 0.3 results from its proto's JSON",
    file: "src/rest/origin-mapping.ts",
    from: 'const toJsonRpc = version === "0.3" ? JSONRPC_RESULTS[operation] : undefined;',
    to: "const toJsonRpc = undefined;",
    tests: [W("rest-origin")],
  },
  {
    name: "rest origin: a 1.0 204 is Empty",
    file: "src/rest/origin-mapping.ts",
    from: "(body ?? {})",
    to: "body",
    tests: [W("rest-origin")],
  },
  {
    name: "rest origin: SSE error events are errors",
    file: "src/rest/origin-mapping.ts",
    from: 'if (event === "error") return',
    to: "if (false) return",
    tests: [W("rest-origin")],
  },
  {
    name: "rest origin: 0.3 status updates are final: false unless said",
    file: "src/rest/proto-v03.ts",
    from: "{ final: false },",
    to: "{},",
    tests: [W("rest-origin")],
  },
  {
    name: "rest origin: 0.3 states from its proto",
    file: "src/rest/proto-v03.ts",
    from: "state: enumMap(PROTO_STATES, V03_STATES, true)",
    to: "state: true",
    tests: [W("rest-origin")],
  },
  {
    name: "rest origin: 0.3 config's task from its name",
    file: "src/rest/proto-v03.ts",
    from: "/^tasks\\/([^/]+)/",
    to: "/^$/",
    tests: [W("rest-origin")],
  },
  {
    name: "rest origin: 0.3 card schemes in the type form",
    file: "src/rest/origin-mapping.ts",
    from: "mapValues(schemes, securitySchemeFromV1)",
    to: "schemes",
    tests: [W("rest-origin")],
  },
  {
    name: "rest origin: the first method of a route (GET for subscribe)",
    file: "src/rest/rest-routes.ts",
    from: "return { method: route.methods[0], path, names: route.names };",
    to: 'return { method: route.methods.at(-1) ?? "", path, names: route.names };',
    tests: [W("rest-origin")],
  },
  {
    name: "rest origin: path variables percent-encoded",
    file: "src/rest/rest-routes.ts",
    from: 'encodeURIComponent(pathParams[name] ?? "")',
    to: '(pathParams[name] ?? "")',
    tests: [W("rest-origin")],
  },
  {
    name: "rest origin: the tenant's route when a tenant is given",
    file: "src/rest/rest-routes.ts",
    from: 'r.names.includes("tenant") === tenanted',
    to: '!r.names.includes("tenant")',
    tests: [W("rest-origin")],
  },
  // ---- card intake: never another agent's card ----
  {
    name: "card: a host whose document cannot be read is answered by the next source",
    file: "src/card/store.ts",
    from: 'if (own.state !== "absent") return this.#answer(hostname, own);',
    to: 'if (own.state === "good") return this.#answer(hostname, own);',
    tests: [W("kv")],
  },
  {
    name: "card: an origin card that cannot be read falls back to KV/bundled",
    file: "src/card/card-service.ts",
    from: "const resolved = this.originCards ? this.originCards.resolve(keepAlive) : this.store.resolve(hostname, keepAlive);",
    to: "const resolved = this.originCards ? Promise.resolve(this.originCards.resolve(keepAlive)).catch(() => this.store.resolve(hostname, keepAlive)) : this.store.resolve(hostname, keepAlive);",
    tests: [W("passthrough")],
  },
  {
    name: "card: the last good copy kept only in isolate memory (a fresh isolate has none)",
    file: "src/card/last-good.ts",
    from: "const saving = this.#save(name, text, savedAt).catch(",
    to: "const saving = Promise.resolve().catch(",
    tests: [W("kv"), W("passthrough")],
  },
  // ---- card intake: the repair rules that matter ----
  {
    name: "intake: an unknown member naming security dropped instead of refusing the card",
    file: "src/card/reading.ts",
    from: "else if (SECURITY_NAME.test(name))\n      reading.refuse(",
    to: "else if (false)\n      reading.refuse(",
    tests: [W("intake")],
  },
  {
    name: "intake: an unknown authentication scheme name dropped instead of refusing the card",
    file: "src/card/card-reader.ts",
    from: "    else\n      reading.refuse(\n        AUTHENTICATION,",
    to: "    else if (false)\n      reading.refuse(\n        AUTHENTICATION,",
    tests: [W("intake")],
  },
  {
    name: "intake: bare modes not mapped to media types",
    file: "src/card/reading.ts",
    from: 'const type = typeof mode === "string" ? mediaTypeOf(mode) : undefined;',
    to: 'const type = typeof mode === "string" ? mode : undefined;',
    tests: [W("intake")],
  },
  {
    name: "intake: no derived skill for a card without skills (1.0 §5.7)",
    file: "src/card/skill-reader.ts",
    from: "  return [{ name: agent.name, description: text(agent.description) ?? agent.name }];",
    to: "  return [];",
    tests: [W("intake")],
  },
  {
    name: "intake: a card's URL published whatever its scheme (javascript:, data:, file: ...)",
    file: "src/card/url-schemes.ts",
    from: "if (!schemes.includes(parsed)) {",
    to: "if (false) {",
    tests: [W("card-urls")],
  },
  {
    name: "extended card: its URLs published whatever their scheme",
    file: "src/call/extended-card.ts",
    from: "publicizeCard(withPublishedUrlsOnly(card), privateOrigins",
    to: "publicizeCard(card, privateOrigins",
    tests: [W("proxy")],
  },
  // ---- lenient reading on the wire ----
  {
    name: "bridge: a 0.3 task without kind not read by its shape",
    file: "src/a2a/v03.ts",
    from: 'if (has("id", "status")) return "task";',
    to: 'if (false) return "task";',
    tests: [W("bridge-lenient")],
  },
  {
    name: "bridge: an unreadable result handed on instead of InvalidAgentResponseError",
    file: "src/bridge/index.ts",
    from: "if (!isUnreadable(result)) return { response: { ...response, result } };",
    to: "return { response: { ...response, result } };",
    tests: [W("bridge-lenient")],
  },
  {
    name: "reply path: a JSON reply read within ORIGIN_REPLY_MAX_BYTES",
    file: "src/call/reply.ts",
    from: 'const read = await readMessageBody(response, { maxBytes, timeoutMs, excess: "cancel", deadlines: edge.deadlines });',
    to: 'const read = await readMessageBody(response, { maxBytes: 2 ** 30, timeoutMs, excess: "cancel", deadlines: edge.deadlines });',
    tests: [W("reply-path"), W("parity")],
  },
  {
    name: "reply path: one SSE event held within the bound",
    file: "src/http/sse-events.ts",
    from: "return size <= limits.maxEventChars;",
    to: "return true;",
    tests: [W("reply-path"), W("parity")],
  },
  {
    name: "reply path: a body that is not JSON is a 502, not an empty result",
    file: "src/call/reply.ts",
    from: "(body === undefined || exceedsDepth(body))",
    to: "exceedsDepth(body ?? null)",
    tests: [W("reply-path"), W("parity")],
  },
  {
    name: "reply path: only the same binding and generation pass unread",
    file: "src/call/admit.ts",
    from: "const native = call.binding === codec.binding && call.generation === origin.generation &&",
    to: "const native = call.generation === origin.generation &&",
    tests: [W("reply-path"), W("parity")],
  },
  {
    name: "classify: an origin 5xx is a 502 for every origin kind",
    file: "src/call/classify.ts",
    from: "if (status >= 500)",
    to: "if (status >= 600)",
    tests: [W("reply-path"), W("parity")],
  },
  {
    name: "reply path: the stream goes on after an event the edge cannot read",
    file: "src/call/reply.ts",
    from: "    return { text: event.text, end: true };",
    to: "    return { text: event.text };",
    tests: [W("bridge-lenient")],
  },
  {
    name: "rest: an unreadable event written as data: undefined",
    file: "src/rest/rest-response.ts",
    from: "if (event !== undefined && !isUnreadable(event)) return",
    to: "if (!isUnreadable(event)) return",
    tests: [W("bridge-lenient"), W("rest-response")],
  },
  // ---- push notification webhooks (src/push/) ----
  {
    name: "push: the guard stage runs in admit",
    file: "src/call/admit.ts",
    from: "  if (refused) return refused;",
    to: "  if (false) return refused;",
    tests: [W("push-edge"), W("parity"), N("e2e-push")],
  },
  {
    name: "push: https only",
    file: "src/push/url-guard.ts",
    from: 'if (url.protocol !== "https:" && !(url.protocol === "http:" && loopbackDev)) {',
    to: "if (false) {",
    tests: [W("push-guard")],
  },
  {
    name: "push: the http: exception only for loopback",
    file: "src/push/url-guard.ts",
    from: "const loopbackDev = rules.allowHttpLoopback && isLoopbackUrl(url);",
    to: "const loopbackDev = rules.allowHttpLoopback;",
    tests: [W("push-guard")],
  },
  {
    name: "push: no userinfo",
    file: "src/push/url-guard.ts",
    from: 'if (url.username !== "" || url.password !== "")',
    to: "if (false)",
    tests: [W("push-guard")],
  },
  {
    name: "push: no network-local names",
    file: "src/push/url-guard.ts",
    from: "  if (local) return",
    to: "  if (false) return",
    tests: [W("push-guard")],
  },
  {
    name: "push: no single-label names",
    file: "src/push/url-guard.ts",
    from: 'if (!name.includes(".")) return',
    to: "if (false) return",
    tests: [W("push-guard")],
  },
  {
    name: "push: not the edge's or the origin's hosts",
    file: "src/push/url-guard.ts",
    from: "if (rules.ownHosts.has(name)) return",
    to: "if (false) return",
    tests: [W("push-guard")],
  },
  {
    name: "push: not the edge's or the origin's IP literal",
    file: "src/push/url-guard.ts",
    from: "if (rules.ownHosts.has(host)) return OWN;",
    to: "",
    tests: [W("push-guard")],
  },
  {
    name: "push: under PUSH_ALLOW_HTTP_LOOPBACK, not the edge's or the origin's loopback port",
    file: "src/push/url-guard.ts",
    from: "return rules.ownLoopbackPorts.has(portOf(url)) ? OWN : undefined;",
    to: "return undefined;",
    tests: [W("push-guard")],
  },
  {
    name: "push: the request's own loopback port is among them",
    file: "src/push/guard-stage.ts",
    from: "requestPort === undefined || own.loopbackPorts.has(requestPort) ? own.loopbackPorts",
    to: "true ? own.loopbackPorts",
    tests: [W("push-guard"), W("push-edge"), N("surface-holes")],
  },
  {
    name: "push: PUSH_URL_ALLOWLIST enforced",
    file: "src/push/url-guard.ts",
    from: "if (allowlist && !loopbackDev && !allowlist.some(",
    to: "if (false && allowlist && !allowlist.some(",
    tests: [W("push-guard")],
  },
  {
    name: "push: allowlist *.suffix matches under the suffix only",
    file: "src/push/url-guard.ts",
    from: "host.endsWith(pattern.slice(1))",
    to: "host.endsWith(pattern.slice(2))",
    tests: [W("push-guard")],
  },
  {
    name: "push: url size bound",
    file: "src/push/url-guard.ts",
    from: "if (!withinBytes(value, rules.maxBytes)) return",
    to: "if (false) return",
    tests: [W("push-guard")],
  },
  {
    name: "push: sizes in UTF-8 bytes, not characters",
    file: "src/push/url-guard.ts",
    from: "text.length * 3 <= max ||",
    to: "text.length <= max ||",
    tests: [W("push-guard")],
  },
  {
    name: "push: IPv4 10.0.0.0/8",
    file: "src/push/ip-ranges.ts",
    from: '  ["10.0.0.0", 8, "private (10.0.0.0/8)"],\n',
    to: "",
    tests: [W("push-guard")],
  },
  {
    name: "push: IPv4 link-local (cloud metadata)",
    file: "src/push/ip-ranges.ts",
    from: '  ["169.254.0.0", 16, "link-local (169.254.0.0/16)"],\n',
    to: "",
    tests: [W("push-guard")],
  },
  {
    name: "push: IPv4 carrier-grade NAT",
    file: "src/push/ip-ranges.ts",
    from: '  ["100.64.0.0", 10, "carrier-grade NAT (100.64.0.0/10)"],\n',
    to: "",
    tests: [W("push-guard")],
  },
  {
    name: "push: IPv4 loopback",
    file: "src/push/ip-ranges.ts",
    from: '  ["127.0.0.0", 8, "loopback (127.0.0.0/8)"],\n',
    to: "",
    tests: [W("push-guard")],
  },
  {
    name: "push: IPv6 outside global unicast",
    file: "src/push/ip-ranges.ts",
    from: "if (((groups[0] ?? 0) & 0xe000) !== 0x2000) return nonGlobalKind(groups);",
    to: "",
    tests: [W("push-guard")],
  },
  {
    name: "push: IPv6 6to4 inside global unicast",
    file: "src/push/ip-ranges.ts",
    from: '  [[0x2002], 16, "6to4 (2002::/16, carries an IPv4 address)"],\n',
    to: "",
    tests: [W("push-guard")],
  },
  {
    name: "push: token and credentials without control characters",
    file: "src/push/push-configs.ts",
    from: "if (hasControl(value)) return",
    to: "if (false) return",
    tests: [W("push-guard")],
  },
  {
    name: "push: C1 controls (NEL) are control characters",
    file: "src/push/url-guard.ts",
    from: "if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return true;",
    to: "if (code < 0x20 || code === 0x7f) return true;",
    tests: [W("push-guard"), W("parity")],
  },
  {
    name: "push: no backslash, whitespace or control character in a URL",
    file: "src/push/url-guard.ts",
    from: "  const unreadable = characterRefusal(value);\n  if (unreadable) return unreadable;\n",
    to: "",
    tests: [W("push-guard"), W("parity")],
  },
  {
    name: "push: no percent-escape in a URL's authority",
    file: "src/push/url-guard.ts",
    from: 'if (authority.includes("%")) return',
    to: "if (false) return",
    tests: [W("push-guard")],
  },
  {
    name: "push: scheme:// written out",
    file: "src/push/url-guard.ts",
    from: 'if (!authority) return "must be written',
    to: 'if (false) return "must be written',
    tests: [W("push-guard")],
  },
  {
    name: "push: the origin gets a webhook URL in its serialized form",
    file: "src/call/admit.ts",
    from: "const serialized = serializedUrls(origin.operation, origin.params);",
    to: "const serialized = undefined;",
    tests: [W("reading")],
  },
  {
    name: "push: token and credentials size bound",
    file: "src/push/push-configs.ts",
    from: "if (!withinBytes(value, maxBytes))",
    to: "if (false)",
    tests: [W("push-guard")],
  },
  {
    name: "push: one config per call",
    file: "src/push/push-configs.ts",
    from: '"url" in value).length > 1) {',
    to: '"url" in value).length > 2) {',
    tests: [W("push-guard")],
  },
  {
    name: "push: 1.0 inline config place",
    file: "src/push/push-configs.ts",
    from: 'const SEND_PLACES = ["pushNotificationConfig", "taskPushNotificationConfig"] as const;',
    to: 'const SEND_PLACES = ["pushNotificationConfig"] as const;',
    tests: [W("push-guard")],
  },
  {
    name: "push: 1.0 flat create config",
    file: "src/push/push-configs.ts",
    from: '    found.push({ path: "params", keys: [], value: params });\n',
    to: "",
    tests: [W("push-guard")],
  },
  {
    name: "push: the refused field as google.rpc.BadRequest",
    file: "src/push/guard-stage.ts",
    from: "{ violations: [refused] }",
    to: "{}",
    tests: [W("push-edge")],
  },
  {
    name: "push: the request's own host",
    file: "src/push/guard-stage.ts",
    from: "ownHosts: own.hosts.has(side.hostname) ? own.hosts : new Set([...own.hosts, side.hostname]),",
    to: "ownHosts: own.hosts,",
    tests: [W("push-edge")],
  },
  {
    name: "push: every configured origin's host",
    file: "src/push/guard-stage.ts",
    from: "const urls = [...route.privateOrigins, ",
    to: "const urls = [",
    tests: [W("push-edge")],
  },
  // ---- the push relay (src/push/relay-*.ts) ----
  {
    name: "relay: the origin gets the edge's URL, not the client's",
    file: "src/push/relay-configs.ts",
    from: "const replaced = { ...rest, url: relay.url, token: relay.token };",
    to: "const replaced = { ...rest, url, token: relay.token };",
    tests: [W("push-relay"), N("e2e-push-relay")],
  },
  {
    name: "relay: the client's webhook back in Get and List",
    file: "src/push/relay-stage.ts",
    from: "      if (client) restoreClient(config, client);",
    to: "      if (false) restoreClient(config, client);",
    tests: [W("push-relay")],
  },
  {
    name: "relay: a notification needs the config's token",
    file: "src/push/relay-store.ts",
    from: "if (row.token_hash !== tokenHash) return",
    to: "if (false) return",
    tests: [W("push-relay"), N("e2e-push-relay")],
  },
  {
    name: "relay: a notification of another task is refused",
    file: "src/push/relay-store.ts",
    from: "made.taskId !== row.task_id) return",
    to: "false) return",
    tests: [W("push-relay")],
  },
  {
    name: "relay: Delete ends the relay",
    file: "src/push/relay-stage.ts",
    from: "if (deleted) await relayOf(edge, edge.publicHost)?.forget(deleted.taskId, deleted.configId);",
    to: "if (false) await relayOf(edge, edge.publicHost)?.forget(deleted.taskId, deleted.configId);",
    tests: [W("push-relay")],
  },
  {
    name: "relay: the alarm wakes for a webhook's oldest delivery, not for one queued behind its retries",
    file: "src/push/relay-store.ts",
    from: "SELECT MIN(next_at) AS at FROM deliveries d WHERE",
    to: "SELECT MIN(next_at) AS at FROM deliveries d WHERE 1 OR",
    tests: [W("push-relay"), N("e2e-push-relay")],
  },
  {
    name: "relay: every member of a notification that names a task names the config's",
    file: "src/push/relay-notification.ts",
    from: 'if (tasks.some((id) => typeof id !== "string" || id === "" || id !== taskId)) return { refused: "tasks_differ" };',
    to: "",
    tests: [W("push-relay")],
  },
  {
    name: "relay: a notification is read once (proto names, one oneof member)",
    file: "src/push/relay-notification.ts",
    from: "const read = readNotification(sides.originGeneration, received);",
    to: "const read = { value: received };",
    tests: [W("push-relay")],
  },
  {
    name: "relay: notifications translated for a bridged client",
    file: "src/push/relay-notification.ts",
    from: "const shaped = translateStreamEvent(read.value, sides.originGeneration, sides.clientGeneration);",
    to: "const shaped = read.value;",
    tests: [N("e2e-push-relay")],
  },
  {
    name: "relay: redirects are not followed",
    file: "src/push/relay-store.ts",
    from: 'redirect: "manual",',
    to: 'redirect: "follow",',
    tests: [N("e2e-push-relay")],
  },
  {
    name: "relay: a failed delivery is retried, then logged",
    file: "src/push/relay-store.ts",
    from: "if (attempts >= delivery.max_attempts) {",
    to: "if (attempts >= 1) {",
    tests: [N("e2e-push-relay")],
  },
  // ---- agents by path (src/agents/, the store, the router) ----
  {
    name: "agents: a path agent is its own document or none",
    file: "src/card/store.ts",
    from: 'if (hostname.includes("/")) return andThen(own,',
    to: "if (false) return andThen(own,",
    tests: [W("agents")],
  },
  {
    name: "agents: a document's own origin gets only its named credentials",
    file: "src/proxy/origin-router.ts",
    from: "const headers = credentials === undefined ? {} : this.config.originCredentials[credentials];",
    to: "const headers = credentials === undefined ? this.config.originHeaders : this.config.originCredentials[credentials];",
    tests: [W("agents")],
  },
  // ---- Workers VPC Services (src/proxy/origin-router.ts, src/runtime.ts) ----
  {
    name: "vpc: a document reaches only a binding DOCUMENT_VPC_SERVICES lists",
    file: "src/runtime.ts",
    from: "  for (const name of names) {",
    to: "  for (const name of Object.keys(env)) {",
    tests: [W("vpc-origin")],
  },
  {
    name: "vpc: a refused VPC Service is no origin, never the deployment's",
    file: "src/proxy/origin-router.ts",
    from: "if (document.originVpc !== undefined) return this.#vpcRoute(document, hostname);",
    to: "if (document.originVpc !== undefined && this.documentBindings.has(document.originVpc)) return this.#vpcRoute(document, hostname);",
    tests: [W("vpc-origin")],
  },
  {
    name: "vpc: a document's VPC origin gets only its named credentials",
    file: "src/proxy/origin-router.ts",
    from: "const headers = named === undefined ? {} : this.config.originCredentials[named];",
    to: "const headers = named === undefined ? this.config.originHeaders : this.config.originCredentials[named];",
    tests: [W("vpc-origin")],
  },
  {
    name: "vpc: the admin API refuses a binding DOCUMENT_VPC_SERVICES does not list",
    file: "src/admin/admin-api.ts",
    from: "originVpc !== undefined && !runtime.config.documentVpcServices.has(originVpc)",
    to: "false",
    tests: [W("vpc-origin")],
  },
  {
    name: "vpc: ORIGIN_VPC is the deployment's origin (no fetch to the internet)",
    file: "src/runtime.ts",
    from: "if (isFetcher(env.ORIGIN_VPC))",
    to: "if (false)",
    tests: [W("vpc-origin")],
  },
  {
    name: "agents: each agent's verifiers",
    file: "src/runtime.ts",
    from: "    if (source.authProfile === undefined) return this.auth;",
    to: "    return this.auth;",
    tests: [W("agents")],
  },
  {
    name: "agents: paths the edge answers itself are refused",
    file: "src/agents/agent-paths.ts",
    from: "if (under(path, taken) || under(taken, path)) return",
    to: "if (false) return",
    tests: [W("agents")],
  },
  {
    name: "agents: the longest agent path wins",
    file: "src/agents/agent-paths.ts",
    from: "    if (paths.has(prefix)) found = prefix;",
    to: "    if (paths.has(prefix)) found ??= prefix;",
    tests: [W("agents")],
  },
  {
    name: "agents: the URLs of a path agent are under its path",
    file: "src/http/edge-request.ts",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: source text of the template literal the mutation replaces, matched verbatim
    from: "base: `${base}${agentPath}`,",
    to: "base,",
    tests: [W("agents"), N("e2e-agents")],
  },
  // ---- one reading (src/messages/, the envelope, every JSON the edge reads) ----
  {
    name: "reading: a member in another case of a field's name is refused",
    file: "src/messages/reader.ts",
    from: "if (folded) return refuse(ctx,",
    to: "if (false) return refuse(ctx,",
    tests: [W("reading"), W("one-reading"), W("parity")],
  },
  {
    name: "reading: a field named twice (two spellings) is refused",
    file: "src/messages/reader.ts",
    from: "if (twice !== undefined) return refuse(ctx,",
    to: "if (false) return refuse(ctx,",
    tests: [W("reading"), W("one-reading")],
  },
  {
    name: "reading: two members of one oneof are refused",
    file: "src/messages/reader.ts",
    from: "if (other !== undefined) return refuse(ctx,",
    to: "if (false) return refuse(ctx,",
    tests: [W("reading"), W("push-relay")],
  },
  {
    name: "reading: every spelling becomes the JSON name",
    file: "src/messages/reader.ts",
    from: "    copy.set(at, info.name, read);",
    to: "    copy.set(at, key, read);",
    tests: [W("reading"), W("one-reading"), W("parity")],
  },
  {
    name: "reading: a value of another JSON type is refused",
    file: "src/messages/reader.ts",
    from: 'return typeof value === "string" ? value : refuse(ctx, "must be a string");',
    to: "return value;",
    tests: [W("reading")],
  },
  {
    name: "reading: params read before every policy",
    file: "src/call/admit.ts",
    from: "  const call = received.read ? received : readCall(received);",
    to: "  const call = received;",
    tests: [W("reading"), W("one-reading"), W("parity")],
  },
  {
    name: "reading: received bytes forwarded only when canonical",
    file: "src/call/admit.ts",
    from: "return read.changed ? { ...withoutBytes(call), params: read.value } : call;",
    to: "return { ...call, params: read.value };",
    tests: [W("reading"), W("one-reading")],
  },
  {
    name: "reading: envelope members in another case refused",
    file: "src/bindings/jsonrpc-envelope.ts",
    from: "if (members.otherCase !== undefined) return invalid(",
    to: "if (false) return invalid(",
    tests: [W("reading"), W("one-reading")],
  },
  {
    name: "reading: an envelope with members JSON-RPC does not define is re-serialized",
    file: "src/bindings/jsonrpc-envelope.ts",
    from: "if (members.unknown || scan.fractionOrExponent) return { ok: true, call };",
    to: "if (scan.fractionOrExponent) return { ok: true, call };",
    tests: [W("reading")],
  },
  {
    name: "reading: a REST body read by its proto names",
    file: "src/bindings/rest-client.ts",
    from: 'const read = readRestBody(route.version, route.operation, "request", json.value, route.version === "1.0");',
    to: "const read = { value: json.value };",
    tests: [W("reading"), W("parity")],
  },
  {
    name: "reading: a 1.0 REST body read strictly (it is the request message)",
    file: "src/bindings/rest-client.ts",
    from: 'json.value, route.version === "1.0");',
    to: "json.value, false);",
    tests: [W("reading")],
  },
  {
    name: "reading: a REST query field given twice is refused",
    file: "src/rest/rest-request.ts",
    from: "if (values.length > 1) return new BadQuery(",
    to: "if (false) return new BadQuery(",
    tests: [W("rest-request"), W("reading")],
  },
  {
    name: "reading: a number written with a fraction or an exponent is re-serialized",
    file: "src/bindings/jsonrpc-envelope.ts",
    from: "if (members.unknown || scan.fractionOrExponent) return { ok: true, call };",
    to: "if (members.unknown) return { ok: true, call };",
    tests: [W("reading")],
  },
  {
    name: "reading: duplicate keys refused in every JSON the edge reads",
    file: "src/json.ts",
    from: "return hasDuplicateKey(text) ? { error: DUPLICATE_KEY, duplicate: true } : { value };",
    to: "return { value };",
    tests: [W("reading"), W("push-relay")],
  },
  {
    name: "reading: an origin reply's envelope member in another case makes it unreadable",
    file: "src/origins/jsonrpc-origin.ts",
    from: "else if (MEMBERS.includes(foldName(key))) return undefined;",
    to: "else if (false) return undefined;",
    tests: [W("reading")],
  },
  // ---- kept streams (STREAM_RESUME=on): the owner check and the seam ----
  {
    name: "streams: only the caller who started a log may read it",
    file: "src/streams/task-stream.ts",
    from: "      row.caller !== request.caller ||\n",
    to: "",
    tests: [W("streams")],
  },
  {
    name: "streams: a log answers only for its own task",
    file: "src/streams/task-stream.ts",
    from: "      row.caller !== request.caller ||\n      row.task_id !== request.task\n",
    to: "      row.caller !== request.caller\n",
    tests: [W("streams")],
  },
  {
    name: "streams: a log answers only for its own agent and tenant",
    file: "src/streams/task-stream.ts",
    from: "      row.agent !== request.agent ||\n      row.tenant !== request.tenant ||\n",
    to: "",
    tests: [W("streams")],
  },
  {
    name: "streams: an anonymous caller's stream is never kept",
    file: "src/streams/kept-calls.ts",
    from: "return streams && plan.caller && STREAMED.has(plan.call.operation) ? streams : undefined;",
    to: "return streams && STREAMED.has(plan.call.operation) ? streams : undefined;",
    tests: [W("streams")],
  },
  {
    name: "streams: a cursor no log answers is an unknown task (the origin is not asked)",
    file: "src/streams/kept-calls.ts",
    from: "if (!found) return unknownTask(plan, codec);",
    to: "if (!found) return undefined;",
    tests: [W("streams")],
  },
  {
    name: "streams: the replay starts after the client's last event (nothing twice)",
    file: "src/streams/task-stream.ts",
    from: '"SELECT seq, body FROM events WHERE seq > ? ORDER BY seq",',
    to: '"SELECT seq, body FROM events WHERE seq >= ? ORDER BY seq",',
    tests: [W("streams")],
  },
  {
    name: "streams: the replay and the live tail meet without a seam",
    file: "src/streams/stream-log.ts",
    from: "          listener = { controller };\n          listeners.add(listener);",
    to: "          listener = { controller };\n          setTimeout(() => listeners.add(listener as Listener), 5);",
    tests: [W("streams")],
  },
  {
    name: "streams: a log stops at STREAM_RESUME_MAX_EVENTS",
    file: "src/streams/task-stream.ts",
    from: "this.#seq >= config.streamResumeMaxEvents",
    to: "false",
    tests: [W("streams")],
  },
  {
    name: "streams: a log left open by a restart ends as lost",
    file: "src/streams/task-stream.ts",
    from: 'if (row.state === "open" && !this.#pumping) {',
    to: "if (false) {",
    tests: [W("streams")],
  },
  {
    name: "streams: a re-attach's access record counts the events replayed",
    file: "src/streams/kept-calls.ts",
    from: "scope.fields.replayed = found.replayed;",
    to: "",
    tests: [W("streams")],
  },
  {
    name: "streams: the cursor never reaches the origin",
    file: "src/call/run.ts",
    from: "(kept ? withoutCursor(clientSearch) : clientSearch)",
    to: "clientSearch",
    tests: [W("streams")],
  },
];

// ---- restoring ----

interface Pending {
  file: string;
  original: string;
}
let pending: Pending | null = null;
let child: ChildProcess | null = null;

function restore(): void {
  if (pending) {
    writeFileSync(join(ROOT, pending.file), pending.original);
    pending = null;
  }
  rmSync(PENDING, { force: true });
}

function mutate(file: string, original: string, mutated: string): void {
  mkdirSync(PENDING_DIR, { recursive: true });
  pending = { file, original };
  writeFileSync(PENDING, JSON.stringify(pending));
  writeFileSync(join(ROOT, file), mutated);
}

function stopChild(): void {
  if (child?.pid && child.exitCode === null && child.signalCode === null) {
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      /* already gone */
    }
  }
}

for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.on(signal, () => {
    stopChild();
    restore();
    process.stderr.write(`\nmutation-check: ${signal}, source restored\n`);
    process.exit(128 + constants.signals[signal]); // as a shell reports it: 130 for SIGINT, 143 for SIGTERM
  });
}
process.on("exit", () => {
  stopChild();
  restore();
});

// A previous run killed outright left a mutated file: put it back first.
if (existsSync(PENDING)) {
  const left = JSON.parse(readFileSync(PENDING, "utf8")) as Pending;
  writeFileSync(join(ROOT, left.file), left.original);
  rmSync(PENDING);
  process.stderr.write(`mutation-check: restored ${left.file}, left mutated by an interrupted run\n`);
}

// ---- running tests ----

interface RunResult {
  failed: number;
  passed: number;
  /** Files that failed to load or errored outside a test. */
  errors: string[];
  /** `file > test name` of each failed test. */
  failures: string[];
  seconds: number;
  output: string;
}

function projectsOf(files: string[]): string[] {
  return [...new Set(files.map((f) => (f.startsWith("test/node/") ? "node" : "workers")))];
}

async function runTests(files: string[]): Promise<RunResult> {
  const report = join(tmpdir(), `mutation-check-${process.pid}-${Date.now()}.json`);
  const args = [
    "run",
    ...projectsOf(files).flatMap((p) => ["--project", p]),
    ...files,
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${report}`,
  ];
  const started = Date.now();
  let output = "";
  const code = await new Promise<number>((resolve) => {
    child = spawn(VITEST, args, { cwd: ROOT, detached: true, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, CI: "true" } });
    child.stdout!.on("data", (c) => (output += c));
    child.stderr!.on("data", (c) => (output += c));
    child.on("close", (c) => resolve(c ?? -1));
  });
  child = null;
  const seconds = (Date.now() - started) / 1000;
  if (!existsSync(report))
    return { failed: 0, passed: 0, errors: [`vitest exited ${code} without a report`], failures: [], seconds, output };
  const json = JSON.parse(readFileSync(report, "utf8")) as {
    numFailedTests: number;
    numPassedTests: number;
    testResults: { name: string; status: string; message?: string; assertionResults: { status: string; fullName: string }[] }[];
  };
  rmSync(report, { force: true });
  const errors = json.testResults
    .filter((r) => r.status === "failed" && r.assertionResults.length === 0)
    .map((r) => `${relative(ROOT, r.name)}: ${r.message ?? "failed to run"}`);
  const failures = json.testResults.flatMap((r) =>
    r.assertionResults.filter((a) => a.status === "failed").map((a) => `${relative(ROOT, r.name)} > ${a.fullName}`),
  );
  return { failed: json.numFailedTests, passed: json.numPassedTests, errors, failures, seconds, output };
}

// ---- main ----

const selected = MUTATIONS.filter(
  (m) => positionals.length === 0 || positionals.some((p) => m.name.toLowerCase().includes(p.toLowerCase())),
);
if (selected.length === 0) {
  process.stderr.write(`mutation-check: no mutation matches ${positionals.join(", ")}\n`);
  process.exit(2);
}

// Every target must be found exactly once before anything runs.
const problems: string[] = [];
for (const m of selected) {
  if (!m.file.startsWith("src/")) problems.push(`${m.name}: ${m.file} is not under src/`);
  const path = join(ROOT, m.file);
  if (!existsSync(path)) {
    problems.push(`${m.name}: ${m.file} does not exist`);
    continue;
  }
  const count = readFileSync(path, "utf8").split(m.from).length - 1;
  if (count !== 1)
    problems.push(`${m.name}: target ${JSON.stringify(m.from)} found ${count} times in ${m.file} (expected exactly once); update the list`);
}
if (problems.length > 0) {
  process.stderr.write(`mutation-check: the list does not match the code:\n  ${problems.join("\n  ")}\n`);
  process.exit(1);
}

if (values.list) {
  for (const m of selected) process.stdout.write(`${m.name}\t${m.file}\t${m.tests.join(" ")}\n`);
  process.exit(0);
}

if (!values["no-baseline"]) {
  const files = [...new Set(selected.flatMap((m) => m.tests))].sort();
  process.stdout.write(`baseline: ${files.join(" ")} ... `);
  const base = await runTests(files);
  process.stdout.write(`${base.passed} passed, ${base.failed} failed (${base.seconds.toFixed(1)} s)\n`);
  if (base.failed > 0 || base.errors.length > 0 || base.passed === 0) {
    process.stderr.write(
      `mutation-check: the targeted tests must pass on the unmutated code first\n${base.errors.join("\n")}\n${base.output.slice(-4000)}\n`,
    );
    process.exit(1);
  }
}

interface Row {
  mutation: string;
  tests: string;
  killed: string;
  failed: number;
  seconds: number;
}
const rows: Row[] = [];
for (const m of selected) {
  const path = join(ROOT, m.file);
  const original = readFileSync(path, "utf8");
  process.stdout.write(`${m.name} (${m.file}) ... `);
  let result: RunResult;
  try {
    mutate(
      m.file,
      original,
      original.replace(m.from, () => m.to),
    );
    result = await runTests(m.tests);
  } finally {
    restore();
  }
  if (readFileSync(path, "utf8") !== original) throw new Error(`${m.file} was not restored`);
  mkdirSync(LOGS, { recursive: true });
  writeFileSync(join(LOGS, `${m.name.replace(/[^\w-]+/g, "_")}.log`), result.output);
  const killed = result.failed > 0 ? "yes" : result.errors.length > 0 ? "ERROR" : "NO";
  process.stdout.write(`${killed} (${result.failed} failed, ${result.seconds.toFixed(1)} s)\n`);
  if (killed === "ERROR") process.stdout.write(`  ${result.errors.join("\n  ")}\n`);
  for (const failure of result.failures.slice(0, 5)) process.stdout.write(`  failed: ${failure}\n`);
  if (result.failures.length > 5) process.stdout.write(`  ... and ${result.failures.length - 5} more\n`);
  rows.push({
    mutation: m.name,
    tests: m.tests.map((t) => t.replace(/^test\//, "").replace(/\.test\.ts$/, "")).join(", "),
    killed,
    failed: result.failed,
    seconds: result.seconds,
  });
}

const header: Row = { mutation: "mutation", tests: "test files", killed: "killed", failed: 0, seconds: 0 };
const width = (key: "mutation" | "tests") => Math.max(...[header, ...rows].map((r) => r[key].length));
const line = (r: Row, failed: string, seconds: string) =>
  `| ${r.mutation.padEnd(width("mutation"))} | ${r.tests.padEnd(width("tests"))} | ${r.killed.padEnd(6)} | ${failed.padStart(6)} | ${seconds.padStart(7)} |`;
process.stdout.write(`\n${line(header, "failed", "seconds")}\n`);
process.stdout.write(`|${"-".repeat(width("mutation") + 2)}|${"-".repeat(width("tests") + 2)}|--------|--------|---------|\n`);
for (const r of rows) process.stdout.write(`${line(r, String(r.failed), r.seconds.toFixed(1))}\n`);
const survived = rows.filter((r) => r.killed !== "yes");
process.stdout.write(`\n${rows.length - survived.length}/${rows.length} mutations killed\n`);
if (survived.length > 0) {
  process.stderr.write(`mutation-check: not killed: ${survived.map((r) => r.mutation).join("; ")}\n`);
  process.exit(1);
}
