// The page's account of the card data: where it came from, whether it is the
// repository's sample, whether it is the last good copy of a document that
// cannot be read now, and every repair card intake made to publish it.
import type { FC } from "hono/jsx";
import type { Repair } from "../card/repairs";

export interface CardDataProps {
  /** Where the card data came from, in words (the Card-Source header of the JSON). */
  cardData: string;
  repairs: readonly Repair[];
  sample: boolean;
  /** Seconds since the copy served was last known good; absent while the document reads fine. */
  lastGoodAge?: number | undefined;
}

export const CardDataSection: FC<CardDataProps> = ({ cardData, repairs, sample, lastGoodAge }) => (
  <section aria-labelledby="card-data">
    <h2 id="card-data">Card data</h2>
    {sample ? (
      <p class="warning">
        This is the repository's sample agent: edit <code>skills.json</code> (or store a document in the SKILLS KV namespace) to publish
        your own.
      </p>
    ) : null}
    {lastGoodAge !== undefined ? (
      <p class="warning">
        The document cannot be read now: this is its last good copy, {lastGoodAge} seconds old. The worker logs say why.
      </p>
    ) : null}
    {repairs.length > 0 ? (
      <>
        <p>The card was repaired to publish it ({repairs.length}):</p>
        <ul class="repairs">
          {repairs.map((repair) => (
            <li>
              <code>{repair.rule}</code> {repair.path ? <code>{repair.path}</code> : null}: {repair.message}
            </li>
          ))}
        </ul>
      </>
    ) : null}
    <p class="muted">Card data: {cardData}</p>
  </section>
);
