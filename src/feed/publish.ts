// The admin API's side of the feed: after every change it has written and
// described (admin-api.ts `changed`), the change goes to the Durable Object of
// the key's feed, which numbers it and sends it to the subscribers. A feed
// that fails never fails the write (it is applied already): it is logged.
import type { DocumentAction, Version } from "../admin/document-versions";
import type { Config } from "../config";
import { log } from "../log";
import type { CardFeed } from "./card-feed";
import { type FeedChange, feedHostOf } from "./feed-events";

/** The feed is on with a read token (FEED_TOKEN) or when the operator opens it (FEED_PUBLIC); otherwise its path is unknown. */
export function feedEnabled(config: Pick<Config, "feedToken" | "feedPublic">): boolean {
  return config.feedToken !== undefined || config.feedPublic;
}

/** A change as the admin API knows it: the key, what was done, the hybrid card's new ETag and URL, the version written. */
interface WrittenChange {
  agent: string;
  action: DocumentAction;
  etag: string;
  cardUrl: string;
  written: Version;
}

export async function publishChange(
  config: Pick<Config, "feedToken" | "feedPublic">,
  feeds: DurableObjectNamespace<CardFeed> | undefined,
  { written, ...described }: WrittenChange,
): Promise<void> {
  if (!feedEnabled(config) || typeof feeds?.idFromName !== "function") return;
  const change: FeedChange = { ...described, deleted: written.text === null, documentEtag: written.etag, documentVersion: written.version };
  const feed = feedHostOf(change.agent);
  try {
    await feeds.get(feeds.idFromName(feed)).publish(feed, change);
  } catch (error) {
    log("error", "feed_publish_failed", { feed, agent: change.agent, error: (error as Error).name });
  }
}
