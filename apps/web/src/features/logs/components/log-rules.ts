/** Log types (spec §4): 1 top-up, 2 consumption, 3 management, 4 system; 5 error (server extension). */
export const LOG_TYPES = [
  { value: 0, key: 'all' },
  { value: 1, key: 'topup' },
  { value: 2, key: 'consume' },
  { value: 3, key: 'manage' },
  { value: 4, key: 'system' },
] as const;

export const LOG_TYPE_COLORS: Record<number, string> = {
  1: 'cyan',
  2: 'green',
  3: 'orange',
  4: 'purple',
  5: 'red',
};

/** Channel, token, model and billing details apply only to types 0 and 2. */
export const hasBillingDetails = (type: number): boolean => type === 0 || type === 2;

export type TimingColor = 'green' | 'orange' | 'red';

/** Total latency (seconds): green under 101 s, orange under 300 s, red above. */
export function latencyColor(seconds: number): TimingColor {
  if (seconds < 101) return 'green';
  if (seconds < 300) return 'orange';
  return 'red';
}

/** First-word delay (seconds): green under 3 s, orange under 10 s, red above. */
export function firstWordColor(seconds: number): TimingColor {
  if (seconds < 3) return 'green';
  if (seconds < 10) return 'orange';
  return 'red';
}

/** The parsed `other` JSON of a log row (every field optional). */
export interface LogOther {
  frt?: number;
  is_model_mapped?: boolean;
  upstream_model_name?: string;
  model_ratio?: number;
  model_price?: number;
  completion_ratio?: number;
  group_ratio?: number;
  cache_tokens?: number;
  cache_ratio?: number;
  audio?: boolean;
  audio_input?: number;
  audio_output?: number;
  audio_ratio?: number;
  audio_completion_ratio?: number;
  reasoning_effort?: string;
  group?: string;
  admin_info?: { use_channel?: Array<string | number> };
}

/**
 * Parses a row's `other`. Unparseable text is only logged to the console (spec §8) and the row
 * is shown without its details (so the group is omitted).
 */
export function parseLogOther(other: string): LogOther | null {
  if (!other) return null;
  try {
    const value: unknown = JSON.parse(other);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as LogOther) : null;
  } catch (error) {
    console.error('failed to parse log details', other, error);
    return null;
  }
}

/** The channels a request tried, in order (admin_info.use_channel), or [] when there is one or none. */
export function retryPath(other: LogOther | null): string[] {
  const channels = other?.admin_info?.use_channel ?? [];
  return channels.length > 1 ? channels.map(String) : [];
}

export interface BillingBreakdown {
  perCall: boolean;
  /** Dollars per 1M prompt tokens (ratio billing) or per call. */
  promptPrice: number;
  /** Dollars per 1M completion tokens (ratio billing). */
  completionPrice: number;
  /** The dollars charged according to the formula. */
  total: number;
}

const finite = (value: unknown, fallback: number): number =>
  typeof value === 'number' && Number.isFinite(value) ? value : fallback;

/**
 * The billing formula of a consumption row: per call, price × group ratio; by tokens, the prompt
 * price per 1M tokens is model ratio × 2 × group ratio and the completion price that times the
 * completion ratio. Null when the row carries no ratios.
 */
export function billingBreakdown(
  other: LogOther | null,
  promptTokens: number,
  completionTokens: number,
): BillingBreakdown | null {
  if (!other) return null;
  const groupRatio = finite(other.group_ratio, 1);
  const modelPrice = finite(other.model_price, -1);
  if (modelPrice >= 0) {
    const price = modelPrice * groupRatio;
    return { perCall: true, promptPrice: price, completionPrice: 0, total: price };
  }
  if (typeof other.model_ratio !== 'number') return null;
  const promptPrice = other.model_ratio * 2 * groupRatio;
  const completionPrice = promptPrice * finite(other.completion_ratio, 1);
  const total = (promptTokens * promptPrice + completionTokens * completionPrice) / 1_000_000;
  return { perCall: false, promptPrice, completionPrice, total };
}
