import type { IncomingHttpHeaders } from 'node:http';
import type { BufferWhen } from '../upstream-answer.ts';

/** A server-sent-event answer. */
export const isEventStream = (contentType: unknown): boolean =>
  typeof contentType === 'string' && contentType.includes('text/event-stream');

/** JSON, or no content type at all (some upstreams omit it on JSON answers). */
export const isJson = (contentType: unknown): boolean =>
  contentType === undefined || (typeof contentType === 'string' && /json|^text\/plain/i.test(contentType));

/**
 * Which 2xx answers are read whole before they are sent on (the rest is piped; error answers are
 * always read whole). A stream call: none. A non-stream call, pass-through: JSON (or text)
 * answers (not an event stream after all, nor binary audio); conversion: every answer that is not
 * an event stream, as the adapter reads it into a neutral response. Fixed functions, not a
 * closure per call.
 */
export const BUFFER_NONE: BufferWhen = () => false;

export const BUFFER_PASSED_THROUGH: BufferWhen = (_status, headers: IncomingHttpHeaders) => {
  const contentType = headers['content-type'];
  return !isEventStream(contentType) && isJson(contentType);
};

export const BUFFER_CONVERTED: BufferWhen = (_status, headers: IncomingHttpHeaders) =>
  !isEventStream(headers['content-type']);
