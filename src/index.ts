import { createWorker } from "./app";

/** The admin API's per-key document log (Durable Object class named in wrangler.toml). */
export { DocumentLog } from "./admin/document-log";

export default createWorker();
