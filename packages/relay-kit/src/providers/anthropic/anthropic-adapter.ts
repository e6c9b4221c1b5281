import type { PassthroughTapOptions } from '../../spec/passthrough-tap.js';
import type { ProviderAdapter } from '../../spec/provider-adapter.js';
import type { SseEvent } from '../../spec/sse-event.js';
import type { Usage } from '../../spec/usage.js';
import { buildAnthropicCountTokensRequest } from './anthropic-count-tokens.js';
import { parseAnthropicError } from './anthropic-error.js';
import { listAnthropicModels } from './anthropic-models.js';
import { createAnthropicStreamTransformer } from './anthropic-stream-transformer.js';
import { createAnthropicUsageTap } from './anthropic-usage-tap.js';
import { convertAnthropicResponse } from './convert-anthropic-response.js';
import { AnthropicStreamUsage, readAnthropicBodyUsage } from './convert-anthropic-usage.js';
import { convertToAnthropicRequest } from './convert-to-anthropic-request.js';

/**
 * The Anthropic Claude adapter (channel type 14): Messages pass through natively; chat
 * completions are converted to Messages and back.
 */
export const anthropicAdapter: ProviderAdapter = {
  channelType: 14,
  name: 'anthropic',
  nativeProtocols: ['anthropic-messages'],
  convertibleProtocols: ['openai-chat'],
  webSearch: true,
  buildRequest: convertToAnthropicRequest,
  buildCountTokensRequest: buildAnthropicCountTokensRequest,
  createPassthroughTap: (options?: PassthroughTapOptions) => createAnthropicUsageTap(options),
  toStreamParts: createAnthropicStreamTransformer,
  toResponse: convertAnthropicResponse,
  readUsage: (source: SseEvent | unknown) => readAnthropicUsage(source),
  parseError: parseAnthropicError,
  listModels: listAnthropicModels,
};

/**
 * Reads Anthropic usage from a body text, a parsed body, or one stream event (`message_start`:
 * the input side; `message_delta`: what it carries, usually only the output count). Input total
 * = input + cache read + cache creation; uncached = input.
 */
export function readAnthropicUsage(source: SseEvent | unknown): Usage | undefined {
  if (typeof source === 'string') return readAnthropicBodyUsage(source);
  if (typeof source !== 'object' || source === null) return undefined;
  const data = (source as { data?: unknown }).data;
  if (typeof data === 'string') {
    if (!data.includes('"usage"')) return undefined;
    return readAnthropicUsage(parseObject(data));
  }
  const record = source as { type?: unknown; usage?: unknown; message?: { usage?: unknown } };
  if (record.type === 'message_delta') {
    const merged = new AnthropicStreamUsage();
    merged.apply(record.usage, false);
    return record.usage === undefined ? undefined : merged.result();
  }
  return readAnthropicBodyUsage(record);
}

function parseObject(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
