// The task a streamed event is about, read from the origin's outcome in either generation: 1.0's
// StreamResponse (`{task}` -> `task.id`, `{message|statusUpdate|artifactUpdate}` -> `taskId`, A2A 1.0 §3.2.3),
// 0.3's `kind`ed results (`task` -> `id`, the others -> `taskId`, 0.3 §7.2). A message outside any task has none.

type Json = Record<string, unknown>;

const objectOf = (value: unknown): Json | undefined =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Json) : undefined;

const UPDATES = ["message", "statusUpdate", "artifactUpdate"];

/** The task id of one event's result (undefined: none, or an error). */
export function taskIdOf(result: unknown): string | undefined {
  const body = objectOf(result);
  if (!body) return undefined;
  const task = objectOf(body.task);
  if (task) return typeof task.id === "string" ? task.id : undefined;
  for (const name of UPDATES) {
    const inner = objectOf(body[name]);
    if (inner) return typeof inner.taskId === "string" ? inner.taskId : undefined;
  }
  if (body.kind === "task") return typeof body.id === "string" ? body.id : undefined;
  return typeof body.taskId === "string" ? body.taskId : undefined;
}
