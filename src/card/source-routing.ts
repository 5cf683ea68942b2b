// The members of a card-source document that say where its calls go and who may make them: read by the edge,
// never published in the card (agents by path: docs/many-agents.md).
import * as z from "zod/mini";
import { describe } from "../validation";

/** A reference to an entry of a secret (ORIGIN_CREDENTIALS, AUTH_PROFILES): its name, never its value. */
const entryName = (description: string) => z.optional(describe(z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/)), description));

export const AGENT_ROUTING = {
  originUrl: z.optional(
    describe(
      z.url({ protocol: /^https?$/ }),
      "Multi-agent mode: the JSON-RPC endpoint of this hostname's origin agent (overrides ORIGIN_URL). Never published in the card.",
    ),
  ),
  originVpc: z.optional(
    describe(
      z.string().check(z.regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/)),
      "The Workers VPC Service binding this agent's calls go through, when DOCUMENT_VPC_SERVICES lists it (else they fail); originUrl, if set, is the URL sent through it (its host is the Host the private service sees). Never published.",
    ),
  ),
  authProfile: entryName(
    "The name of the AUTH_PROFILES entry whose verifiers check this agent's callers (instead of AUTH_JWT_*, AUTH_API_KEYS). Never published.",
  ),
  originCredentials: entryName(
    "With originUrl: the name of the ORIGIN_CREDENTIALS entry (headers) this agent's origin gets; none without it (ORIGIN_HEADERS are ORIGIN_URL's only). Never published.",
  ),
};
