// The worker of `npm run bench:push` (bench/push-guard.ts): the push-config stage of the admission pipeline
// (src/push/guard-stage.ts) run `n` times inside workerd, as src/call/admit.ts runs it once per call.
// workerd's clock advances only across I/O (a Spectre mitigation), so each timed loop is framed by a timer:
// the figure is (time across the loop - time across an empty loop) / n.
import { parseConfig } from "../src/config";
import type { OriginRoute } from "../src/proxy/origin-router";
import { guardPushConfigs, pushRulesFor } from "../src/push/guard-stage";

/** The deployment's config, parsed on the first request (as the worker's runtime is). */
function benchConfig() {
  const parsed = parseConfig({ ORIGIN_URL: "https://agent-origin.example.net/rpc", HOST_ALLOWLIST: "agents.example.com" });
  if (!parsed.ok) throw new Error("bench config invalid");
  return parsed.value;
}
const route: OriginRoute = {
  candidates: ["https://agent-origin.example.net/rpc"],
  privateOrigins: ["https://agent-origin.example.net"],
  privateHosts: ["agent-origin.example.net"],
  headers: {},
};
const message = { messageId: "m1", role: "ROLE_USER", parts: [{ text: "x".repeat(900) }] };
const push = {
  url: "https://hooks.example.com/a2a/notify?task=1",
  token: "client-token-0123456789",
  authentication: { scheme: "Bearer", credentials: "c".repeat(40) },
};
const CALLS = {
  /** 1.0 SendMessage with an inline config, native: one side checked. */
  inline: [{ operation: "sendMessage" as const, params: { message, configuration: { taskPushNotificationConfig: push } } }],
  /** The same, bridged to a 0.3 origin: both sides checked. */
  bridged: [
    { operation: "sendMessage" as const, params: { message, configuration: { taskPushNotificationConfig: push } } },
    { operation: "sendMessage" as const, params: { message, configuration: { pushNotificationConfig: push } } },
  ],
  /** A send without a config: what the stage costs every other call. */
  none: [{ operation: "sendMessage" as const, params: { message } }],
};

const clock = async () => {
  await new Promise((resolve) => setTimeout(resolve, 0));
  return Date.now();
};

async function timed(n: number, body: () => unknown): Promise<number> {
  const start = await clock();
  for (let i = 0; i < n; i++) body();
  return (await clock()) - start;
}

/** The public side of the request the guard runs for (edge-request.ts). */
const SIDE = { hostname: "agents.example.com", publicHost: "agents.example.com", publicScheme: "https" };

export default {
  async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const n = Number(url.searchParams.get("n") ?? "100000");
    const kind = (url.searchParams.get("kind") ?? "inline") as keyof typeof CALLS;
    const calls = CALLS[kind];
    const config = benchConfig();
    let refused = 0;
    const empty = await timed(n, () => undefined);
    const elapsed = await timed(n, () => {
      if (guardPushConfigs(calls, pushRulesFor(config, route, SIDE))) refused++;
    });
    return Response.json({ kind, n, elapsedMs: elapsed, emptyMs: empty, perCallMs: (elapsed - empty) / n, refused });
  },
};
