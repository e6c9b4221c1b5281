import type { RelayReply } from '../relay/lane/relay-reply.ts';

/**
 * `X-Switchyard-Added-Ms`: the milliseconds the gateway itself spent on a request, with two
 * decimals. On relay routes it is the time since the request arrived minus the time spent
 * waiting for upstreams (summed over attempts), measured when the response headers are written:
 * so for a stream it covers everything up to the first byte sent. The relay sets it with
 * `setAddedTimeHeader(reply, upstreamMs)` and reports the same number with
 * `metricsOf(services).addedLatency(ms)`. On every other route the request hooks set it to the
 * whole handling time (everything there is the gateway's own time).
 */
export const ADDED_TIME_HEADER = 'X-Switchyard-Added-Ms';

/**
 * Milliseconds since the request arrived minus `upstreamMs`, never negative. Relies on
 * `reply.elapsedTime`, which Fastify measures because the observability hooks add an onResponse
 * hook to every route.
 */
export function addedTimeMs(reply: RelayReply, upstreamMs = 0): number {
  const waited = Number.isFinite(upstreamMs) && upstreamMs > 0 ? upstreamMs : 0;
  return Math.max(0, reply.elapsedTime - waited);
}

/** The header value for a number of milliseconds (`"1.25"`). */
export function formatAddedMs(ms: number): string {
  // Integer arithmetic instead of toFixed (this runs on every relay call).
  const hundredths = Math.round(ms * 100);
  if (!Number.isSafeInteger(hundredths) || hundredths < 0) return (hundredths / 100).toFixed(2);
  const fraction = hundredths % 100;
  return `${(hundredths - fraction) / 100}.${fraction < 10 ? '0' : ''}${fraction}`;
}

/** Sets the header unless the headers are already sent; returns the milliseconds it reported. */
export function setAddedTimeHeader(reply: RelayReply, upstreamMs = 0): number {
  const ms = addedTimeMs(reply, upstreamMs);
  if (!reply.raw.headersSent) reply.header(ADDED_TIME_HEADER, formatAddedMs(ms));
  return ms;
}
