import { ErrorCode } from '@switchyard/shared';
import type { FastifyRequest } from 'fastify';
import { GatewayError } from '../errors/gateway-error.ts';

/** Limiter marks, as in the reference: GA global API, GW global web, CT critical (login, register, reset). */
export type LimitMark = 'GA' | 'GW' | 'CT';

const TOO_MANY = '请求过于频繁，请稍后再试';

/** preHandler/onRequest factory for a per-IP sliding-window limit. */
export function limitByIp(
  mark: LimitMark,
  pick: (request: FastifyRequest) => { max: number; windowSeconds: number },
) {
  return async function limit(request: FastifyRequest): Promise<void> {
    const { max, windowSeconds } = pick(request);
    const allowed = await request.server.services.rateLimiter.hit(`${mark}${request.ip}`, max, windowSeconds);
    if (!allowed) throw new GatewayError(ErrorCode.RequestRateLimited, TOO_MANY, { status: 429 });
  };
}

/** The critical limit for login, register, verification and reset (20 per 20 minutes by default). */
export const criticalRateLimit = limitByIp(
  'CT',
  (request) => request.server.services.config.criticalRateLimit,
);
