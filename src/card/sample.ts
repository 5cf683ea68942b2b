// The bundled skills.json as the repository ships it: a sample agent ("Acme
// Travel Concierge"). A deployment still serving it advertises an agent that
// does not exist; the page and the log say so.
import { log } from "../log";
import type { CardSource } from "./source";

const SAMPLE_AGENT_NAME = "Acme Travel Concierge";

export function isSampleDocument(source: CardSource): boolean {
  return source.name === SAMPLE_AGENT_NAME;
}

let warned = false;

/** Once per isolate: the bundled document is still the sample. */
export function warnIfSample(source: CardSource): void {
  if (warned || !isSampleDocument(source)) return;
  warned = true;
  log("warn", "bundled_document_sample", { name: source.name, fix: "edit skills.json, or store a document in the SKILLS KV namespace" });
}
