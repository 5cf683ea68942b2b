// Writes skills.schema.json from the card-source zod schema (zod 4 toJSONSchema).
// `npm run schema`; a test fails when the committed file is stale.
import { writeFileSync } from "node:fs";
import { cardSourceJsonSchema } from "../src/card/json-schema";
import { cli } from "./usage";

// No flags: refuse any, rather than ignore a mistyped one.
cli("schema", "usage: npm run schema").parseArgs({ options: {} });

const out = new URL("../skills.schema.json", import.meta.url);
writeFileSync(out, cardSourceJsonSchema());
console.log(`wrote ${out.pathname}`);
