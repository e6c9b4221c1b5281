import type { ProtocolCodec, RelayCall } from '@switchyard/relay-kit';
import { ErrorCode, LogType } from '@switchyard/shared';
import { channelHealthOf } from '../channels/channel-health-service.ts';
import { findSensitiveWords } from '../content-policy/sensitive-words.ts';
import { relayRefusal } from '../errors/gateway-error.ts';
import { redactCredentials } from '../lib/redact-credentials.ts';
import type { RelayReply } from './lane/relay-reply.ts';
import type { RelayRequest } from './lane/relay-request.ts';
import { createRelayContext, type RelayCaller, type RelayContext } from './relay-context.ts';
import type { RelayRuntime } from './relay-runtime.ts';
import { priceRequest } from './stages/price-request.ts';
import { checkModelLimit } from './stages/resolve-group.ts';
import {
  type AttemptSuccess,
  ClientAbortedError,
  noChannelError,
  runAttempts,
} from './stages/run-attempts.ts';
import { sendResponse } from './stages/send-response.ts';
import { settleUsage } from './stages/settle-usage.ts';

/**
 * Queues an error log row (type 5) of a relay call: refused for sensitive words, or failed after
 * pricing (`context`: its channels tried and its time).
 */
function recordErrorLog(
  relay: RelayRuntime,
  caller: RelayCaller,
  call: RelayCall,
  ip: string,
  content: string,
  other: Record<string, unknown>,
  context?: RelayContext,
): void {
  relay.logWriter.write({
    type: LogType.Error,
    user_id: caller.user.id,
    username: caller.user.username,
    token_id: caller.token?.id ?? 0,
    token_name: caller.token?.name ?? '',
    model_name: call.model,
    channel_id: context?.attempts.at(-1) ?? 0,
    group: caller.group,
    ip,
    is_stream: context !== undefined && call.stream ? 1 : 0,
    use_time: context ? Math.max(0, Math.round((performance.now() - context.startedAt) / 1000)) : 0,
    content,
    other: JSON.stringify(other),
  });
}

/**
 * Parses the body with the route's codec. Malformed input throws relay-kit's request error, which
 * the error writer answers as a 400 in the client's shape (`toGatewayError`).
 */
export function parseCall(codec: Pick<ProtocolCodec, 'parseRequest'>, request: RelayRequest): RelayCall {
  const [path, search = ''] = request.url.split('?', 2);
  const query = new URLSearchParams(search);
  // The Gemini `key` parameter is a credential: it never reaches the call (nor an upstream).
  query.delete('key');
  return codec.parseRequest({
    rawBody: request.body as Buffer,
    path,
    query,
    headers: request.headers as Record<string, string | string[] | undefined>,
  });
}

/**
 * One relay call after authentication: model checks, price, reservation, attempts, response,
 * and settlement. The reservation is refunded exactly once on any failure before the response,
 * including a client that leaves early.
 */
export async function relayCall(
  request: RelayRequest,
  reply: RelayReply,
  codec: ProtocolCodec,
  caller: RelayCaller,
  call: RelayCall,
  isPlayground: boolean,
): Promise<unknown> {
  const { options, relay } = request.server.services;
  if (caller.token && caller.pinnedChannelId === null) {
    checkModelLimit(caller.token.model_limits_enabled, caller.token.model_limits, call.model);
  }
  const sensitive = findSensitiveWords(options, call.prompt);
  if (sensitive.length > 0) {
    const message = `请求包含敏感词：${sensitive.join('，')}`;
    if (options.getBoolean('ErrorLogEnabled')) {
      const other = { request_id: request.id, sensitive_words: sensitive };
      recordErrorLog(relay, caller, call, request.ip, message, other);
    }
    throw relayRefusal(ErrorCode.RequestInvalidBody, message, 400, 'sensitive_words_detected');
  }
  // Let a channel change announced on this node reach the index, so this call routes by it.
  const indexPending = relay.channelIndex.pending;
  if (indexPending) await indexPending;
  if (
    caller.pinnedChannelId === null &&
    relay.channelIndex.candidates(caller.group, call.model).length === 0
  ) {
    throw noChannelError(caller.group, call.model);
  }
  const { price, promptTokens, reserve } = priceRequest(options, caller.user, call, caller.group);
  const reservation = await relay.billing.reserve(
    {
      userId: caller.user.id,
      tokenId: caller.token?.id ?? 0,
      tokenUnlimited: caller.token?.unlimited_quota ?? true,
    },
    reserve,
    request.id,
  );
  const context = createRelayContext({
    requestId: request.id,
    clientIp: request.ip,
    codec,
    caller,
    call,
    price,
    promptEstimate: promptTokens,
    reservation,
    isPlayground,
  });
  // The lane aborts the call when its client leaves before the answer was written.
  reply.abortOnClose = context.abort;
  let success: AttemptSuccess | undefined;
  try {
    success = await runAttempts(context, relay, options.getNumber('RetryTimes'), (channel, failure) => {
      request.log.warn(
        { channel: channel.id, status: failure.status, code: failure.code, retryable: failure.retryable },
        'upstream attempt failed',
      );
      channelHealthOf(request.server.services, request.server.log).reportRelayFailure(channel, failure);
    });
    if (success.plan.mode === 'convert' && success.plan.note !== undefined) {
      request.log.info({ channel: success.channel.id, model: call.model }, success.plan.note);
    }
    const sent = sendResponse(
      context,
      success,
      reply,
      (outcome) => {
        relay.settlements.track(settleUsage(context, relay, options, outcome, request.log), (error) =>
          request.log.error({ err: error }, 'settlement failed'),
        );
      },
      relay.metrics,
    );
    // A whole answer is sent synchronously: no await (and no tick) for it.
    return sent instanceof Promise ? await sent : sent;
  } catch (error) {
    // Slots of an answer that failed before it was read or piped (idempotent otherwise).
    success?.release();
    await relay.billing.refund(reservation);
    if (error instanceof ClientAbortedError) return reply;
    if (options.getBoolean('ErrorLogEnabled')) {
      const other = {
        request_id: context.requestId,
        status: (error as { status?: unknown }).status ?? 500,
        admin_info: { use_channel: context.attempts.map(String) },
      };
      // An upstream's message may quote its URL with the channel's key.
      const message = redactCredentials(error instanceof Error ? error.message : String(error));
      recordErrorLog(relay, caller, call, context.clientIp, message, other, context);
    }
    throw error;
  } finally {
    reply.abortOnClose = null;
  }
}
