// Who closes an idle keep-alive connection: the client, never a server the tests start. workerd drops an
// idle connection to an origin after 5 s, the very time Node's http server closes one (keepAliveTimeout's
// default): measured with Miniflare 5.20261117, workerd closed its idle connection to a Node origin at
// 5,005 ms. With both at 5 s, a call workerd sends on a connection the origin is closing fails ("origin agent
// unreachable"), once in many runs and more often on a loaded machine. The same holds for undici (fetch,
// the SDK clients), which reuses a connection idle up to 4 s. A server here keeps it longer than either.
import type { Server } from "node:http";

const SERVER_IDLE_MS = 60_000;

/** `server`, keeping an idle connection open until its client closes it (or a minute has passed). */
export function outlastClients<T extends Server>(server: T): T {
  server.keepAliveTimeout = SERVER_IDLE_MS;
  return server;
}
