/**
 * Token usage reported by an upstream, normalised so billing can price every provider the same
 * way (shape follows the vercel/ai V3 usage object).
 *
 * Every count is a non-negative integer; a count the provider did not report is 0. The input
 * split always satisfies `total = uncached + cacheRead + cacheWrite`, whatever convention the
 * provider uses (OpenAI's `prompt_tokens` includes cached tokens, Anthropic's `input_tokens`
 * excludes them), so billing never has to know which provider it came from.
 */
export interface Usage {
  readonly inputTokens: {
    /** All prompt tokens, cached or not. */
    readonly total: number;
    /** Prompt tokens billed at the normal input price. */
    readonly uncached: number;
    /** Prompt tokens served from the provider's prompt cache (cheaper). */
    readonly cacheRead: number;
    /** Prompt tokens written to the provider's prompt cache (Anthropic charges extra). */
    readonly cacheWrite: number;
    /** Audio prompt tokens, included in `total` (audio models price them separately). */
    readonly audio: number;
  };
  readonly outputTokens: {
    /** All completion tokens, reasoning included. */
    readonly total: number;
    /** Completion tokens spent on hidden reasoning, included in `total`. */
    readonly reasoning: number;
    /** Audio completion tokens, included in `total`. */
    readonly audio: number;
  };
  /** The provider's own usage object, kept for logs and for fields not modelled here. */
  readonly raw?: unknown;
}

/** Input accepted by {@link createUsage}; omitted counts are 0. */
export interface UsageInit {
  inputTotal?: number;
  cacheRead?: number;
  cacheWrite?: number;
  inputAudio?: number;
  outputTotal?: number;
  reasoning?: number;
  outputAudio?: number;
  raw?: unknown;
}

/**
 * Builds a {@link Usage} from plain counts. Invalid counts (negative, NaN, non-numbers) become 0,
 * fractions are rounded, and the cache split is clamped so `uncached` is never negative.
 */
export function createUsage(init: UsageInit): Usage {
  const inputTotal = toCount(init.inputTotal);
  const cacheRead = Math.min(toCount(init.cacheRead), inputTotal);
  const cacheWrite = Math.min(toCount(init.cacheWrite), inputTotal - cacheRead);
  const outputTotal = toCount(init.outputTotal);
  return {
    inputTokens: {
      total: inputTotal,
      uncached: inputTotal - cacheRead - cacheWrite,
      cacheRead,
      cacheWrite,
      audio: Math.min(toCount(init.inputAudio), inputTotal),
    },
    outputTokens: {
      total: outputTotal,
      reasoning: Math.min(toCount(init.reasoning), outputTotal),
      audio: Math.min(toCount(init.outputAudio), outputTotal),
    },
    raw: init.raw,
  };
}

/** True when the usage carries no tokens at all (new-api treats this as "no usage"). */
export function isEmptyUsage(usage: Usage): boolean {
  return usage.inputTokens.total === 0 && usage.outputTokens.total === 0;
}

/** Coerces a provider-reported count into a non-negative integer. */
export function toCount(value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) return 0;
  return Math.round(value);
}
