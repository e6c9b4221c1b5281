import type { RelayCall } from '../../spec/relay-call.js';
import type { UnifiedChoice, UnifiedResponse, UnifiedToolCall } from '../../spec/unified-response.js';
import { convertOpenAIUsage } from './convert-openai-usage.js';
import { mapOpenAIFinishReason } from './map-openai-finish-reason.js';
import type { OpenAIChatCompletion } from './openai-api.js';

/**
 * Converts a parsed OpenAI `chat.completion` (or legacy `text_completion`) body into a
 * {@link UnifiedResponse}. Missing fields get neutral defaults (empty id, the call's model).
 */
export function convertOpenAIResponse(body: unknown, call: RelayCall): UnifiedResponse {
  const completion = (typeof body === 'object' && body !== null ? body : {}) as OpenAIChatCompletion;
  const choices: UnifiedChoice[] = [];
  const rawChoices = Array.isArray(completion.choices) ? completion.choices : [];
  rawChoices.forEach((choice, position) => {
    if (typeof choice !== 'object' || choice === null) return;
    const message = typeof choice.message === 'object' && choice.message !== null ? choice.message : {};
    const toolCalls: UnifiedToolCall[] = [];
    if (Array.isArray(message.tool_calls)) {
      for (const toolCall of message.tool_calls) {
        if (typeof toolCall !== 'object' || toolCall === null) continue;
        toolCalls.push({
          id: typeof toolCall.id === 'string' ? toolCall.id : '',
          name: typeof toolCall.function?.name === 'string' ? toolCall.function.name : '',
          arguments: typeof toolCall.function?.arguments === 'string' ? toolCall.function.arguments : '',
        });
      }
    } else if (typeof message.function_call === 'object' && message.function_call !== null) {
      toolCalls.push({
        id: '',
        name: message.function_call.name ?? '',
        arguments: message.function_call.arguments ?? '',
      });
    }
    const reasoning =
      typeof message.reasoning_content === 'string' ? message.reasoning_content : message.reasoning;
    const rawReason = typeof choice.finish_reason === 'string' ? choice.finish_reason : undefined;
    choices.push({
      index: typeof choice.index === 'number' ? choice.index : position,
      text:
        typeof message.content === 'string'
          ? message.content
          : typeof choice.text === 'string'
            ? choice.text
            : '',
      reasoning: typeof reasoning === 'string' ? reasoning : undefined,
      toolCalls,
      finishReason: mapOpenAIFinishReason(rawReason) ?? (toolCalls.length > 0 ? 'tool-calls' : 'stop'),
      rawFinishReason: rawReason,
    });
  });
  return {
    id: typeof completion.id === 'string' ? completion.id : '',
    model: typeof completion.model === 'string' ? completion.model : call.upstreamModel,
    created: typeof completion.created === 'number' ? completion.created : Math.floor(Date.now() / 1000),
    choices,
    usage: convertOpenAIUsage(completion.usage),
    raw: body,
  };
}
