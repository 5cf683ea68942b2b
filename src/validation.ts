// Shared zod/mini plumbing: English messages, descriptions that end up in the
// exported JSON Schema, and issues in our wire format ({ path, message }).
import * as z from "zod/mini";
import en from "zod/v4/locales/en.js";

z.config(en());

export interface Issue {
  /** Dotted path into the document, "" for the document itself. */
  path: string;
  message: string;
}

export function describe<T extends z.ZodMiniType>(schema: T, description: string): T {
  z.globalRegistry.add(schema, { description });
  return schema;
}

export function formatIssues(issues: readonly z.core.$ZodIssue[]): Issue[] {
  return issues.map((issue) => ({
    path: issue.path.map(String).join("."),
    message: issue.message,
  }));
}

export function issuesToText(issues: readonly Issue[]): string {
  return issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join("; ");
}
