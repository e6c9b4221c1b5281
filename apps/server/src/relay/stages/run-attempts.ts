import {
  getProviderAdapter,
  isRelayRequestError,
  type ProviderAdapter,
  type RelayCall,
  UpstreamError,
  type UpstreamRequest,
  upstreamErrorFromException,
} from '@switchyard/relay-kit';
import { ErrorCode } from '@switchyard/shared';
import type { RouteTarget } from '../../channels/channel-index.ts';
import { selectChannel } from '../../channels/select-channel.ts';
import { GatewayError, relayRefusal, requestRefused } from '../../errors/gateway-error.ts';
import { hasRemoteImages, inlineRemoteImages } from '../images/inline-remote-images.ts';
import { ImageFetchError } from '../images/remote-image-fetcher.ts';
import type { RelayContext } from '../relay-context.ts';
import type { RelayRuntime } from '../relay-runtime.ts';
import { type UpstreamAnswer, UpstreamBodyCut } from '../upstream-answer.ts';
import type { SlotRelease } from '../upstream-limits.ts';
import { BUFFER_CONVERTED, BUFFER_NONE, BUFFER_PASSED_THROUGH } from './answer-shape.ts';
import { planUpstreamCall, type UpstreamPlan } from './plan-upstream-call.ts';

/** A 2xx upstream response and how it was obtained. */
export interface AttemptSuccess {
  channel: RouteTarget;
  adapter: ProviderAdapter;
  request: UpstreamRequest;
  /** The 2xx answer: read whole (`text`, non-stream calls' JSON) or as a stream (`body`). */
  response: UpstreamAnswer;
  /** Pass-through or conversion, and the call the adapter was given. */
  plan: UpstreamPlan;
  /**
   * Gives back the call's node and channel slots (idempotent). The sender calls it when the
   * upstream body is done: at once after a buffered read, or through `releaseWhenDone` for a
   * body piped to the client.
   */
  release: SlotRelease;
}

/** Reported for every failed attempt (logging, channel health). */
export type AttemptFailureListener = (channel: RouteTarget, failure: UpstreamError) => void;

/** The client went away before the upstream answered; nothing is sent and the reservation is refunded. */
export class ClientAbortedError extends Error {
  override name = 'ClientAbortedError';
}

const SATURATED = '当前分组上游负载已饱和，请稍后再试';

/** The error a client sees when every attempt failed (status-code mapping applied). */
export function toRelayFailure(failure: UpstreamError, channel: RouteTarget | null): GatewayError {
  const upstreamStatus = failure.status || (failure.code === 'upstream:timeout' ? 504 : 502);
  const status = channel?.statusCodeMapping.get(upstreamStatus) ?? upstreamStatus;
  const saturated = status === 429;
  return new GatewayError(
    saturated ? ErrorCode.UpstreamSaturated : ErrorCode.UpstreamError,
    saturated ? SATURATED : failure.message,
    {
      status,
      type: failure.type ?? 'upstream_error',
      wireCode: failure.upstreamCode ?? (failure.status ? 'bad_response_status_code' : failure.code),
      logAsError: false,
    },
  );
}

/**
 * Stage 6: tries channels until one answers 2xx. Attempt 0 takes the highest priority tier;
 * every later attempt excludes the channels already tried (never reusing a failed one) and moves
 * down a tier when the current one is used up. Only retryable failures lead to another attempt;
 * a pinned channel gets exactly one.
 *
 * Upstream limits: the call takes a node slot first (RELAY_MAX_CONCURRENCY; none free → 503 at
 * once), and each attempt a slot on its channel (`max_concurrency`; a full channel is skipped
 * without using an attempt, and when only full channels are left → 429 at once). Slots are held
 * until the upstream body is done or the client leaves.
 */
