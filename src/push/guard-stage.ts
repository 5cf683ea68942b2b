// The push-config stage of the admission pipeline (call/admit.ts): every push notification config a call
// carries, in the caller's params and in the params the origin will receive (after the bridge), meets the
// URL rules of url-guard.ts before the origin sees it. A refusal is the version's invalid-params error
// (JSON-RPC -32602; REST 400 INVALID_ARGUMENT, google.rpc form) whose detail names the rule, never an
// origin address.
import type { Config } from "../config";
import { type Failure, failure } from "../errors/failures";
import { normalizeHost } from "../http/request-target";
import type { OriginRoute } from "../proxy/origin-router";
import { pushConfigRefusal } from "./push-configs";
import type { PushUrlRules } from "./url-guard";

/** What the stage reads of a call: its operation and canonical params. */
interface GuardedCall {
  operation: Parameters<typeof pushConfigRefusal>[0];
  params: unknown;
}

const hostnameOf = (url: string): string | undefined => {
  try {
    return normalizeHost(new URL(url).hostname);
  } catch {
    return undefined;
  }
};

/** The hosts a config never names for this configuration and route: computed once per (config, route's origins). */
const staticHosts = new WeakMap<Config, WeakMap<readonly string[], ReadonlySet<string>>>();

function ownHostsOf(config: Config, route: OriginRoute, hostname: string): ReadonlySet<string> {
  let byRoute = staticHosts.get(config);
  if (!byRoute) {
    byRoute = new WeakMap();
    staticHosts.set(config, byRoute);
  }
  let hosts = byRoute.get(route.privateOrigins);
  if (!hosts) {
    const urls = [...route.privateOrigins, ...(config.documentOrigins ?? []), ...(config.publicBaseUrl ? [config.publicBaseUrl] : [])];
    const names = urls.map(hostnameOf).filter((name): name is string => name !== undefined);
    hosts = new Set([...names, ...(config.hostAllowlist ?? [])]);
    byRoute.set(route.privateOrigins, hosts);
  }
  return hosts.has(hostname) ? hosts : new Set([...hosts, hostname]);
}

/** The rules for one call: the config's and this request's own host. */
export function pushRulesFor(config: Config, route: OriginRoute, hostname: string): PushUrlRules {
  return {
    allowHttpLoopback: config.pushAllowHttpLoopback,
    allowlist: config.pushUrlAllowlist,
    ownHosts: ownHostsOf(config, route, hostname),
    maxBytes: config.pushFieldMaxBytes,
  };
}

/** INVALID_PARAMS naming the rule when a config of either side of the call is refused; undefined when all pass. */
export function guardPushConfigs(calls: readonly GuardedCall[], rulesOf: PushUrlRules | (() => PushUrlRules)): Failure | undefined {
  let rules: PushUrlRules | undefined;
  const once = () => (rules ??= typeof rulesOf === "function" ? rulesOf() : rulesOf);
  for (const call of calls) {
    const refused = pushConfigRefusal(call.operation, call.params, once);
    // The detail for every binding; the field again as google.rpc.BadRequest for REST clients (A2A 1.0 §11.6).
    if (refused)
      return failure("INVALID_PARAMS", `push notification config refused: ${refused.path} ${refused.message}`, { violations: [refused] });
  }
  return undefined;
}
