import type { ChannelRuntime } from '../../spec/channel-runtime.js';
import type { HeadersLike, ProviderAdapter } from '../../spec/provider-adapter.js';
import { DEFAULT_PROVIDER_SETTINGS, type ProviderSettings } from '../../spec/provider-settings.js';
import type { RelayCall } from '../../spec/relay-call.js';
import { UpstreamError } from '../../spec/upstream-error.js';
import type { UpstreamRequest } from '../../spec/upstream-request.js';
import { maskSensitive } from '../../util/mask-sensitive.js';
import { readAnthropicUsage } from '../anthropic/anthropic-adapter.js';
import { parseAnthropicError } from '../anthropic/anthropic-error.js';
import { createAnthropicStreamTransformer } from '../anthropic/anthropic-stream-transformer.js';
import { createAnthropicUsageTap } from '../anthropic/anthropic-usage-tap.js';
import { convertAnthropicResponse } from '../anthropic/convert-anthropic-response.js';
import { prepareAnthropicBody } from '../anthropic/convert-to-anthropic-request.js';
import { readHeader } from '../classify-upstream-error.js';
import { createBedrockEventStreamDecoder } from './aws-event-stream.js';
import { bedrockModelId } from './bedrock-model-ids.js';
import { signAwsRequest } from './sigv4.js';

/** The `anthropic_version` Bedrock expects in the body. */
export const BEDROCK_ANTHROPIC_VERSION = 'bedrock-2023-05-31';

/** Options of {@link createBedrockAdapter}. */
export interface BedrockAdapterOptions {
  /** Clock for the signature date (tests). Default: the current time. */
  readonly now?: (() => Date) | undefined;
}

/**
 * The AWS Bedrock Claude adapter (channel type 33, key `AK|SK|region`). Messages and chat
 * completions are both converted (Bedrock's stream is AWS event-stream, not SSE, so nothing
 * passes through): the body is the Anthropic Messages body without `model` and `stream`, with
 * `anthropic_version: "bedrock-2023-05-31"` (and the client's `anthropic-beta` as
 * `anthropic_beta`), sent to `/model/{id}/invoke` or `/invoke-with-response-stream`, signed with
 * SigV4. Responses and decoded stream events are Anthropic's, read by the Anthropic converters.
 */
export function createBedrockAdapter(options: BedrockAdapterOptions = {}): ProviderAdapter {
  const now = options.now ?? (() => new Date());
  return {
    channelType: 33,
    name: 'aws-claude',
    nativeProtocols: [],
    convertibleProtocols: ['anthropic-messages', 'openai-chat'],
    buildRequest: (call, channel, settings) => buildBedrockRequest(call, channel, settings, now()),
    createPassthroughTap: (tapOptions) => createAnthropicUsageTap(tapOptions),
    decodeStream: createBedrockEventStreamDecoder,
    toStreamParts: createAnthropicStreamTransformer,
    toResponse: convertAnthropicResponse,
    readUsage: (source) => readAnthropicUsage(source),
    parseError: parseBedrockError,
  };
}

/** The Bedrock adapter with the real clock. */
export const bedrockAdapter: ProviderAdapter = createBedrockAdapter();

/** Builds and signs a Bedrock InvokeModel(WithResponseStream) request. */
export function buildBedrockRequest(
  call: RelayCall,
  channel: ChannelRuntime,
  settings: ProviderSettings = DEFAULT_PROVIDER_SETTINGS,
  date: Date = new Date(),
): UpstreamRequest {
  const credentials = parseBedrockKey(channel.key);
  const prepared = prepareAnthropicBody(call, channel, settings);
  const { model: _model, stream: _stream, ...rest } = prepared.body;
  const body: Record<string, unknown> = { anthropic_version: BEDROCK_ANTHROPIC_VERSION, ...rest };
  const beta = call.protocol === 'anthropic-messages' ? call.headers?.['anthropic-beta'] : undefined;
  if (beta !== undefined && body.anthropic_beta === undefined) {
    body.anthropic_beta = beta
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item !== '');
  }
  const modelId = bedrockModelId(prepared.upstreamModel, credentials.region);
  const base =
    channel.baseUrl?.replace(/\/+$/, '') || `https://bedrock-runtime.${credentials.region}.amazonaws.com`;
  const action = call.stream ? 'invoke-with-response-stream' : 'invoke';
  const url = `${base}/model/${encodeURIComponent(modelId)}/${action}`;
  const text = JSON.stringify(body);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: call.stream ? 'application/vnd.amazon.eventstream' : 'application/json',
  };
  for (const [name, value] of Object.entries(channel.headerOverride ?? {})) {
    headers[name.toLowerCase()] = value.replaceAll('{api_key}', credentials.accessKeyId);
  }
  const signed = signAwsRequest({
    method: 'POST',
    url,
    headers,
    body: text,
    accessKeyId: credentials.accessKeyId,
    secretAccessKey: credentials.secretAccessKey,
    region: credentials.region,
    service: 'bedrock',
    date,
  });
  return {
    url,
    method: 'POST',
    headers: signed.headers,
    body: text,
    upstreamModel: modelId,
    streamUsageForced: false,
    warnings: prepared.warnings,
  };
}

/** Splits a channel key `AK|SK|region`; a malformed key is the channel's fault. */
export function parseBedrockKey(key: string): {
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
} {
  const [accessKeyId, secretAccessKey, region, ...extra] = key.split('|').map((part) => part.trim());
  if (!accessKeyId || !secretAccessKey || !region || extra.length > 0 || !/^[a-z0-9-]+$/.test(region)) {
    throw new UpstreamError({
      status: 0,
      code: 'channel:invalid_key',
      message: 'the AWS channel key must be "AccessKeyId|SecretAccessKey|region"',
      retryable: true,
      channelFault: true,
    });
  }
  return { accessKeyId, secretAccessKey, region };
}

/**
 * Parses a Bedrock error (`{"message": "..."}` with the type in `x-amzn-ErrorType`): throttling is
 * a rate limit, an invalid security token or access denial the channel's fault, an unknown model
 * id `model_not_found`.
 */
export function parseBedrockError(status: number, bodyText: string, headers?: HeadersLike): UpstreamError {
  const error = parseAnthropicError(status, bodyText, headers);
  const type = readHeader(headers, 'x-amzn-errortype')?.split(':')[0] || error.type;
  const modelMissing = /model identifier is invalid|on-demand throughput isn.t supported/i.test(
    error.message,
  );
  if (type === error.type && !modelMissing) return error;
  return new UpstreamError({
    status,
    code: modelMissing ? 'channel:model_not_found' : error.code,
    message: maskSensitive(error.message),
    type,
    upstreamCode: modelMissing ? 'model_not_found' : error.upstreamCode,
    retryable: modelMissing || error.retryable,
    channelFault: modelMissing || error.channelFault,
    rawBody: error.rawBody,
    retryAfterMs: error.retryAfterMs,
  });
}
