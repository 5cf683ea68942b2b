/**
 * Before calls that must be counted together: Miniflare's RATE_LIMITER (the runners' binding, and wrangler dev's) counts
 * in windows of the period aligned to the clock, every count starting again at each multiple of the period.
 * Calls that fell on both sides of a boundary would be counted in two windows: a window with
 * less than `marginMs` left is waited out first.
 */
export async function inOneRateWindow(periodSeconds: number, marginMs = 10_000): Promise<void> {
  const period = periodSeconds * 1000;
  const left = period - (Date.now() % period);
  if (left < marginMs) await new Promise((resolve) => setTimeout(resolve, left + 100));
}
