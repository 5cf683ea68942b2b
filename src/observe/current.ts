// Which call the code now running belongs to, for the modules every call
// passes through (log lines, error bodies) without a call in their arguments.
// The call path (observe/call-scope.ts) installs the look-up: it reads the
// runtime's active span, which workerd carries across awaits and stream
// callbacks. Outside a call (a card GET, the admin API, a node test) nothing
// is installed and nothing is added.

let lookUp: () => string | undefined = () => undefined;

/** The trace id of the call now running, if any. */
export function currentTraceId(): string | undefined {
  return lookUp();
}

/** Installs the look-up (once per isolate, by the call path). */
export function installTraceLookUp(find: () => string | undefined): void {
  lookUp = find;
}
