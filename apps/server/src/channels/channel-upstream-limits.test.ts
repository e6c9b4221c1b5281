import { describe, expect, it } from 'vitest';
import { channelUpstreamLimitsOf, NO_UPSTREAM_LIMITS } from './channel-upstream-limits.ts';

describe('channelUpstreamLimitsOf', () => {
  it('reads the cap and the timeouts (seconds → milliseconds)', () => {
    expect(
      channelUpstreamLimitsOf(
        JSON.stringify({
          force_format: true,
          max_concurrency: 8,
          connect_timeout: 2,
          first_byte_timeout: 0.5,
          idle_timeout: 30,
        }),
      ),
    ).toEqual({ maxConcurrency: 8, connectTimeoutMs: 2000, firstByteTimeoutMs: 500, idleTimeoutMs: 30_000 });
  });

  it('keeps the server defaults for absent, empty or unreadable settings', () => {
    for (const text of [null, undefined, '', '  ', 'not json', '[1]', '42', '{"force_format":true}']) {
      expect(channelUpstreamLimitsOf(text)).toBe(NO_UPSTREAM_LIMITS);
    }
  });

  it('ignores values of the wrong type or out of range, field by field', () => {
    expect(
      channelUpstreamLimitsOf(
        JSON.stringify({
          max_concurrency: 2.5,
          connect_timeout: '5',
          first_byte_timeout: -1,
          idle_timeout: 86_401,
        }),
      ),
    ).toBe(NO_UPSTREAM_LIMITS);
    expect(channelUpstreamLimitsOf('{"max_concurrency":0,"idle_timeout":86400}')).toEqual({
      maxConcurrency: null,
      connectTimeoutMs: null,
      firstByteTimeoutMs: null,
      idleTimeoutMs: 86_400_000,
    });
  });
});
