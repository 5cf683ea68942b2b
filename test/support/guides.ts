// The guides of README.md and docs/ run as written: the code blocks of a section, in order, in one shell
// whose variables carry from block to block (as in one terminal), with the fixed ports of the one-machine
// set-up replaced by this run's. What each guide runs, restarts and expects is data
// (test/fixtures/guides.json); this reads the documents and says what a step means.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./processes";

export interface Block {
  lang: string;
  text: string;
}

/** A step of a guide (test/fixtures/guides.json). */
type Step =
  /** Runs block `sh` in the guide's shell; a `# restart npm run dev` comment line in it restarts the dev server there. */
  | { sh: number }
  /** Starts block `start` (one long-running command, a terminal of its own) with `args` added; ready once it prints `ready`. */
  | { start: number; name: string; args?: string[]; ready: string }
  /** Merges the JSON of block `json` (an object member or members, as the guide shows them) into `file`, under `at`. */
  | { json: number; file: string; at?: string }
  /** Restarts a process of the set-up (`dev` after a change to .dev.vars, as the guides say). */
  | { restart: string; args?: string[] }
  /** The output of the last step or of a process contains `contains` (ports replaced as in the commands). */
  | { expect: string; contains: string }
  /** Ctrl-C in a started command's terminal: it stops, saying so. */
  | { stop: string }
  /** Waits until a process prints `contains`. */
  | { await: string; contains: string };

export interface Guide {
  doc: string;
  section: string;
  /** Why it runs here, in one line (the closing note lists each). */
  what: string;
  steps: Step[];
}

/** A shell block of a document that no guide runs: what it needs that one machine has not. */
interface Elsewhere {
  doc: string;
  section: string;
  why: string;
}

export interface GuideTable {
  /** Files the guides name as the user's own (`--data @travel.json`), made from a fixture before they run. */
  files: Record<string, string>;
  guides: Guide[];
  elsewhere: Elsewhere[];
}

export const GUIDE_TABLE = JSON.parse(readFileSync(join(ROOT, "test/fixtures/guides.json"), "utf8")) as GuideTable;

/** The section of `doc` under `heading` (a whole heading line, `## ...` or `### ...`), to the next heading of its level or above. */
export function section(doc: string, heading: string): string {
  const text = readFileSync(join(ROOT, doc), "utf8");
  let inFence = false;
  const at = text.split("\n").findIndex((line) => {
    if (/^ *```/.test(line)) inFence = !inFence;
    return !inFence && line === heading;
  });
  if (at < 0) throw new Error(`${doc} has no heading ${JSON.stringify(heading)}`);
  const level = heading.indexOf(" ");
  const lines = text.split("\n").slice(at + 1);
  let fence = false; // a `# comment` line in a shell block is no heading
  const end = lines.findIndex((line) => {
    if (/^ *```/.test(line)) fence = !fence;
    return !fence && /^#{1,6} /.test(line) && line.indexOf(" ") <= level;
  });
  return (end < 0 ? lines : lines.slice(0, end)).join("\n");
}

/** The fenced code blocks of a section, in order, their indentation (a block inside a list item) removed. */
export function blocks(text: string): Block[] {
  return [...text.matchAll(/^( *)```(\w*)\n([\s\S]*?)^\1```$/gm)].map(([, indent, lang, body]) => ({
    lang: lang!,
    text: body!
      .split("\n")
      .map((line) => (line.startsWith(indent!) ? line.slice(indent!.length) : line))
      .join("\n"),
  }));
}

/** Every heading line of a document above a shell block, with that block: what `elsewhere` or a guide must account for. */
export function shellSections(doc: string): string[] {
  const text = readFileSync(join(ROOT, doc), "utf8");
  const found: string[] = [];
  let heading = "";
  let fence = false;
  for (const line of text.split("\n")) {
    if (!fence && /^#{1,6} /.test(line)) heading = line;
    const opening = /^ *```(\w*)$/.exec(line);
    if (opening && !fence && (opening[1] === "sh" || opening[1] === "bash") && !found.includes(heading)) found.push(heading);
    if (/^ *```/.test(line)) fence = !fence;
  }
  return found;
}

/** A shell block cut where it says to restart npm run dev: the parts to run (some empty), with a restart between each. */
export function restartParts(text: string): string[] {
  const parts: string[] = [];
  let current: string[] = [];
  for (const line of text.split("\n")) {
    if (/^# restart npm run dev\b/.test(line.trim())) {
      parts.push(current.join("\n"));
      current = [];
    } else current.push(line);
  }
  parts.push(current.join("\n"));
  return parts; // a restart on the last line leaves an empty part after it: restarted, nothing more to run
}

/**
 * A member or members of a JSON object as a guide shows them (`"partnerKey": {...}`, or a line with a
 * trailing comma), as an object; a whole object as it is.
 */
export function jsonMembers(text: string): Record<string, unknown> {
  const trimmed = text.trim().replace(/,$/, "");
  return JSON.parse(trimmed.startsWith("{") ? trimmed : `{${trimmed}}`) as Record<string, unknown>;
}
