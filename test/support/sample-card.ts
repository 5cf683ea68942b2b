// The product's tests never read the user's skills.json: every worker they build, serve or run under wrangler
// is given the sample card, a fixture of their own, in its place (the `#skills` import of package.json, substituted
// by wrangler's `--alias` and by the workers project's `resolve.alias`). The user's card has its own tests
// (test/node/your-card.test.ts), which fail only when it is wrong.
import { fileURLToPath } from "node:url";

export const SAMPLE_CARD = fileURLToPath(new URL("../fixtures/sample-card.json", import.meta.url));

/** wrangler dev and wrangler deploy arguments that build the worker around the sample card. */
export const SAMPLE_CARD_ALIAS = ["--alias", `#skills:${SAMPLE_CARD}`];
