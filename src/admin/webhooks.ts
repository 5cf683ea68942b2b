// Registry notification after a card change (cf. the Molecule platform's
// update-card): each REGISTRY_WEBHOOKS URL gets a POST with the new card, in
// the background (ctx.waitUntil), with bounded retries. Registries then learn
// about changes without polling.
import { log } from "../log";
import type { Runtime } from "../runtime";

const ATTEMPTS = 3;
const BACKOFF_MS = [250, 1000];
const TIMEOUT_MS = 5000;

export async function notifyRegistries(runtime: Runtime, event: Record<string, unknown>): Promise<void> {
  const body = JSON.stringify(event);
  await Promise.all(
    runtime.config.registryWebhooks.map(async (url) => {
      const target = new URL(url).host;
      for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
        try {
          const response = await runtime.fetch(url, {
            method: "POST",
            headers: { "content-type": "application/json", "user-agent": "agent-card-edge" },
            body,
            signal: AbortSignal.timeout(TIMEOUT_MS),
          });
          void response.body?.cancel();
          if (response.ok) {
            log("info", "registry_notified", { target, attempt });
            return;
          }
          log("warn", "registry_notify_failed", { target, attempt, status: response.status });
          if (response.status < 500 && response.status !== 429) return; // a 4xx will not change on retry
        } catch (error) {
          log("warn", "registry_notify_failed", { target, attempt, error: (error as Error).name });
        }
        if (attempt < ATTEMPTS) await new Promise((r) => setTimeout(r, BACKOFF_MS[attempt - 1]));
      }
    }),
  );
}
