// One call as the edge observes it, for every binding: its W3C trace (the
// client's, validated, or a fresh one), the fields of its access record as
// the pipeline learns them, and the end of the call (its data point, its
// record). The call runs inside a span of the runtime's own tracing API
// (`tracing.enterSpan`, cloudflare:workers): with Workers automatic tracing on
// it is a span of the Cloudflare trace; in every case it is the async context
// that tells a log line (observe/current.ts) which call it belongs to, across
// awaits and stream callbacks, without a compatibility flag.
import { tracing } from "cloudflare:workers";
import type { Caller } from "../auth/edge-auth";
import type { Call, OriginCodec, OriginRequest } from "../call/call";
import { EdgeError, FAILURES, type Failure } from "../errors/failures";
import { renderError } from "../errors/responses";
import type { EdgeRequest } from "../http/edge-request";
import { type AccessFields, callerName, emitAccess, failed, type RecordedEnd } from "./access-record";
import { installTraceLookUp } from "./current";
import { type BodySeen, observedBody } from "./observed-body";
import { type TraceContext, traceOf } from "./trace-context";

const scopes = new WeakMap<object, CallScope>();
const traced = typeof tracing?.enterSpan === "function";
if (traced) installTraceLookUp(() => scopeNow()?.trace.traceId);

/** The call now running (its span is the active one), if any. */
function scopeNow(): CallScope | undefined {
  const span = traced ? tracing.getActiveSpan() : undefined;
  return span ? scopes.get(span) : undefined;
}

export class CallScope {
  readonly started = Date.now();
  readonly fields: AccessFields;
  /** The caller's name for the record, being hashed (ACCESS_LOG_HASH_SUBJECT). */
  #caller: Promise<string> | undefined;

  constructor(
    readonly edge: EdgeRequest,
    readonly trace: TraceContext,
    /** Sampled for a full record (ACCESS_LOG=all): its body is observed to the end. */
    readonly recorded: boolean,
    binding: AccessFields["binding"],
    path: string,
  ) {
    this.fields = { binding, caller: "anonymous", agent: edge.agentKey, path, attempts: 0 };
  }

  /** An edge refusal or fault: its reason and JSON-RPC code (A2A 1.0 §9.5). */
  failedWith(failure: Failure): void {
    this.fields.reason = failure.reason;
    this.fields.errorCode = FAILURES[failure.reason].code;
  }

  /** A throw out of the pipeline: rendered as the app's onError renders it, its reason recorded. */
  threw(error: unknown): Response {
    this.failedWith(error instanceof EdgeError ? error.failure : { failed: true, reason: "INTERNAL" });
    return renderError(error);
  }

  /** The call as decoded: operation (its 1.0 name), version, the body's size. */
  decoded(call: Call, operation: string): void {
    Object.assign(this.fields, { operation, version: call.version });
    if (call.bytes) this.fields.bytesIn = call.bytes.length;
  }

  /** The call as admitted: the origin's binding and version, whether it is translated, who called. */
  admitted(plan: {
    call: Call;
    origin: Call;
    codec: Pick<OriginCodec, "binding">;
    caller: Caller | undefined;
    native: boolean;
    request: OriginRequest;
  }) {
    Object.assign(this.fields, { originBinding: plan.codec.binding, originVersion: plan.origin.version, bridged: isBridged(plan) });
    this.fields.bytesIn ??= plan.request.body.length;
    this.#named(plan.caller);
  }

  #named(caller: Caller | undefined): void {
    if (!caller) return;
    const config = this.edge.runtime.config;
    if (config.accessLogHashSubject) this.#caller = callerName(config, caller.scheme, caller.subject);
    else this.fields.caller = `${caller.scheme}:${caller.subject}`;
  }

  /** One attempt at an origin (send.ts): the last one named is the origin that answered. */
  attempt(origin: string): void {
    this.fields.attempts++;
    this.fields.origin = origin;
  }

  /**
   * The response the client gets: a recorded call's body is observed to its end, and so is every stream
   * unless ACCESS_LOG=off (a stream is pumped by the edge's own stream guard anyway, and may fail after its
   * headers: its error event is what ACCESS_LOG=errors records); any other answer is recorded now, its
   * body left to the runtime's native passthrough unless the record will show it (a failure), its size its
   * Content-Length.
   */
  complete(response: Response): Response {
    const firstByteMs = Date.now() - this.started;
    const { status } = response;
    const sse = response.headers.get("content-type")?.startsWith("text/event-stream") ?? false;
    // A failure the record will show is observed too (its bytes counted): an error's body is small, and rare.
    const logged = this.edge.runtime.config.accessLog !== "off";
    const observed = this.recorded || (logged && (sse || failed(status, this.fields)));
    if (!observed || !response.body) {
      // An unobserved body is left to the native passthrough: its size is the one its headers declare.
      const length = Number(response.headers.get("content-length") ?? Number.NaN);
      if (Number.isSafeInteger(length) && length >= 0) this.fields.bytesOut = length;
      else if (!response.body) this.fields.bytesOut = 0;
      this.#emit(status, firstByteMs, undefined);
      return response;
    }
    const done = (seen: BodySeen) => {
      Object.assign(this.fields, seen.fields);
      this.#emit(status, firstByteMs, seen);
    };
    return new Response(observedBody(response.body, sse, done), response);
  }

  #emit(status: number, firstByteMs: number, end: RecordedEnd | undefined): void {
    const { accessLog } = this.edge.runtime.config;
    const line = accessLog !== "off" && (this.recorded || failed(status, this.fields, end));
    if (!line && !this.edge.runtime.callMetrics) return;
    const timing = { firstByteMs, durationMs: end === undefined ? firstByteMs : Date.now() - this.started };
    const write = () => emitAccess(this.edge, this.trace.traceId, this.fields, status, timing, end, line);
    if (this.#caller === undefined) {
      write();
      return;
    }
    this.edge.keepAlive(
      this.#caller.then((name) => {
        this.fields.caller = name;
        write();
      }),
    );
  }
}

/** Runs one call in its own span and scope; the response is the scope's (observed when recorded). */
export function observeCall(
  edge: EdgeRequest,
  binding: AccessFields["binding"],
  path: string,
  run: (scope: CallScope) => Promise<Response>,
): Promise<Response> {
  const { accessLog, accessLogSample } = edge.runtime.config;
  const recorded = accessLog === "all" && (accessLogSample >= 1 || Math.random() < accessLogSample);
  const go = (span?: Span) => {
    // The runtime's own trace (Workers automatic tracing on) names a fresh trace, so both views agree.
    const runtimeSpan = span?.isTraced ? span.spanContext() : undefined;
    const scope = new CallScope(edge, traceOf(edge.request.headers, recorded, runtimeSpan), recorded, binding, path);
    if (span) scopes.set(span, scope);
    // A throw is answered here, in the call's scope (so it has its record and its trace id), as onError would.
    // The call's bounded waits (body, origin, the origin's reply) are over once it has its answer.
    return run(scope).then(
      (response) => {
        edge.deadlines.release();
        return scope.complete(response);
      },
      (error: unknown) => {
        edge.deadlines.release();
        return scope.complete(scope.threw(error));
      },
    );
  };
  return traced ? tracing.enterSpan("a2a.call", go) : go();
}

/** Translated between bindings or versions (not merely read, as a relayed push config's reply is). */
function isBridged(plan: { call: Call; origin: Call; codec: Pick<OriginCodec, "binding"> }): boolean {
  return plan.call.binding !== plan.codec.binding || plan.call.generation !== plan.origin.generation;
}
