// Passthrough card mode (CARD_SOURCE=origin): the card data is the origin's own
// card, fetched from its well-known path with the origin's credentials, read by
// card intake, kept in the isolate for ORIGIN_CARD_TTL and then revalidated
// with its ETag. While the origin's card cannot be read, its last good copy is
// served (this isolate's, else the one saved for fresh isolates), with its age;
// with none, a 503 that says why. Never another document in its place.
import { EdgeError } from "../errors/failures";
import { type KeepAlive, readBody } from "../http/body";
import { readJsonText } from "../json";
import { log } from "../log";
import type { OriginRouter } from "../proxy/origin-router";
import { issuesToText } from "../validation";
import { type OriginCardSource, sourceFromCard } from "./from-origin";
import type { LastGoodCopies } from "./last-good";
import { repairsToText } from "./repairs";
import type { CardSource } from "./source";
import type { Resolved } from "./store";

const MAX_CARD_BYTES = 1024 * 1024;
/** The name of the origin card's last good copy (last-good.ts). */
const LAST_GOOD_NAME = "origin";

interface Held {
  card: OriginCardSource;
  text: string;
  etag: string | null;
  /** When it was last read good from the origin (ms). */
  goodAt: number;
}

type Later<T> = T | Promise<T>;

export class OriginCardStore {
  #held: Held | null = null;
  /** Why the last read of the origin's card failed; null while its card reads fine. */
  #failing: string | null = null;
  #freshUntil = 0;
  #refreshing: Promise<unknown> | null = null;
  readonly #bySource = new WeakMap<CardSource, OriginCardSource>();

  constructor(
    private readonly transport: OriginRouter,
    private readonly url: string,
    private readonly headers: Record<string, string>,
    private readonly ttlSeconds: number,
    private readonly timeoutMs: number,
    private readonly lastGood: LastGoodCopies,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /**
   * The origin's card as a card-source document. Once a card is held it is answered at once, and a
   * stale one is revalidated in the background (no request waits on the origin). Without a held card
   * a request reads the origin itself: it never waits on a fetch another request started.
   */
  resolve(keepAlive?: KeepAlive): Later<Resolved> {
    if (this.#held && (this.now() < this.#freshUntil || this.#refreshing)) return this.#answer(this.#held);
    if (!this.#held)
      return this.now() < this.#freshUntil ? this.#fromHeldOrSaved() : this.#refresh(keepAlive).then(() => this.#fromHeldOrSaved());
    this.#refreshing = this.#refresh(keepAlive).finally(() => (this.#refreshing = null));
    keepAlive?.(this.#refreshing);
    return this.#answer(this.#held);
  }

  /** The card held now, without reading the origin. */
  held(): OriginCardSource | undefined {
    return this.#held?.card;
  }

  /** Set for documents that came from the origin (their URLs need publicizing). */
  describe(source: CardSource): OriginCardSource | undefined {
    return this.#bySource.get(source);
  }

  #answer(held: Held): Resolved {
    const { source, repairs } = held.card;
    return { source, repairs, lastGood: this.#failing === null ? undefined : { savedAt: held.goodAt } };
  }

  /** After a failed first read: the copy saved by an earlier isolate, else a 503 that says why. */
  async #fromHeldOrSaved(): Promise<Resolved> {
    if (this.#held) return this.#answer(this.#held);
    const copy = await this.lastGood.recall(LAST_GOOD_NAME);
    const read = copy ? sourceFromText(copy.text) : undefined;
    if (copy && read?.ok) {
      this.#hold({ card: read.value, text: copy.text, etag: null, goodAt: copy.savedAt });
      if (this.#held) return this.#answer(this.#held);
    }
    throw new EdgeError(
      "CARD_UNAVAILABLE",
      `the origin's own card cannot be read (${this.#failing ?? "unknown"}) and no good copy of it is kept`,
      {
        metadata: { document: "origin", why: this.#failing ?? "unknown" },
      },
    );
  }

  #hold(held: Held): void {
    this.#held = held;
    this.#bySource.set(held.card.source, held.card);
  }

  async #refresh(keepAlive: KeepAlive | undefined): Promise<void> {
    const headers = new Headers(this.headers);
    headers.set("accept", "application/json");
    headers.set("a2a-version", "1.0");
    if (this.#held?.etag) headers.set("if-none-match", this.#held.etag);
    const origin = this.transport.label(this.url, this.transport.deploymentBinding);
    try {
      const response = await this.transport.send(this.url, { headers, redirect: "manual", signal: AbortSignal.timeout(this.timeoutMs) });
      if (response.status === 304 && this.#held) {
        void response.body?.cancel();
        return this.#good({ ...this.#held, goodAt: this.now() }, keepAlive);
      }
      const read = response.ok
        ? await readBody(response.body, { maxBytes: MAX_CARD_BYTES, timeoutMs: this.timeoutMs, excess: "cancel" })
        : null;
      if (!read?.ok) {
        if (!response.ok) void response.body?.cancel();
        log("warn", "origin_card_unavailable", { origin, status: response.status });
        return this.#failed(`HTTP ${response.status}`);
      }
      const text = new TextDecoder().decode(read.bytes);
      if (text === this.#held?.text) return this.#good({ ...this.#held, goodAt: this.now() }, keepAlive);
      const parsed = sourceFromText(text);
      if (!parsed.ok) {
        log("warn", "origin_card_invalid", { origin, issues: issuesToText(parsed.issues) });
        return this.#failed("invalid");
      }
      if (parsed.value.repairs.length > 0) {
        const list = repairsToText(parsed.value.repairs);
        log("warn", "card_repaired", { source: "origin", repairs: parsed.value.repairs.length, list });
      }
      return this.#good({ card: parsed.value, text, etag: response.headers.get("etag"), goodAt: this.now() }, keepAlive);
    } catch (error) {
      log("warn", "origin_card_unavailable", { origin, error: (error as Error).name });
      return this.#failed((error as Error).name === "TimeoutError" ? "timeout" : "unreachable");
    }
  }

  #good(held: Held, keepAlive: KeepAlive | undefined): void {
    this.#hold(held);
    this.#failing = null;
    this.#freshUntil = this.now() + this.ttlSeconds * 1000;
    this.lastGood.remember(LAST_GOOD_NAME, held.text, keepAlive);
  }

  /** Retried after a short pause rather than on every request. */
  #failed(why: string): void {
    this.#failing = why;
    this.#freshUntil = this.now() + Math.min(this.ttlSeconds, 5) * 1000;
  }
}

function sourceFromText(text: string): ReturnType<typeof sourceFromCard> {
  const json = readJsonText(text);
  return "error" in json
    ? { ok: false, issues: [{ path: "", message: json.duplicate ? json.error : "not valid JSON" }] }
    : sourceFromCard(json.value);
}
