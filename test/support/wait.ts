// Waiting for a condition instead of sleeping a fixed time: poll until `check`
// returns a truthy value, within a generous bound (a bound on waiting, not an
// assertion on speed: on time it resolves as soon as the condition holds).
export async function until<T>(check: () => T | Promise<T>, what: string, timeoutMs = 45_000, intervalMs = 20): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`gave up after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** `promise`, or a failure naming `what` if it has not settled within a generous bound. */
export async function within<T>(promise: Promise<T>, what: string, timeoutMs = 45_000): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const gaveUp = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`gave up after ${timeoutMs} ms waiting for ${what}`)), timeoutMs);
  });
  try {
    return await Promise.race([promise, gaveUp]);
  } finally {
    clearTimeout(timer);
  }
}

/** A latch: `promise` resolves once `open()` is called. */
export function latch(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}
