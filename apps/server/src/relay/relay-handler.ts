import { isRelayRequestError, type ProtocolCodec, type RelayCall } from '@switchyard/relay-kit';
import { ErrorCode } from '@switchyard/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { GatewayError } from '../errors/gateway-error.ts';
import type { RelayCaller, RelayContext } from './relay-context.ts';
import type { RelayRuntime } from './relay-runtime.ts';
import { priceRequest } from './stages/price-request.ts';
import { checkModelLimit } from './stages/resolve-group.ts';
import { ClientAbortedError, noChannelError, runAttempts } from './stages/run-attempts.ts';
import { sendResponse } from './stages/send-response.ts';
import { settleUsage } from './stages/settle-usage.ts';

/** Parses the body with the route's codec; malformed input becomes a 400 in the client's shape. */
export function parseCall(codec: ProtocolCodec, request: FastifyRequest): RelayCall {
  try {
    return codec.parseRequest({ rawBody: request.body as Buffer, path: request.url.split('?')[0] });
  } catch (error) {
    if (isRelayRequestError(error)) {
      throw new GatewayError(ErrorCode.RequestInvalidBody, error.message, {
        status: 400,
        type: 'invalid_request_error',
      });
    }
    throw error;
  }
}

/**
 * One relay call after authentication: model checks, price, reservation, attempts, response,
 * and settlement. The reservation is refunded exactly once on any failure before the response,
 * including a client that leaves early.
 */
export async function relayCall(
  request: FastifyRequest,
  reply: FastifyReply,
  codec: ProtocolCodec,
  caller: RelayCaller,
  call: RelayCall,
  isPlayground: boolean,
): Promise<unknown> {
  const { options, relay } = request.server.services as {
    options: import('../options/option-store.ts').OptionStore;
    relay: RelayRuntime;
  };
  if (caller.token && caller.pinnedChannelId === null) {
    checkModelLimit(caller.token.model_limits_enabled, caller.token.model_limits, call.model);
  }
  if (
    caller.pinnedChannelId === null &&
    relay.channelIndex.candidates(caller.group, call.model).length === 0
  ) {
    throw noChannelError(caller.group, call.model);
  }
  const { price, promptEstimate, reserve } = priceRequest(options, caller.user, call, caller.group);
  const reservation = await relay.billing.reserve(
    {
      userId: caller.user.id,
      tokenId: caller.token?.id ?? 0,
      tokenUnlimited: caller.token?.unlimited_quota ?? true,
    },
    reserve,
  );
  const context: RelayContext = {
    requestId: request.id,
    startedAt: performance.now(),
    clientIp: request.ip,
    codec,
    caller,
    call,
    price,
    promptEstimate,
    reservation,
    attempts: [],
    abort: new AbortController(),
    isPlayground,
  };
  const onClientGone = () => {
    if (!reply.raw.writableFinished) context.abort.abort();
  };
  reply.raw.once('close', onClientGone);
  try {
    const success = await runAttempts(context, relay, options.getNumber('RetryTimes'), (channel, failure) => {
      request.log.warn(
        { channel: channel.id, status: failure.status, code: failure.code, retryable: failure.retryable },
        'upstream attempt failed',
      );
    });
    return await sendResponse(context, success, reply, (outcome) => {
      const settlement = settleUsage(context, relay, options, outcome)
        .catch((error: unknown) => request.log.error({ err: error }, 'settlement failed'))
        .finally(() => relay.settlements.delete(settlement));
      relay.settlements.add(settlement);
    });
  } catch (error) {
    await relay.billing.refund(reservation);
    if (error instanceof ClientAbortedError) return reply;
    throw error;
  } finally {
    reply.raw.off('close', onClientGone);
  }
}
