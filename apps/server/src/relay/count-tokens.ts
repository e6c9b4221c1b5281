import {
  type ClientRequest,
  estimatePromptTokens,
  getProviderAdapter,
  isNativeProtocol,
  type RelayCall,
} from '@switchyard/relay-kit';
import type { RouteTarget } from '../channels/channel-index.ts';
import { selectChannel } from '../channels/select-channel.ts';
import type { OptionStore } from '../options/option-store.ts';
import type { RateLimiter } from '../rate-limit/rate-limiter.ts';
import type { RelayReply } from './lane/relay-reply.ts';
import type { RelayRequest } from './lane/relay-request.ts';
import { RelayAbort } from './relay-abort.ts';
import { parseCall } from './relay-handler.ts';
import type { RelayRuntime } from './relay-runtime.ts';
import { BUFFER_PASSED_THROUGH } from './stages/answer-shape.ts';
import type { AuthenticatedCaller } from './stages/authenticate-token.ts';
import { checkModelRateLimit, NO_RATE_LIMIT_RELEASE } from './stages/model-rate-limit.ts';
import { checkModelLimit, resolveGroup } from './stages/resolve-group.ts';

/** What a token-count route needs: how to parse its body and how to write a count. */
export interface TokenCountProtocol {
  parseRequest(request: ClientRequest): RelayCall;
  /** The answer body for the gateway's own count. */
  formatCount(tokens: number): string;
}

export interface TokenCountServices {
  options: OptionStore;
  modelRateLimiter: RateLimiter;
  relay: RelayRuntime;
  authenticate: (request: RelayRequest) => AuthenticatedCaller | Promise<AuthenticatedCaller>;
}

/**
 * A token-count route (Anthropic's `/v1/messages/count_tokens`, Gemini's `:countTokens`): the
 * caller's token, model limits and the per-model rate limit apply as to any relay call; the count
 * comes from a channel serving the model whose upstream counts natively (its answer relayed as
 * it is), else — no such channel, or it failed — from the gateway's own estimate. Nothing is
 * reserved, billed or logged as consumption.
 */
export function createTokenCountHandler(protocol: TokenCountProtocol, services: TokenCountServices) {
  const { options, modelRateLimiter, relay, authenticate } = services;
  return async (request: RelayRequest, reply: RelayReply): Promise<unknown> => {
    const { token, user, pinnedChannelId } = await authenticate(request);
    const release = await checkModelRateLimit(options, modelRateLimiter, user.id);
    if (release !== NO_RATE_LIMIT_RELEASE) reply.raw.once('close', () => release(reply.raw.statusCode < 400));
    const call = parseCall(protocol, request);
    if (pinnedChannelId === null) checkModelLimit(token.model_limits_enabled, token.model_limits, call.model);
    const group =
      pinnedChannelId !== null ? token.group || user.group : resolveGroup(options, user.group, token.group);
    const counted = await countUpstream(relay, call, group, pinnedChannelId, reply, request);
    const body = counted ?? protocol.formatCount(estimatePromptTokens(call.prompt, call.model).tokens);
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
