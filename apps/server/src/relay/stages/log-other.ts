import type { Price } from '../../billing/pricing/price-book.ts';
import { jsonNumber, priceTextsOf } from './price-texts.ts';

/** What a consume log row's `other` column records beyond its price. */
export interface LogOtherFields {
  price: Price;
  /** Milliseconds to the first streamed event (-1000 for non-stream). */
  frt: number;
  cacheTokens: number;
  cacheCreationTokens: number;
  group: string;
  requestId: string;
  reservedQuota: number;
  usageSource: 'upstream' | 'local';
  /** Channel ids tried, in order. */
  attempts: readonly number[];
  /** The model the upstream was asked for, when the channel maps it to another name. */
  upstreamModelName?: string;
  reasoningEffort?: string;
}

/**
 * The `other` column of a consume log row, as JSON text: the same text JSON.stringify gives for
 * the object new-api's consoles read (keys in the same order), written directly with the price's
 * ratios kept as text per price, which costs about a third of building the object and
 * stringifying it on every settlement (1.1 against 2.9 µs).
 */
export function formatLogOther(f: LogOtherFields): string {
  const texts = priceTextsOf(f.price);
  let text =
    `{"frt":${jsonNumber(f.frt)},${texts.ratios},"cache_tokens":${jsonNumber(f.cacheTokens)},` +
    `"cache_ratio":${texts.cacheRatio},"cache_creation_tokens":${jsonNumber(f.cacheCreationTokens)},` +
    `"cache_creation_ratio":${texts.cacheCreationRatio},"group":${JSON.stringify(f.group)},` +
    `"request_id":${JSON.stringify(f.requestId)},"reserved_quota":${jsonNumber(f.reservedQuota)},` +
    `"usage_source":"${f.usageSource}","admin_info":{"use_channel":${JSON.stringify(f.attempts.map(String))}}`;
  if (f.upstreamModelName !== undefined) {
    text += `,"is_model_mapped":true,"upstream_model_name":${JSON.stringify(f.upstreamModelName)}`;
  }
  if (f.reasoningEffort !== undefined) text += `,"reasoning_effort":${JSON.stringify(f.reasoningEffort)}`;
  return `${text}}`;
}
