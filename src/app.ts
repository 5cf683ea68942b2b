// The worker: middleware and routes in one readable place.
import { Hono } from "hono";
import { cardPreflight, serveCard, CARD_METHODS } from "./card/routes";
import { CARD_PATH, LEGACY_CARD_PATH } from "./card/variant";
import { errorBody, HttpError } from "./errors";
import { log } from "./log";
import { runtimeFor, type Runtime } from "./runtime";

export type AppEnv = { Bindings: Env; Variables: { runtime: Runtime } };

const JSON_HEADERS = { "content-type": "application/json" } as const;

export function createApp(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.use(async (c, next) => {
    c.set("runtime", runtimeFor(c.env));
    await next();
  });

  for (const path of [CARD_PATH, LEGACY_CARD_PATH]) {
    app.get(path, serveCard); // Hono answers HEAD from the GET route, without the body.
    app.options(path, cardPreflight);
    app.all(path, () => {
      throw new HttpError(405, "Method not allowed", { allow: CARD_METHODS });
    });
  }

  app.notFound(() => new Response(errorBody(404, "Not found"), { status: 404, headers: JSON_HEADERS }));

  app.onError((error) => {
    if (error instanceof HttpError) {
      return new Response(errorBody(error.status, error.message, error.details), {
        status: error.status,
        headers: { ...JSON_HEADERS, ...error.headers },
      });
    }
    log("error", "unhandled_error", { error: error.name, message: error.message });
    return new Response(errorBody(500, "Internal error"), { status: 500, headers: JSON_HEADERS });
  });

  return app;
}
