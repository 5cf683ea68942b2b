// What the admin API makes of a document it is given or holds: card intake
// (a card-source document or an A2A card, src/card/intake.ts), never a throw,
// and the Card-Repaired header of its answers.
import { repairedHeader } from "../card/card-headers";
import { readCardInputText } from "../card/intake";
import type { Repair } from "../card/repairs";
import { log } from "../log";

/** Validation that never escapes as a 500: whatever the parser throws (a pathological document) is an invalid document. */
export function parseDocument(text: string): ReturnType<typeof readCardInputText> {
  try {
    return readCardInputText(text);
  } catch (error) {
    log("warn", "admin_document_unparsable", { error: (error as Error).name, bytes: text.length });
    return { ok: false, issues: [{ path: "", message: "the document could not be validated (too deeply nested or too complex)" }] };
  }
}

/** The card's `Card-Repaired` header on an admin answer, none without repairs. */
export const repairedHeaders = (repairs: readonly Repair[]): Record<string, string> =>
  repairs.length === 0 ? {} : { "card-repaired": repairedHeader(repairs) };
