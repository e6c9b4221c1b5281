import type { ChannelRuntime } from '../../spec/channel-runtime.js';
import type { PassthroughTap, PassthroughTapOptions } from '../../spec/passthrough-tap.js';
import type { Protocol } from '../../spec/protocol.js';
import type { HeadersLike, ProviderAdapter } from '../../spec/provider-adapter.js';
import type { RelayCall } from '../../spec/relay-call.js';
import type { SseEvent } from '../../spec/sse-event.js';
import type { StreamPart } from '../../spec/stream-part.js';
import type { UnifiedResponse } from '../../spec/unified-response.js';
import type { UpstreamError } from '../../spec/upstream-error.js';
import type { UpstreamRequest } from '../../spec/upstream-request.js';
import type { Usage } from '../../spec/usage.js';
import { convertOpenAIResponse } from './convert-openai-response.js';
import { convertOpenAIUsage, readOpenAIUsageFromText } from './convert-openai-usage.js';
import {
  readImagesUsage,
  readRerankUsage,
  readResponsesUsage,
  readTranscriptionUsage,
} from './convert-responses-usage.js';
import { convertToOpenAIRequest } from './convert-to-openai-request.js';
import { OPENAI_CONFIG, type OpenAIFamilyConfig } from './openai-config.js';
import { parseOpenAIError } from './openai-error.js';
import { listOpenAIFamilyModels } from './openai-list-models.js';
import { createOpenAIResponsesTap } from './openai-responses-tap.js';
import { createOpenAIStreamTransformer } from './openai-stream-transformer.js';
import { createOpenAIUsageTap } from './openai-usage-tap.js';

/**
 * Creates an adapter for an OpenAI-format upstream described by `config`. The OpenAI channel is
 * `createOpenAIFamilyAdapter(OPENAI_CONFIG)`; OpenAI-compatible vendors pass their own config.
 */
export function createOpenAIFamilyAdapter(config: OpenAIFamilyConfig): ProviderAdapter {
  const nativeProtocols = Object.keys(config.paths) as Protocol[];
  const listing = config.models;
  return {
    channelType: config.channelType,
    name: config.name,
    nativeProtocols,
    buildRequest(call: RelayCall, channel: ChannelRuntime): UpstreamRequest {
      return convertToOpenAIRequest(call, channel, config);
    },
    createPassthroughTap(options?: PassthroughTapOptions): PassthroughTap {
      return options?.protocol === 'openai-responses'
        ? createOpenAIResponsesTap(options)
        : createOpenAIUsageTap(options);
    },
    toStreamParts(call: RelayCall): TransformStream<SseEvent, StreamPart> {
      return createOpenAIStreamTransformer(call);
    },
    toResponse(body: unknown, call: RelayCall): UnifiedResponse {
      return convertOpenAIResponse(body, call);
    },
    readUsage(source: SseEvent | unknown, protocol?: Protocol): Usage | undefined {
      return readOpenAIFamilyUsage(source, protocol, config);
    },
    parseError(status: number, bodyText: string, headers?: HeadersLike): UpstreamError {
      return parseOpenAIError(status, bodyText, headers);
    },
    listModels:
      listing === undefined
        ? undefined
        : (channel: ChannelRuntime, fetch: typeof globalThis.fetch) =>
            listOpenAIFamilyModels(channel, config, listing, fetch),
  };
}

/**
 * Usage of an OpenAI-family answer by protocol: Responses bodies and events, transcription
 * answers (usage or duration), rerank answers (Jina/Cohere shapes; none when the config ignores
 * them), image answers (gpt-image tokens); chat, completions, embeddings and the rest use the
 * chat `usage` object. Speech answers are audio bytes: billing uses `call.quantities`.
 */
export function readOpenAIFamilyUsage(
  source: SseEvent | unknown,
  protocol: Protocol | undefined,
  config?: OpenAIFamilyConfig,
): Usage | undefined {
  switch (protocol) {
    case 'openai-responses':
      return readResponsesUsage(source);
    case 'openai-audio-transcription':
      return readTranscriptionUsage(source);
    case 'rerank':
      return config?.ignoreRerankUsage === true ? undefined : readRerankUsage(source);
    case 'openai-images':
      return readImagesUsage(source);
    case 'openai-audio-speech':
      return undefined;
    default:
      return readOpenAIUsage(source);
  }
}

/** The OpenAI adapter (channel type 1). */
export const openAIAdapter: ProviderAdapter = createOpenAIFamilyAdapter(OPENAI_CONFIG);

/**
 * Reads OpenAI usage from an SSE event, a response body text, or a parsed chunk/body (top-level
 * `usage`, or inside the first choice as Moonshot streams it).
 */
export function readOpenAIUsage(source: SseEvent | unknown): Usage | undefined {
  if (typeof source === 'string') return readOpenAIUsageFromText(source);
  if (typeof source !== 'object' || source === null) return undefined;
  const data = (source as { data?: unknown }).data;
  if (typeof data === 'string') {
    if (!data.includes('"usage"')) return undefined;
    try {
      return readOpenAIUsage(JSON.parse(data) as unknown);
    } catch {
      return undefined;
    }
  }
  const record = source as { usage?: unknown; choices?: unknown };
  const usage = convertOpenAIUsage(record.usage);
  if (usage !== undefined) return usage;
  if (Array.isArray(record.choices)) {
    const first: unknown = record.choices[0];
    if (typeof first === 'object' && first !== null)
      return convertOpenAIUsage((first as { usage?: unknown }).usage);
  }
  return undefined;
}
