import { ErrorCode } from '@switchyard/shared';
import type { FastifyRequest } from 'fastify';
import { GatewayError } from '../errors/gateway-error.ts';

/**
 * preHandler: when TurnstileCheckEnabled, the `turnstile` query parameter must be a token the
 * verifier accepts (the siteverify address is configurable: TURNSTILE_VERIFY_URL, for tests).
 */
export async function checkTurnstile(request: FastifyRequest): Promise<void> {
  const { options, config } = request.server.services;
  if (!options.getBoolean('TurnstileCheckEnabled')) return;
  const token = (request.query as { turnstile?: unknown }).turnstile;
  if (typeof token !== 'string' || token === '') {
    throw new GatewayError(ErrorCode.AuthForbidden, 'Turnstile token 为空', { status: 403 });
  }
  if (token.length > 4096) {
    throw new GatewayError(ErrorCode.AuthForbidden, 'Turnstile 校验失败，请刷新重试！', { status: 403 });
  }
  const form = new URLSearchParams({
    secret: options.get('TurnstileSecretKey'),
    response: token,
    remoteip: request.ip,
  });
  let success = false;
  try {
    const response = await fetch(config.identityEndpoints.turnstileVerify, {
      method: 'POST',
      body: form,
      signal: AbortSignal.timeout(10_000),
    });
    const result = (await response.json()) as { success?: unknown };
    success = result.success === true;
  } catch (error) {
    request.log.warn({ err: error }, 'turnstile verification failed');
  }
  if (!success)
    throw new GatewayError(ErrorCode.AuthForbidden, 'Turnstile 校验失败，请刷新重试！', { status: 403 });
}
