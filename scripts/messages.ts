// Writes src/messages/tables.json, the field tables of every A2A message the edge reads, from the vendored
// specifications (scripts/message-tables.ts). `npm run messages`; a test fails when the committed file is stale.
import { readFileSync, writeFileSync } from "node:fs";
import { messageTablesText } from "./message-tables";
import { cli } from "./usage";

cli("messages", "usage: npm run messages").parseArgs({ options: {} });

const read = (path: string) => readFileSync(new URL(`../test/schema/${path}`, import.meta.url), "utf8");
const out = new URL("../src/messages/tables.json", import.meta.url);
writeFileSync(out, messageTablesText(read));
console.log(`wrote ${out.pathname}`);
