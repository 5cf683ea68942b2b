// The push-config stage of the admission pipeline (call/admit.ts): every push notification config a call
// carries, in the caller's params and in the params the origin will receive (after the bridge), meets the
// URL rules of url-guard.ts before the origin sees it. A refusal is the version's invalid-params error
// (JSON-RPC -32602; REST 400 INVALID_ARGUMENT, google.rpc form) whose detail names the rule, never an
// origin address.
import type { Config } from "../config";
import { type Failure, failure } from "../errors/failures";
import { normalizeHost } from "../http/request-target";
import type { OriginRoute } from "../proxy/origin-router";
import { isLoopbackIp } from "./ip-ranges";
import { pushConfigRefusal } from "./push-configs";
import { type PushUrlRules, portOf } from "./url-guard";

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

/** The port of `url` when it names a loopback host (any spelling), else undefined. */
const loopbackPortOf = (url: string): string | undefined => {
  try {
    const parsed = new URL(url);
    const host = parsed.hostname.replace(/\.+$/, "");
    return isLoopbackIp(parsed.hostname) || host === "localhost" || host.endsWith(".localhost") ? portOf(parsed) : undefined;
  } catch {
    return undefined;
  }
};

interface OwnHosts {
  hosts: ReadonlySet<string>;
  loopbackPorts: ReadonlySet<string>;
}

/** The hosts a config never names for this configuration and route: computed once per (config, route's origins). */
const staticHosts = new WeakMap<Config, WeakMap<readonly string[], OwnHosts>>();

function staticHostsOf(config: Config, route: OriginRoute): OwnHosts {
  let byRoute = staticHosts.get(config);
  if (!byRoute) {
    byRoute = new WeakMap();
    staticHosts.set(config, byRoute);
  }
  let own = byRoute.get(route.privateOrigins);
  if (!own) {
    const urls = [...route.privateOrigins, ...(config.documentOrigins ?? []), ...(config.publicBaseUrl ? [config.publicBaseUrl] : [])];
    const names = urls.map(hostnameOf).filter((name): name is string => name !== undefined);
    const ports = urls.map(loopbackPortOf).filter((port): port is string => port !== undefined);
    own = { hosts: new Set([...names, ...(config.hostAllowlist ?? [])]), loopbackPorts: new Set(ports) };
    byRoute.set(route.privateOrigins, own);
  }
  return own;
}

/** The request's public side, as the edge derived it (http/edge-request.ts). */
export interface RequestSide {
  hostname: string;
  /** host[:port] */
  publicHost: string;
  publicScheme: string;
}

/** The rules for one call: the config's and this request's own host (and, on loopback, its port). */
export function pushRulesFor(config: Config, route: OriginRoute, side: RequestSide): PushUrlRules {
  const own = staticHostsOf(config, route);
  const requestPort = loopbackPortOf(`${side.publicScheme}://${side.publicHost}/`);
  return {
    allowHttpLoopback: config.pushAllowHttpLoopback,
    allowlist: config.pushUrlAllowlist,
    ownHosts: own.hosts.has(side.hostname) ? own.hosts : new Set([...own.hosts, side.hostname]),
    ownLoopbackPorts:
      requestPort === undefined || own.loopbackPorts.has(requestPort) ? own.loopbackPorts : new Set([...own.loopbackPorts, requestPort]),
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
