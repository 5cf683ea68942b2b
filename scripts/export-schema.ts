// Writes skills.schema.json from the card-source zod schema (zod 4 toJSONSchema).
// `npm run schema`; a test fails when the committed file is stale.
import { writeFileSync } from "node:fs";
import { cardSourceJsonSchema } from "../src/card/json-schema";

const out = new URL("../skills.schema.json", import.meta.url);
writeFileSync(out, cardSourceJsonSchema());
console.log(`wrote ${out.pathname}`);
