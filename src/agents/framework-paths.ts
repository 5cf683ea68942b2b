// Where agent frameworks' own clients look for an agent, mapped onto the edge's own paths, pure. Mastra's
// client (@mastra/client-js: `getA2A(agentId)`, `getA2AV1(agentId)`) reads the card at
// `<apiPrefix>/.well-known/<agentId>/agent-card.json` and sends every call, JSON-RPC of either generation,
// to `POST <apiPrefix>/a2a/<agentId>`, whatever the card's `url` says. Each maps onto the agent's own card
// path and RPC_PATH: the same agent, answered by the same routes, so every policy, URL, cache header and
// card variant is the one its well-known paths have.

import { CARD_PATH } from "../card/variant";
import type { Config } from "../config";

/** One segment, as the client writes its agentId into the path (letters, digits, `-`, `_`). */
const AGENT_ID = /^[A-Za-z0-9_-]{1,64}$/;
const CARD_TAIL = "/agent-card.json";

/**
 * The edge path (under PUBLIC_BASE_URL's) a framework client's path means, or undefined when it is none: the
 * host's own agent for MASTRA_HOST_AGENT_ID, else the agent by path `/<agentId>` (agent paths are lower case).
 */
export function frameworkPath(
  pathname: string,
  config: Pick<Config, "mastraApiPrefix" | "mastraHostAgentId" | "rpcPath">,
): string | undefined {
  const prefix = config.mastraApiPrefix;
  if (prefix === undefined || !pathname.startsWith(`${prefix}/`)) return undefined;
  const rest = pathname.slice(prefix.length);
  let agentId: string;
  let tail: string;
  if (rest.startsWith("/.well-known/") && rest.endsWith(CARD_TAIL)) {
    agentId = rest.slice("/.well-known/".length, -CARD_TAIL.length);
    tail = CARD_PATH;
  } else if (rest.startsWith("/a2a/")) {
    agentId = rest.slice("/a2a/".length);
    tail = config.rpcPath;
  } else {
    return undefined;
  }
  if (!AGENT_ID.test(agentId)) return undefined;
  const agentPath = agentId === config.mastraHostAgentId ? "" : `/${agentId.toLowerCase()}`;
  return `${agentPath}${tail}`;
}
