// A TaskStream's call to the origin: the Worker's prepared request (call/run.ts), each candidate with the
// headers the Worker made for it (its caller assertion), through the route's binding by name, with failover
// and ORIGIN_TIMEOUT_MS, as sendWithFailover sends every call.
import type { Failure } from "../errors/failures";
import { Deadlines } from "../http/deadlines";
import { type OriginReply, sendWithFailover } from "../proxy/send";
import type { Runtime } from "../runtime";
import type { HoldRequest } from "./stream-types";

export async function sendHeld(runtime: Runtime, request: HoldRequest): Promise<{ reply: OriginReply | Failure; origins: string[] }> {
  const deadlines = new Deadlines();
  const through = request.through === undefined ? undefined : runtime.origins.bindingNamed(request.through);
  const headersOf = new Map(request.attempts.map((attempt) => [attempt.candidate, attempt.headers]));
  const origins: string[] = [];
  const reply = await sendWithFailover(
    { runtime, deadlines },
    { candidates: request.attempts.map((attempt) => attempt.candidate), through },
    {
      headers: new Headers(),
      body: request.body,
      method: request.origin.method,
      search: request.search,
      httpMethod: request.httpMethod,
      onAttempt: (origin) => origins.push(origin),
      beforeAttempt: async (candidate, _url, headers) => {
        for (const name of [...headers.keys()]) headers.delete(name);
        for (const [name, value] of headersOf.get(candidate) ?? []) headers.set(name, value);
      },
    },
  );
  deadlines.release();
  return { reply, origins };
}