export function runAttempts(
  context: RelayContext,
  runtime: RelayRuntime,
  retryTimes: number,
  onFailure: AttemptFailureListener,
): Promise<AttemptSuccess> {
  // Not an async function (no frame kept across the upstream wait): the attempts' promise is
  // handed on with the node slot added to what the success releases.
  const releaseNode = runtime.upstream.limits.enterNode();
  if (!releaseNode) {
    const message = '服务器繁忙，上游并发已达上限，请稍后再试';
    return Promise.reject(
      relayRefusal(ErrorCode.UpstreamSaturated, message, 503, 'relay_concurrency_limited', false),
    );
  }
  return attemptChannels(context, runtime, retryTimes, onFailure).then(
    (success) => {
      const releaseChannel = success.release;
      success.release = () => {
        releaseChannel();
        releaseNode();
      };
      return success;
    },
    (error: unknown) => {
      releaseNode();
      throw error;
    },
  );
}

/**
 * What a call's attempts convert at most once, whichever channel asks first: the call as an
 * OpenAI chat call (for adapters that only take chat), and a call with its remote images inlined.
 * One object per call, with nothing made until an attempt needs it.
 */
class CallConversions {
  private converted: RelayCall | undefined;
  private withoutSearch: RelayCall | undefined;
  private embeddings: RelayCall | undefined;
  private inlined: Map<RelayCall, Promise<RelayCall>> | undefined;

  constructor(
    private readonly call: RelayCall,
    private readonly codec: RelayContext['codec'],
    private readonly runtime: RelayRuntime,
  ) {}

  chatCall(): RelayCall {
    this.converted ??= this.codec.toChatCall ? this.codec.toChatCall(this.call) : this.call;
    return this.converted;
  }

  chatCallWithoutWebSearch(): RelayCall {
    if (this.withoutSearch === undefined) {
      const chat = this.chatCall();
      const { web_search_options: _dropped, ...body } = chat.body;
      this.withoutSearch = { ...chat, body };
    }
    return this.withoutSearch;
  }

  embeddingsCall(): RelayCall {
    this.embeddings ??= this.codec.toEmbeddingsCall ? this.codec.toEmbeddingsCall(this.call) : this.call;
    return this.embeddings;
  }

  inlineImages(target: RelayCall): Promise<RelayCall> {
    this.inlined ??= new Map();
    let pending = this.inlined.get(target);
    if (!pending) {
      pending = inlineRemoteImages(target, this.runtime.imageFetchSettings(), this.runtime.fetch);
      this.inlined.set(target, pending);
    }
    return pending;
  }
}

