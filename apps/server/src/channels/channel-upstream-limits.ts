/**
 * A channel's own upstream limits, read from its `setting` JSON (next to `force_format` and the
 * other extra settings):
 *
 * - `max_concurrency`: most upstream requests this node sends to the channel at the same time
 *   (a whole number ≥ 1; absent or 0 = no cap). A full channel is skipped for another one; when
 *   every candidate is full the caller gets a 429 at once (nothing waits in a queue).
 * - `connect_timeout`, `first_byte_timeout`, `idle_timeout`: seconds (fractions allowed, > 0,
 *   at most 86400) overriding UPSTREAM_CONNECT_TIMEOUT, RELAY_TIMEOUT (wait for the response
 *   headers) and STREAMING_TIMEOUT (silence inside the body or stream) for this channel.
 *
 * Values of the wrong type or out of range are ignored (the server defaults apply), so a typo
 * never takes a channel down.
 */
export interface ChannelUpstreamLimits {
  maxConcurrency: number | null;
  connectTimeoutMs: number | null;
  firstByteTimeoutMs: number | null;
  idleTimeoutMs: number | null;
}

export const NO_UPSTREAM_LIMITS: ChannelUpstreamLimits = Object.freeze({
  maxConcurrency: null,
  connectTimeoutMs: null,
  firstByteTimeoutMs: null,
  idleTimeoutMs: null,
});

const MAX_TIMEOUT_SECONDS = 86_400;

function seconds(value: unknown): number | null {
  if (typeof value !== 'number' || !Number.isFinite(value)) return null;
  if (value <= 0 || value > MAX_TIMEOUT_SECONDS) return null;
  return Math.max(1, Math.round(value * 1000));
}

function concurrency(value: unknown): number | null {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) return null;
  return value;
}

/** Reads the limits from a channel's `setting` text; anything unreadable means "no override". */
export function channelUpstreamLimitsOf(setting: string | null | undefined): ChannelUpstreamLimits {
  if (!setting || setting.trim() === '') return NO_UPSTREAM_LIMITS;
  let parsed: unknown;
  try {
    parsed = JSON.parse(setting);
  } catch {
    return NO_UPSTREAM_LIMITS;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return NO_UPSTREAM_LIMITS;
  const value = parsed as Record<string, unknown>;
  const limits: ChannelUpstreamLimits = {
    maxConcurrency: concurrency(value.max_concurrency),
    connectTimeoutMs: seconds(value.connect_timeout),
    firstByteTimeoutMs: seconds(value.first_byte_timeout),
    idleTimeoutMs: seconds(value.idle_timeout),
  };
  return Object.values(limits).every((entry) => entry === null) ? NO_UPSTREAM_LIMITS : limits;
}
