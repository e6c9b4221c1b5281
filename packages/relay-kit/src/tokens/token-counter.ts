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

/**
 * A counter's state in a class: its `estimated` accessor lives on the prototype. (An object
 * literal with a getter gets a hidden class of its own per counter, kept in old space until a full
 * collection, and with it everything the getter's closure reaches.)
 */
class BudgetedTokenCounter implements TokenCounter {
  private remaining: number;
  private exactChars = 0;
  private exactTokens = 0;
  private extrapolated = false;

  constructor(
    private readonly encoding: TokenEncodingName,
    maxExactChars: number,
  ) {
    this.remaining = maxExactChars;
  }

  get estimated(): boolean {
    return this.extrapolated;
  }

  count(text: string): number {
    const length = text.length;
    if (length === 0) return 0;
    if (length <= this.remaining) {
      const tokens = countEncodedTokens(this.encoding, text);
      this.remaining -= length;
      this.exactChars += length;
      this.exactTokens += tokens;
      return tokens;
    }
    this.extrapolated = true;
    if (this.remaining <= 0) return Math.ceil(length * this.ratio());
    let cut = this.remaining;
    // Do not split a surrogate pair.
    const code = text.charCodeAt(cut - 1);
    if (code >= 0xd800 && code <= 0xdbff) cut--;
    const headTokens = countEncodedTokens(this.encoding, text.slice(0, cut));
    this.remaining = 0;
    this.exactChars += cut;
    this.exactTokens += headTokens;
    return headTokens + Math.ceil((length - cut) * this.ratio());
  }

  private ratio(): number {
    return this.exactChars > 0 ? this.exactTokens / this.exactChars : DEFAULT_TOKENS_PER_CHAR;
  }
}

/** Creates a {@link TokenCounter} for `model` with a budget of `maxExactChars` characters. */
export function createTokenCounter(model: string, maxExactChars: number = MAX_EXACT_CHARS): TokenCounter {
  return new BudgetedTokenCounter(encodingForModel(model), maxExactChars);
}

/**
 * Tokens of `text` for `model` (o200k for the GPT-4o generation onwards, cl100k otherwise).
 * Counts the first {@link MAX_EXACT_CHARS} characters exactly and extrapolates the rest, so a
 * huge input cannot stall the event loop.
 */
export function countTextTokens(text: string, model: string): number {
  return createTokenCounter(model).count(text);
}
