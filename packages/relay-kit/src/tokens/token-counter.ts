import { countEncodedTokens, encodingForModel, type TokenEncodingName } from './tokenizer.js';

/**
 * Characters counted exactly per counting job (one prompt, one completion). Beyond it the count is
 * extrapolated from the tokens-per-character ratio seen so far: ~10 ms of CPU at most, instead of
 * the tens of seconds a huge input cost new-api (#1295).
 */
export const MAX_EXACT_CHARS = 200_000;

/** Tokens per character assumed when nothing was counted exactly yet (English-like text). */
const DEFAULT_TOKENS_PER_CHAR = 0.3;

/**
 * Counts several texts for one model under a shared character budget: exact while the budget
 * lasts, extrapolated after. Create one per counting job.
 */
export interface TokenCounter {
  /** Tokens of `text` (exact or extrapolated). */
  count(text: string): number;
  /** True once some text was extrapolated rather than counted. */
  readonly estimated: boolean;
}

/** Creates a {@link TokenCounter} for `model` with a budget of `maxExactChars` characters. */
export function createTokenCounter(model: string, maxExactChars: number = MAX_EXACT_CHARS): TokenCounter {
  const encoding: TokenEncodingName = encodingForModel(model);
  let remaining = maxExactChars;
  let exactChars = 0;
  let exactTokens = 0;
  let estimated = false;
  const ratio = () => (exactChars > 0 ? exactTokens / exactChars : DEFAULT_TOKENS_PER_CHAR);
  return {
    count(text: string): number {
      const length = text.length;
      if (length === 0) return 0;
      if (length <= remaining) {
        const tokens = countEncodedTokens(encoding, text);
        remaining -= length;
        exactChars += length;
        exactTokens += tokens;
        return tokens;
      }
      estimated = true;
      if (remaining <= 0) return Math.ceil(length * ratio());
      let cut = remaining;
      // Do not split a surrogate pair.
      const code = text.charCodeAt(cut - 1);
      if (code >= 0xd800 && code <= 0xdbff) cut--;
      const head = text.slice(0, cut);
      const headTokens = countEncodedTokens(encoding, head);
      remaining = 0;
      exactChars += cut;
      exactTokens += headTokens;
      return headTokens + Math.ceil((length - cut) * ratio());
    },
    get estimated() {
      return estimated;
    },
  };
}

/**
 * Tokens of `text` for `model` (o200k for the GPT-4o generation onwards, cl100k otherwise).
 * Counts the first {@link MAX_EXACT_CHARS} characters exactly and extrapolates the rest, so a
 * huge input cannot stall the event loop.
 */
export function countTextTokens(text: string, model: string): number {
  return createTokenCounter(model).count(text);
}
