import type { ChannelRuntime } from '../../spec/channel-runtime.js';
import type { PassthroughTap, PassthroughTapOptions } from '../../spec/passthrough-tap.js';
import type { HeadersLike, ProviderAdapter } from '../../spec/provider-adapter.js';
import type { ProviderSettings } from '../../spec/provider-settings.js';
import type { RelayCall } from '../../spec/relay-call.js';
import type { SseEvent } from '../../spec/sse-event.js';
import type { StreamPart } from '../../spec/stream-part.js';
import type { UnifiedResponse } from '../../spec/unified-response.js';
import type { UpstreamError } from '../../spec/upstream-error.js';
import type { UpstreamRequest } from '../../spec/upstream-request.js';
import type { Usage } from '../../spec/usage.js';
import { convertGeminiResponse } from './convert-gemini-response.js';
import { convertGeminiUsage, readGeminiUsageFromText } from './convert-gemini-usage.js';
import { convertToGeminiRequest } from './convert-to-gemini-request.js';
import { isRecord } from './gemini-api.js';
import { parseGeminiError } from './gemini-error.js';
import { buildGeminiMethodRequest, geminiMethodOf } from './gemini-method-request.js';
import { listGeminiModels } from './gemini-models.js';
import { createGeminiStreamTransformer } from './gemini-stream-transformer.js';
import { createGeminiUsageTap } from './gemini-usage-tap.js';

/**
 * The Google Gemini adapter (channel type 24, AI Studio API): native for `gemini` and
 * `gemini-embeddings` clients (byte-exact pass-through), converts `openai-chat` calls (§3.9),
 * and counts tokens with `:countTokens`. Streams are always requested
 * as SSE upstream; a Gemini client that asked for the JSON-array stream form (no `alt=sse`) must
 * take the conversion path (see `geminiWantsJsonArrayStream`).
 */
export const geminiAdapter: ProviderAdapter = {
  channelType: 24,
  name: 'gemini',
  nativeProtocols: ['gemini', 'gemini-embeddings'],
  convertibleProtocols: ['openai-chat'],
  webSearch: true,
  // Gemini only reads inline images (or files it stores): the server downloads image URLs.
  inlineRemoteImages: true,
  buildRequest(call: RelayCall, channel: ChannelRuntime, settings?: ProviderSettings): UpstreamRequest {
    if (call.protocol === 'gemini-embeddings') {
      return buildGeminiMethodRequest(call, channel, geminiMethodOf(call), settings);
    }
    return convertToGeminiRequest(call, channel, settings);
  },
  buildCountTokensRequest(
    call: RelayCall,
    channel: ChannelRuntime,
    settings?: ProviderSettings,
  ): UpstreamRequest {
    return buildGeminiMethodRequest(call, channel, 'countTokens', settings);
  },
  createPassthroughTap(options?: PassthroughTapOptions): PassthroughTap {
    return createGeminiUsageTap(options);
  },
  toStreamParts(call: RelayCall): TransformStream<SseEvent, StreamPart> {
    return createGeminiStreamTransformer(call);
  },
  toResponse(body: unknown, call: RelayCall): UnifiedResponse {
    return convertGeminiResponse(body, call);
  },
  readUsage(source: SseEvent | unknown): Usage | undefined {
    return readGeminiUsage(source);
  },
  parseError(status: number, bodyText: string, headers?: HeadersLike): UpstreamError {
    return parseGeminiError(status, bodyText, headers);
  },
  listModels(channel: ChannelRuntime, fetch: typeof globalThis.fetch): Promise<string[]> {
    return listGeminiModels(channel, fetch);
  },
};

/**
 * Reads Gemini usage from an SSE event, a response body text (object or streamed JSON array),
 * or a parsed body/chunk (`usageMetadata`).
 */
export function readGeminiUsage(source: SseEvent | unknown): Usage | undefined {
  if (typeof source === 'string') return readGeminiUsageFromText(source);
  if (!isRecord(source)) return undefined;
  if (typeof source.data === 'string') {
    return source.data.includes('"usageMetadata"') ? readGeminiUsageFromText(source.data) : undefined;
  }
  return convertGeminiUsage(source.usageMetadata);
}
