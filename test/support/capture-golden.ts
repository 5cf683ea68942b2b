// Rewrites test/fixtures/golden-outputs.json from the current code:
//   npx tsx test/support/capture-golden.ts
// Only for a deliberate change of output; the fixture was captured from main
// before the A2A types refactoring.
import { writeFileSync } from "node:fs";
import { cli } from "../../scripts/usage";
import { goldenOutputs } from "./golden";

// No flags: refuse any, rather than ignore a mistyped one.
cli("golden", "usage: npm run golden").parseArgs({ options: {} });

const outputs = await goldenOutputs();
writeFileSync(new URL("../fixtures/golden-outputs.json", import.meta.url), `${JSON.stringify(outputs, null, 1)}\n`);
process.stdout.write(`${Object.keys(outputs).length} outputs\n`);
