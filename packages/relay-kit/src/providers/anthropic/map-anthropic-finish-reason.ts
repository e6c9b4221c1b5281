import type { FinishReason } from '../../spec/finish-reason.js';

/** Maps an Anthropic `stop_reason` to the unified {@link FinishReason}; keep the raw string beside it. */
export function mapAnthropicFinishReason(reason: string | null | undefined): FinishReason | undefined {
  switch (reason) {
    case null:
    case undefined:
    case '':
      return undefined;
    case 'end_turn':
    case 'stop_sequence':
    case 'pause_turn':
      return 'stop';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'tool_use':
      return 'tool-calls';
    case 'refusal':
      return 'content-filter';
    default:
      return 'other';
  }
}
