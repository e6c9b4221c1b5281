import { UpstreamError } from '../spec/upstream-error.js';

/**
 * The error part a stream transformer emits for an event whose JSON cannot be read: the client
 * stream ends with its protocol's error event instead of silently missing content (what was
 * delivered before it is billed).
 */
export function malformedStreamEventError(): UpstreamError {
  return new UpstreamError({
    status: 502,
    code: 'upstream:stream_error',
    message: 'upstream sent a malformed stream event',
    type: 'upstream_error',
    retryable: false,
    channelFault: false,
  });
}
