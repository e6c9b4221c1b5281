import { describe, expect, it } from 'vitest';
import { lookUpPrice, type Price, type PriceTables } from '../../billing/pricing/price-book.ts';
import { formatLogOther, type LogOtherFields } from './log-other.ts';

/** The object the consoles read, stringified the plain way: what formatLogOther must equal. */
function stringified(f: LogOtherFields): string {
  const other: Record<string, unknown> = {
    frt: f.frt,
    model_ratio: f.price.modelRatio,
    group_ratio: f.price.groupRatio,
    completion_ratio: f.price.completionRatio,
    model_price: f.price.modelPrice ?? -1,
    cache_tokens: f.cacheTokens,
    cache_ratio: f.price.cacheRatio,
    cache_creation_tokens: f.cacheCreationTokens,
    cache_creation_ratio: f.price.cacheCreationRatio,
    group: f.group,
    request_id: f.requestId,
    reserved_quota: f.reservedQuota,
    usage_source: f.usageSource,
    admin_info: { use_channel: f.attempts.map(String) },
  };
  if (f.upstreamModelName !== undefined) {
    other.is_model_mapped = true;
    other.upstream_model_name = f.upstreamModelName;
  }
  if (f.reasoningEffort !== undefined) other.reasoning_effort = f.reasoningEffort;
  return JSON.stringify(other);
}

/** A price as the price book builds it, with fields overridden for the odd cases. */
const TABLES: PriceTables = {
  modelRatio: { 'gpt-4o-mini': 0.075 },
  modelPrice: {},
  completionRatio: { 'gpt-4o-mini': 4 },
  cacheRatio: { 'gpt-4o-mini': 0.5 },
  groupRatio: { default: 1 },
};
const price = (overrides: Partial<Price> = {}): Price => ({
  ...lookUpPrice(TABLES, 'gpt-4o-mini', 'default', false)!,
  ...overrides,
});

const base = (overrides: Partial<LogOtherFields> = {}): LogOtherFields => ({
  price: price(),
  frt: -1000,
  cacheTokens: 0,
  cacheCreationTokens: 0,
  group: 'default',
  requestId: '20261128163000123456abcdefgh',
  reservedQuota: 2000,
  usageSource: 'upstream',
  attempts: [1],
  ...overrides,
});

describe('formatLogOther', () => {
  it.each<[string, Partial<LogOtherFields>]>([
    ['a plain non-stream call', {}],
    [
      'a stream with its first-response time and cache tokens',
      { frt: 812, cacheTokens: 120, cacheCreationTokens: 7 },
    ],
    [
      'a fixed model price and odd ratios',
      { price: price({ modelPrice: 0.02, groupRatio: 0.3, modelRatio: 1e-7 }) },
    ],
    [
      'ratios that are not finite',
      { price: price({ modelRatio: Number.NaN, completionRatio: Number.POSITIVE_INFINITY }) },
    ],
    ['negative zero and large numbers', { frt: -0, reservedQuota: 2 ** 53 - 1, cacheTokens: 1e21 }],
    ['a group and request id that need escaping', { group: 'vip "gold"\\\n组', requestId: 'id\u2028\u0001' }],
    ['several channels tried, locally counted', { attempts: [3, 17, 4], usageSource: 'local' }],
    ['a mapped model', { upstreamModelName: 'gpt-4o-mini-2024-07-18 "x"' }],
    ['a reasoning effort', { reasoningEffort: 'high' }],
    ['all the optional fields', { upstreamModelName: 'm', reasoningEffort: 'low' }],
  ])('writes what JSON.stringify would for %s', (_name, overrides) => {
    const fields = base(overrides);
    expect(formatLogOther(fields)).toBe(stringified(fields));
    // Twice: the second call reads the price's cached part.
    expect(formatLogOther(fields)).toBe(stringified(fields));
    expect(() => JSON.parse(formatLogOther(fields))).not.toThrow();
  });

  it('keeps one price part per price object', () => {
    const cheap = base({ price: price({ modelRatio: 0.1 }) });
    const dear = base({ price: price({ modelRatio: 15 }) });
    expect(JSON.parse(formatLogOther(cheap)).model_ratio).toBe(0.1);
    expect(JSON.parse(formatLogOther(dear)).model_ratio).toBe(15);
    expect(JSON.parse(formatLogOther(cheap)).model_ratio).toBe(0.1);
  });
});
