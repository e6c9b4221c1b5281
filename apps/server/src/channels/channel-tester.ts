import {
  acceptsProtocol,
  countResponseTokens,
  DEFAULT_PROVIDER_SETTINGS,
  estimatePromptTokens,
  getProviderAdapter,
  isRelayRequestError,
  maskSensitive,
  openAIChatCodec,
  openAIEmbeddingsCodec,
  type ProviderSettings,
  type RelayCall,
  UpstreamError,
  upstreamErrorFromException,
} from '@switchyard/relay-kit';
import type { Dispatcher } from 'undici';
import type { BilledUsage } from '../billing/pricing/compute-quota.ts';
import { type ChannelRow, splitCommaList } from '../db/repositories/channel-repository.ts';
import type { UpstreamClient } from '../relay/upstream-client.ts';
import { channelRuntimeOf } from './channel-runtime-of.ts';
import { channelUpstreamLimitsOf } from './channel-upstream-limits.ts';

/** Used when neither the request, the channel's test model nor its model list names one (reference §8.1). */
export const FALLBACK_TEST_MODEL = 'gpt-4o-mini';
/** Longest a single test may take (the upstream client's own header timeout may be shorter). */
export const TEST_TIMEOUT_MS = 60_000;
/** The prompt every chat test sends. */
const TEST_PROMPT = 'hi';

/** The result of one test call. Exactly one of `failure` / `localError` is set when it failed. */
export interface ChannelTestCallResult {
  model: string;
  /** Wall-clock milliseconds of the upstream round trip (request sent → body read). */
  responseMs: number;
  /** The upstream refused or could not be reached. */
  failure?: UpstreamError;
  /** The gateway could not run the test (unsupported channel type, invalid model). */
  localError?: string;
  /** Token counts of a successful call (the upstream's, else a local estimate). */
  usage?: BilledUsage;
  upstreamModel?: string;
}

/** The model a test uses: the requested one, else the channel's test model, else its first model. */
export function chooseTestModel(
  channel: Pick<ChannelRow, 'test_model' | 'models'>,
  requested?: string,
): string {
  const fromRequest = requested?.trim();
  if (fromRequest) return fromRequest;
  const testModel = channel.test_model?.trim();
  if (testModel) return testModel;
  return splitCommaList(channel.models)[0] ?? FALLBACK_TEST_MODEL;
}

/** Embedding models are tested on /v1/embeddings (reference §8.1). */
export function isEmbeddingModel(model: string): boolean {
  const name = model.toLowerCase();
  return name.includes('embed') || name.includes('bge-') || name.startsWith('m3e');
}

/**
 * The test request (reference §8.1): `{"model", "messages":[{"role":"user","content":"hi"}]}` with
 * a small output limit — 10 tokens (the OpenAI adapter turns it into `max_completion_tokens` for
 * reasoning models), 50 for thinking models, 300 for Gemini — or an embeddings call.
 */
export function buildTestCall(model: string): RelayCall {
  if (isEmbeddingModel(model)) {
    return openAIEmbeddingsCodec.parseRequest({
      json: { model, input: ['hello world'] },
      path: '/v1/embeddings',
    });
  }
  const name = model.toLowerCase();
  const maxTokens = name.startsWith('gemini') ? 300 : name.includes('thinking') ? 50 : 10;
  return openAIChatCodec.parseRequest({
    json: { model, messages: [{ role: 'user', content: TEST_PROMPT }], max_tokens: maxTokens },
    path: '/v1/chat/completions',
  });
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Sends one real test request through the channel's adapter and the relay's upstream client.
 * Never throws for upstream or configuration problems: they come back as `failure` /
 * `localError`, with the time spent.
 */
export async function runChannelTest(
  channel: ChannelRow,
  model: string,
  upstream: Pick<UpstreamClient, 'send'>,
  timeoutMs = TEST_TIMEOUT_MS,
  settings: ProviderSettings = DEFAULT_PROVIDER_SETTINGS,
): Promise<ChannelTestCallResult> {
  const adapter = getProviderAdapter(channel.type);
  if (!adapter) return { model, responseMs: 0, localError: `渠道类型 ${channel.type} 暂不支持测试` };
  let call: RelayCall;
  try {
    call = buildTestCall(model);
  } catch (error) {
    return { model, responseMs: 0, localError: `无效的测试模型：${(error as Error).message}` };
  }
  if (!acceptsProtocol(adapter, call.protocol)) {
    return { model, responseMs: 0, localError: `渠道类型 ${channel.type} 不支持测试此模型` };
  }
  let request: ReturnType<typeof adapter.buildRequest>;
  try {
    const runtime = channelRuntimeOf(channel);
    const prepared = adapter.prepareChannel
      ? await adapter.prepareChannel(runtime, globalThis.fetch)
      : runtime;
    request = adapter.buildRequest(call, prepared, settings);
  } catch (error) {
    if (isRelayRequestError(error)) return { model, responseMs: 0, localError: error.message };
    return { model, responseMs: 0, localError: `渠道配置无效：${maskSensitive((error as Error).message)}` };
  }
  const signal = AbortSignal.timeout(timeoutMs);
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let response: Dispatcher.ResponseData;
  let text: string;
  try {
    // The channel's own timeouts apply to tests too (the test's overall limit still bounds them).
    response = await upstream.send(request, signal, channelUpstreamLimitsOf(channel.setting));
    text = await response.body.text();
  } catch (error) {
    return {
      model,
      responseMs: elapsed(),
      failure: upstreamErrorFromException(error, { timeout: signal.aborted }),
    };
  }
  const responseMs = elapsed();
  const headers = response.headers as Record<string, string>;
  if (response.statusCode >= 300) {
    return { model, responseMs, failure: adapter.parseError(response.statusCode, text, headers) };
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (!isObject(body)) {
    return {
      model,
      responseMs,
      failure: new UpstreamError({
        status: response.statusCode,
        code: 'upstream:bad_response',
        message: '上游返回了无法解析的响应',
        retryable: false,
        channelFault: false,
        rawBody: text,
      }),
    };
  }
  if ('error' in body && !('choices' in body) && !('data' in body)) {
    return { model, responseMs, failure: adapter.parseError(response.statusCode, text, headers) };
  }
  return {
    model,
    responseMs,
    usage: usageOf(adapter, call, body, text),
    upstreamModel: request.upstreamModel,
  };
}

/** The upstream's usage, or a local count when it sent none. */
function usageOf(
  adapter: NonNullable<ReturnType<typeof getProviderAdapter>>,
  call: RelayCall,
  body: Record<string, unknown>,
  text: string,
): BilledUsage {
  const usage = adapter.readUsage(text);
  if (usage) {
    return {
      promptTokens: usage.inputTokens.total,
      completionTokens: usage.outputTokens.total,
      cachedTokens: usage.inputTokens.cacheRead,
      cacheWriteTokens: usage.inputTokens.cacheWrite,
    };
  }
  let completionTokens = 0;
  if (call.protocol === 'openai-chat') {
    try {
      completionTokens = countResponseTokens(adapter.toResponse(body, call), call.model).tokens;
    } catch {
      completionTokens = 0;
    }
  }
  return {
    promptTokens: estimatePromptTokens(call.prompt, call.model).tokens,
    completionTokens,
    cachedTokens: 0,
    cacheWriteTokens: 0,
  };
}
