import type { RelayReply } from '../relay/lane/relay-reply.ts';

/** A Midjourney relay refusal, answered as `{description, type: "upstream_error", code}`. */
export class MidjourneyRelayError extends Error {
  override name = 'MidjourneyRelayError';
  constructor(
    readonly code: number,
    readonly description: string,
    readonly status = 400,
  ) {
    super(description);
  }
}

/** midjourney-proxy's request-error code. */
export const MJ_REQUEST_ERROR = 4;
/** midjourney-proxy's unknown-error code (upstream unreachable or unreadable). */
export const MJ_UNKNOWN_ERROR = 5;

/** A Suno relay refusal, answered as the reference's TaskError `{code, message, data: null}`. */
export class SunoRelayError extends Error {
  override name = 'SunoRelayError';
  constructor(
    readonly code: string,
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

/**
 * Answers the task relay's own errors in their wire shapes (true); everything else (token checks,
 * body size, no channel) is left to the app's error handler and keeps the OpenAI shape, as in the
 * reference, whose middleware answers those before the task handlers run.
 */
export function answerTaskError(error: unknown, reply: RelayReply): boolean {
  if (error instanceof MidjourneyRelayError) {
    reply
      .code(error.status)
      .send({ description: error.description, type: 'upstream_error', code: error.code });
    return true;
  }
  if (error instanceof SunoRelayError) {
    reply.code(error.status).send({ code: error.code, message: error.message, data: null });
    return true;
  }
  return false;
}
