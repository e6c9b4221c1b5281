import {
  estimatePromptTokens,
  getProviderAdapter,
  isNativeProtocol,
  type RelayCall,
} from '@switchyard/relay-kit';
import type { RouteTarget } from '../channels/channel-index.ts';
import { selectChannel } from '../channels/select-channel.ts';
import type { RelayReply } from './lane/relay-reply.ts';
import type { RelayRequest } from './lane/relay-request.ts';
import { RelayAbort } from './relay-abort.ts';
import type { AdmittedCall } from './relay-routes.ts';
import type { RelayRuntime } from './relay-runtime.ts';
import { BUFFER_PASSED_THROUGH } from './stages/answer-shape.ts';
import { checkModelLimit } from './stages/resolve-group.ts';

/**
 * A token-count route (Anthropic's `/v1/messages/count_tokens`, Gemini's `:countTokens`), run once
 * the call is admitted as any relay call is (token, per-model rate limit, group), and after the
 * token's model limits: the count comes from a channel serving the model whose upstream counts
 * natively (its answer relayed as it is), else — no such channel, or it failed — from the
 * gateway's own estimate (`formatCount` writes it). Nothing is reserved, billed or logged as
 * consumption.
 */
export function countTokens(relay: RelayRuntime, formatCount: (tokens: number) => string): AdmittedCall {
  return async (request, reply, { token, group, pinnedChannelId }, call) => {
    if (token && pinnedChannelId === null) {
      checkModelLimit(token.model_limits_enabled, token.model_limits, call.model);
    }
    const counted = await countUpstream(relay, call, group, pinnedChannelId, reply, request);
    const body = counted ?? formatCount(estimatePromptTokens(call.prompt, call.model).tokens);
    return reply.code(200).type('application/json').send(body);
  };
}

/** The upstream's own count, or `undefined` when no channel can give one. */
async function countUpstream(
  relay: RelayRuntime,
  call: RelayCall,
  group: string,
  pinnedChannelId: number | null,
  reply: RelayReply,
  request: RelayRequest,
): Promise<string | undefined> {
  const candidates =
    pinnedChannelId !== null
      ? [relay.channelIndex.get(pinnedChannelId)].filter((channel) => channel !== undefined)
      : relay.channelIndex.candidates(group, call.model);
  const counting = candidates.filter((channel) => countsNatively(channel, call));
  const channel = selectChannel(counting, new Set(), relay.random);
  const adapter = channel ? getProviderAdapter(channel.type) : undefined;
  if (!channel || !adapter?.buildCountTokensRequest) return undefined;
  const abort = new RelayAbort();
  const onClose = () => abort.abort();
  reply.raw.once('close', onClose);
  try {
    const prepared = adapter.prepareChannel
      ? await adapter.prepareChannel(channel.runtime, relay.fetch)
      : channel.runtime;
    const upstream = adapter.buildCountTokensRequest(call, prepared, relay.providerSettings());
    const answer = await relay.upstream.fetchAnswer(upstream, abort, channel.limits, BUFFER_PASSED_THROUGH);
    if (answer.statusCode < 300 && answer.text !== null) return answer.text;
    answer.body?.destroy();
    request.log.warn({ channel: channel.id, status: answer.statusCode }, 'token count upstream failed');
  } catch (error) {
    request.log.warn({ channel: channel.id, err: error }, 'token count upstream failed');
  } finally {
    reply.raw.off('close', onClose);
  }
  return undefined;
}

function countsNatively(channel: RouteTarget, call: RelayCall): boolean {
  const adapter = getProviderAdapter(channel.type);
  return adapter?.buildCountTokensRequest !== undefined && isNativeProtocol(adapter, call.protocol);
}
