// Passthrough card mode (CARD_SOURCE=origin): the card data is the origin's own
// card, fetched from its well-known path with the origin's credentials, kept in
// the isolate for ORIGIN_CARD_TTL and then revalidated with its ETag. While the
// origin cannot answer, the last good card is served; with none yet, the caller
// falls back to the card-source documents. The origin's URLs never reach a
// client: the worker rebuilds every variant with public URLs.
import { type KeepAlive, readBody } from "../http/body";
import { log } from "../log";
import type { OriginRouter } from "../proxy/origin-router";
import { issuesToText } from "../validation";
import { type OriginCardSource, sourceFromCard } from "./from-origin";
import type { CardSource } from "./source";

const MAX_CARD_BYTES = 1024 * 1024;

interface Held {
  card: OriginCardSource;
  etag: string | null;
}

export class OriginCardStore {
  #held: Held | null = null;
  #freshUntil = 0;
  #refreshing: Promise<OriginCardSource | null> | null = null;
  readonly #bySource = new WeakMap<CardSource, OriginCardSource>();

  constructor(
    private readonly transport: OriginRouter,
    private readonly url: string,
    private readonly headers: Record<string, string>,
    private readonly ttlSeconds: number,
    private readonly timeoutMs: number,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /**
   * The origin's card as a card-source document; null while none could be read
   * yet. Once a card is held it is answered at once, and a stale one is
   * revalidated in the background (no request waits on the origin). Without a
   * held card a request reads the origin itself: it never waits on a fetch
   * another request started (see CardSourceStore).
   */
  lookup(keepAlive?: KeepAlive): OriginCardSource | null | Promise<OriginCardSource | null> {
    if (this.now() < this.#freshUntil) return this.#held?.card ?? null;
    if (!this.#held) return this.#refresh();
    if (!this.#refreshing) {
      this.#refreshing = this.#refresh().finally(() => (this.#refreshing = null));
      keepAlive?.(this.#refreshing);
    }
    return this.#held.card;
  }

  /** The card held now, without reading the origin. */
  held(): OriginCardSource | undefined {
    return this.#held?.card;
  }

  /** Set for documents that came from the origin (their URLs need publicizing). */
  describe(source: CardSource): OriginCardSource | undefined {
    return this.#bySource.get(source);
  }

  async #refresh(): Promise<OriginCardSource | null> {
    const headers = new Headers(this.headers);
    headers.set("accept", "application/json");
    headers.set("a2a-version", "1.0");
    if (this.#held?.etag) headers.set("if-none-match", this.#held.etag);
    const origin = this.transport.label(this.url);
    try {
      const response = await this.transport.send(this.url, { headers, redirect: "manual", signal: AbortSignal.timeout(this.timeoutMs) });
      if (response.status === 304 && this.#held) {
        void response.body?.cancel();
        return this.#keep(this.#held);
      }
      const read = response.ok
        ? await readBody(response.body, { maxBytes: MAX_CARD_BYTES, timeoutMs: this.timeoutMs, excess: "cancel" })
        : null;
      const bytes = read?.ok ? read.bytes : null;
      if (bytes === null) {
        if (!response.ok) void response.body?.cancel();
        log("warn", "origin_card_unavailable", { origin, status: response.status });
        return this.#stale();
      }
      let value: unknown;
      try {
        value = JSON.parse(new TextDecoder().decode(bytes));
      } catch {
        log("warn", "origin_card_invalid", { origin, issues: "not valid JSON" });
        return this.#stale();
      }
      const parsed = sourceFromCard(value);
      if (!parsed.ok) {
        log("warn", "origin_card_invalid", { origin, issues: issuesToText(parsed.issues).slice(0, 2000) });
        return this.#stale();
      }
      this.#held = { card: parsed.value, etag: response.headers.get("etag") };
      this.#bySource.set(parsed.value.source, parsed.value);
      return this.#keep(this.#held);
    } catch (error) {
      log("warn", "origin_card_unavailable", { origin, error: (error as Error).name });
      return this.#stale();
    }
  }

  #keep(held: Held): OriginCardSource {
    this.#freshUntil = this.now() + this.ttlSeconds * 1000;
    return held.card;
  }

  /** Last good card, retried after a short pause rather than on every request. */
  #stale(): OriginCardSource | null {
    this.#freshUntil = this.now() + Math.min(this.ttlSeconds, 5) * 1000;
    return this.#held?.card ?? null;
  }
}
