// The JSON Schema editors use for skills.json (referenced by its `$schema`).
import * as z from "zod/mini";
import { CardSourceSchema } from "./source";

/** Serialized exactly as committed in skills.schema.json. */
export function cardSourceJsonSchema(): string {
  const schema = z.toJSONSchema(CardSourceSchema, { io: "input", unrepresentable: "any" });
  const document = {
    ...schema,
    $id: "https://github.com/agent-card-edge/agent-card-edge/skills.schema.json",
    title: "agent-card-edge card-source document",
    description:
      "Agent profile and skills from which agent-card-edge renders the A2A Agent Card (1.0, 0.3 and hybrid). Every field is optional: {} is a valid document.",
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}
