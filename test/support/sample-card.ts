// The product's tests never read the user's skills.json: every worker they build, serve or run under wrangler
// is given the sample card, a fixture of their own, in its place (the `#skills` import of package.json, substituted
// by wrangler's `--alias` and by the workers project's `resolve.alias`). The user's card has its own tests
// (test/node/your-card.test.ts), which fail only when it is wrong.
import { fileURLToPath } from "node:url";

export const SAMPLE_CARD = fileURLToPath(new URL("../fixtures/sample-card.json", import.meta.url));

/** `wrangler deploy` arguments that build the worker around the sample card. */
export const SAMPLE_CARD_ALIAS = ["--alias", `#skills:${SAMPLE_CARD}`];

/**
 * A wrangler.toml that builds the worker around the sample card: its `[alias]` table. `wrangler dev` needs the
 * table: it ignores `--alias` for an import that package.json's `"imports"` names (wrangler 4.164 served the
 * user's card with `--alias #skills:...`, `wrangler deploy` the sample).
 */
export function withSampleCard(toml: string): string {
  if (/^\[alias\]$/m.test(toml)) throw new Error("wrangler.toml has an [alias] table already: add #skills to it here");
  return `${toml.trimEnd()}\n\n[alias]\n"#skills" = ${JSON.stringify(SAMPLE_CARD)}\n`;
}
