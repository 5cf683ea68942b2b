// The one-machine setup of the guides: `npm run origin`, `npm run issuer` and `npm run dev` with
// `.dev.vars.example` copied to `.dev.vars`. The addresses and the origin's credential are fixed so
// that the example file can name them; test/node/local-setup.test.ts holds the file to these values.

/** Where `npm run dev` listens (wrangler.toml [dev]): the edge the origin trusts and the tokens' audience. */
export const LOCAL_EDGE = "http://127.0.0.1:8787";
export const ORIGIN_PORT = 9999;
export const ISSUER_PORT = 9998;
/** Where `npm run receiver` listens: the webhook of the push relay guide (docs/push-notifications.md). */
export const RECEIVER_PORT = 9997;
/** What the edge adds to every origin request (ORIGIN_HEADERS in .dev.vars.example), and all the origin accepts. */
export const ORIGIN_CREDENTIAL = "Bearer local-origin-credential";
/** The client of `npm run issuer` that may ask for the card's own scopes (client credentials grant). */
export const PARTNER = { clientId: "partner", clientSecret: "partner-secret" } as const;

/**
 * Runs until Ctrl-C or SIGTERM, then `stop()`s and exits with the project's codes (130 after SIGINT, 143
 * after SIGTERM, as a shell reports a process those signals ended).
 */
export function stopOnSignal(name: string, stop: () => Promise<void>): void {
  let stopping = false;
  const shutdown = (signal: "SIGINT" | "SIGTERM") => {
    // Ctrl-C signals the whole process group, and npm passes the signal on to its script as well: this process
    // gets it twice. A second signal while stopping must not end it halfway (the issuer's card left in local KV).
    if (stopping) return;
    stopping = true;
    process.stdout.write(`${name}: ${signal}, stopping\n`);
    void stop().then(() => process.exit(signal === "SIGINT" ? 130 : 143));
  };
  process.on("SIGINT", () => shutdown("SIGINT"));
  process.on("SIGTERM", () => shutdown("SIGTERM"));
}

/** A listen error in one line (a port another process holds is the usual one): exit 1, never a stack trace. */
export function listenFailure(name: string, address: string, error: unknown): never {
  const code = (error as { code?: unknown }).code;
  const why = code === "EADDRINUSE" ? `in use (another npm run ${name}?): choose another port with --port N` : String(error);
  process.stderr.write(`${name}: cannot listen on ${address}: ${why}\n`);
  process.exit(1);
}
