import type { FinishReason } from '../../spec/finish-reason.js';

/**
 * Maps a Gemini `finishReason` to the unified {@link FinishReason}: `STOP` → `stop` (or
 * `tool-calls` when the candidate called a function), `MAX_TOKENS` → `length`, anything else
 * (`SAFETY`, `RECITATION`, `BLOCKLIST`, `PROHIBITED_CONTENT`, `OTHER`...) → `content-filter`, as the
 * reference gateway does. `undefined` for a missing reason or `FINISH_REASON_UNSPECIFIED`.
 */
export function mapGeminiFinishReason(
  reason: string | null | undefined,
  sawFunctionCall = false,
): FinishReason | undefined {
  if (typeof reason !== 'string' || reason === '' || reason === 'FINISH_REASON_UNSPECIFIED') return undefined;
  if (reason === 'STOP') return sawFunctionCall ? 'tool-calls' : 'stop';
  if (reason === 'MAX_TOKENS') return 'length';
  return 'content-filter';
}

/** The Gemini `finishReason` for a unified reason (client side of the conversion path). */
export function toGeminiFinishReason(reason: FinishReason): string {
  switch (reason) {
    case 'stop':
    case 'tool-calls':
      return 'STOP';
    case 'length':
      return 'MAX_TOKENS';
    case 'content-filter':
      return 'SAFETY';
    default:
      return 'OTHER';
  }
}
