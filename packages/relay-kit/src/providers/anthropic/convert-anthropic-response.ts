import type { RelayCall } from '../../spec/relay-call.js';
import type { UnifiedResponse, UnifiedToolCall } from '../../spec/unified-response.js';
import type { AnthropicMessage } from './anthropic-api.js';
import { convertAnthropicUsage } from './convert-anthropic-usage.js';
import { mapAnthropicFinishReason } from './map-anthropic-finish-reason.js';

/**
 * Converts a parsed Anthropic `message` body into a {@link UnifiedResponse}: text blocks joined,
 * thinking blocks as reasoning, `tool_use` blocks as tool calls (input serialised as JSON text),
 * `stop_reason` mapped and kept raw, usage with the cache split.
 */
export function convertAnthropicResponse(body: unknown, call: RelayCall): UnifiedResponse {
  const message = (typeof body === 'object' && body !== null ? body : {}) as AnthropicMessage;
  let text = '';
  let reasoning: string | undefined;
  const toolCalls: UnifiedToolCall[] = [];
  for (const block of Array.isArray(message.content) ? message.content : []) {
    if (typeof block !== 'object' || block === null) continue;
    if (block.type === 'text' && typeof block.text === 'string') text += block.text;
    else if (block.type === 'thinking' && typeof block.thinking === 'string') {
      reasoning = (reasoning ?? '') + block.thinking;
    } else if (block.type === 'tool_use') {
      toolCalls.push({
        id: typeof block.id === 'string' ? block.id : '',
        name: typeof block.name === 'string' ? block.name : '',
        arguments: JSON.stringify(block.input ?? {}),
      });
    }
  }
  const rawReason = typeof message.stop_reason === 'string' ? message.stop_reason : undefined;
  return {
    id: typeof message.id === 'string' ? message.id : '',
    model: typeof message.model === 'string' ? message.model : call.upstreamModel,
    created: Math.floor(Date.now() / 1000),
    choices: [
      {
        index: 0,
        text,
        reasoning,
        toolCalls,
        finishReason: mapAnthropicFinishReason(rawReason) ?? (toolCalls.length > 0 ? 'tool-calls' : 'stop'),
        rawFinishReason: rawReason,
      },
    ],
    usage: convertAnthropicUsage(message.usage),
    raw: body,
  };
}
