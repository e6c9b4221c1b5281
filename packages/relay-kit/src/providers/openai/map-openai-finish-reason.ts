import type { FinishReason } from '../../spec/finish-reason.js';

/**
 * Maps an OpenAI `finish_reason` to the unified {@link FinishReason}. Unknown strings from
 * compatible upstreams become `other`; keep the raw string beside the result.
 */
export function mapOpenAIFinishReason(reason: string | null | undefined): FinishReason | undefined {
  switch (reason) {
    case null:
    case undefined:
    case '':
      return undefined;
    case 'stop':
    case 'eos':
    case 'end_turn':
    case 'stop_sequence':
      return 'stop';
    case 'length':
    case 'max_tokens':
      return 'length';
    case 'content_filter':
      return 'content-filter';
    case 'tool_calls':
    case 'function_call':
    case 'tool_use':
      return 'tool-calls';
    case 'error':
      return 'error';
    default:
      return 'other';
  }
}
