import { createWorker } from "./app";

/** The admin API's per-key document log (Durable Object class named in wrangler.toml). */
export { DocumentLog } from "./admin/document-log";
/** The index of one host's agents by path. */
export { AgentIndex } from "./agents/agent-index";
/** The live feed of one host's card changes (FEED_TOKEN or FEED_PUBLIC). */
export { CardFeed } from "./feed/card-feed";
/** The push relay of one public host (PUSH_RELAY=on). */
export { PushRelay } from "./push/relay-store";
/** One kept stream (STREAM_RESUME=on). */
export { TaskStream } from "./streams/task-stream";

export default createWorker();
