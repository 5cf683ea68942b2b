// The variables of kept streams (docs/streams.md), declared as every variable is (variables.ts spreads them in).
import { variable } from "./declare";
import { oneOf, wholeNumber } from "./values";

const ONE_DAY = 86_400;

export const STREAM_VARIABLES = {
  // on: each streamed call of an authenticated caller is kept by a TaskStream Durable Object (TASK_STREAMS).
  STREAM_RESUME: variable("streamResume", oneOf(["off", "on"]), "off"),
  // A log's bounds: past one, the stream is cut (its clients are told) and nothing more is kept.
  STREAM_RESUME_MAX_EVENTS: variable("streamResumeMaxEvents", wholeNumber(1, 100_000), 1000),
  STREAM_RESUME_MAX_BYTES: variable("streamResumeMaxBytes", wholeNumber(1024, 64 * 1024 * 1024), 4 * 1024 * 1024),
  // Seconds a log is kept after its last event; an open stream silent that long is cut.
  STREAM_RESUME_MAX_AGE: variable("streamResumeMaxAge", wholeNumber(10, 7 * ONE_DAY), 3600),
};