async function attemptChannels(
  context: RelayContext,
  runtime: RelayRuntime,
  retryTimes: number,
  onFailure: AttemptFailureListener,
): Promise<AttemptSuccess> {
  const { caller, call, codec } = context;
  const maxAttempts = caller.pinnedChannelId !== null ? 1 : 1 + Math.max(0, retryTimes);
  const excluded = new Set<number>();
  const conversions = new CallConversions(call, codec, runtime);
  let unsupported: RouteTarget | null = null;
  let saturated: RouteTarget | null = null;
  let last: { failure: UpstreamError; channel: RouteTarget } | null = null;
  for (let attempt = 0; attempt < maxAttempts; ) {
    const channel =
      caller.pinnedChannelId !== null
        ? runtime.channelIndex.get(caller.pinnedChannelId)
        : selectChannel(runtime.channelIndex.candidates(caller.group, call.model), excluded, runtime.random);
    if (!channel || excluded.has(channel.id)) break;
    excluded.add(channel.id);
    const adapter = getProviderAdapter(channel.type);
    let plan: UpstreamPlan | null = null;
    try {
      if (adapter) plan = planUpstreamCall(adapter, call, codec, channel.runtime.setting, conversions);
    } catch (error) {
      // Content with no equivalent on the channel's protocol: the request's fault (400).
      if (isRelayRequestError(error)) throw requestRefused(error.message);
      throw error;
    }
    if (!adapter || !plan) {
      // This channel's type cannot serve the client's protocol: skip it without using an attempt.
      unsupported = channel;
      continue;
    }
    const releaseChannel = runtime.upstream.limits.enterChannel(channel.id, channel.limits.maxConcurrency);
    if (!releaseChannel) {
      // At its concurrency cap on this node: try another channel without using an attempt.
      saturated = channel;
      continue;
    }
    attempt++;
    context.attempts.push(channel.id);
    let failure: UpstreamError;
    let responding = false;
    try {
      const prepared = adapter.prepareChannel
        ? await adapter.prepareChannel(channel.runtime, runtime.fetch)
        : channel.runtime;
      const upstreamCall =
        adapter.inlineRemoteImages && hasRemoteImages(plan.call)
          ? await conversions.inlineImages(plan.call)
          : plan.call;
      const request = adapter.buildRequest(upstreamCall, prepared, runtime.providerSettings());
      const sentAt = performance.now();
      let response: UpstreamAnswer;
      try {
        const bufferWhen = plan.call.stream
          ? BUFFER_NONE
          : plan.mode === 'convert'
            ? BUFFER_CONVERTED
            : BUFFER_PASSED_THROUGH;
        response = await runtime.upstream.fetchAnswer(request, context.abort, channel.limits, bufferWhen);
      } finally {
        context.upstreamWaitMs += performance.now() - sentAt;
      }
      runtime.metrics?.upstreamResponse(channel.id, response.statusCode);
      if (response.statusCode < 300) {
        responding = true;
        return { channel, adapter, request, response, plan, release: releaseChannel };
      }
      // An error answer is always read whole (its first 64 KB).
      const text = response.text ?? '';
      failure = adapter.parseError(response.statusCode, text, response.headers as Record<string, string>);
    } catch (error) {
      if (context.abort.aborted) throw new ClientAbortedError('client closed the connection');
      if (error instanceof UpstreamBodyCut && error.statusCode < 300) {
        // A 2xx answer cut short is not retried (the upstream did the work): 502, as a stream cut.
        runtime.metrics?.upstreamResponse(channel.id, error.statusCode);
        throw badAnswerFailure(channel, error.cause, true);
      }
      if (isRelayRequestError(error) || error instanceof ImageFetchError) throw requestRefused(error.message);
      failure = upstreamErrorFromException(error);
      if (failure.status === 0) runtime.metrics?.upstreamResponse(channel.id, 0);
    } finally {
      if (!responding) releaseChannel();
    }
    last = { failure, channel };
    onFailure(channel, failure);
    if (!failure.retryable) break;
  }
  if (last) throw toRelayFailure(last.failure, last.channel);
  // Every channel left for the call is at its concurrency cap on this node.
  if (saturated) {
    throw relayRefusal(ErrorCode.UpstreamSaturated, SATURATED, 429, 'channel_concurrency_limited', false);
  }
  if (unsupported) {
    const message = `渠道类型 ${unsupported.type} 不支持此接口 (${call.protocol})`;
    throw relayRefusal(ErrorCode.ChannelUnavailable, message, 400, 'channel_unsupported');
  }
  if (caller.pinnedChannelId !== null) {
    throw relayRefusal(ErrorCode.ChannelUnavailable, '指定的渠道不存在或已被禁用', 403);
  }
  throw noChannelError(caller.group, call.model);
}

/**
 * A 2xx answer the relay cannot pass on: its connection closed before its body was complete, or
 * a conversion could not read it. An upstream error (502 in the client's protocol; nothing was
 * delivered, so the call is refunded), not an internal one.
 */
export function badAnswerFailure(channel: RouteTarget, cause: unknown, cutShort: boolean): GatewayError {
  const failure = new UpstreamError({
    code: 'upstream:bad_response',
    message: cutShort
      ? 'upstream closed the connection before the response was complete'
      : 'upstream returned a response that could not be read',
    status: cutShort ? 0 : 502,
    retryable: false,
    channelFault: false,
    cause,
  });
  return toRelayFailure(failure, channel);
}

/** No enabled channel serves the model in the group. */
export const noChannelError = (group: string, model: string): GatewayError =>
  relayRefusal(
    ErrorCode.ChannelUnavailable,
    `当前分组 ${group} 下对于模型 ${model} 无可用渠道`,
    503,
    'model_not_found',
  );
