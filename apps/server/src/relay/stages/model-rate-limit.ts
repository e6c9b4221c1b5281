import { ErrorCode } from '@switchyard/shared';
import { relayRefusal } from '../../errors/gateway-error.ts';
import type { OptionStore } from '../../options/option-store.ts';
import type { RateLimiter } from '../../rate-limit/rate-limiter.ts';

/** Ends a success-limited request: a failed request gives its slot back. */
export type RateLimitRelease = (succeeded: boolean) => void;

/** The release of a request no success limit applies to (callers may skip calling it). */
export const NO_RATE_LIMIT_RELEASE: RateLimitRelease = () => undefined;

const limited = (message: string) =>
  relayRefusal(ErrorCode.RequestRateLimited, message, 429, 'rate_limit_exceeded');

/**
 * ModelRequestRateLimit per user (reference §11, with its bugs fixed): the total limit counts
 * every request, failures included; the success limit admits at most N requests that end well —
 * a slot is taken up front and given back if the request fails, so the limit is exact even under
 * concurrency and across nodes (Redis). Count 0 means no total limit.
 */
export function checkModelRateLimit(
  options: OptionStore,
  limiter: RateLimiter,
  userId: number,
): RateLimitRelease | Promise<RateLimitRelease> {
  // Off (the common case): answered at once, with no promise for the relay's hot path to await.
  if (!options.getBoolean('ModelRequestRateLimitEnabled')) return NO_RATE_LIMIT_RELEASE;
  const minutes = options.getNumber('ModelRequestRateLimitDurationMinutes');
  if (minutes <= 0) return NO_RATE_LIMIT_RELEASE;
  return takeModelRateLimit(limiter, userId, options, minutes);
}

async function takeModelRateLimit(
  limiter: RateLimiter,
  userId: number,
  options: OptionStore,
  minutes: number,
): Promise<RateLimitRelease> {
  const window = minutes * 60;
  const total = options.getNumber('ModelRequestRateLimitCount');
  if (total > 0 && !(await limiter.hit(`MRRL:${userId}`, total, window))) {
    throw limited(
      `您已达到总请求数限制：${minutes}分钟内最多请求${total}次，包括失败次数，请检查您的请求是否正确`,
    );
  }
  const successes = options.getNumber('ModelRequestRateLimitSuccessCount');
  if (successes <= 0) return NO_RATE_LIMIT_RELEASE;
  const key = `MRRLS:${userId}`;
  const ticket = await limiter.acquire(key, successes, window);
  if (ticket === null) throw limited(`您已达到请求数限制：${minutes}分钟内最多请求${successes}次`);
  return (succeeded) => {
    if (!succeeded) void limiter.release(key, ticket);
  };
}
