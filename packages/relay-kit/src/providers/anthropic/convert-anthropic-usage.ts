import { createUsage, toCount, type Usage } from '../../spec/usage.js';
import type { AnthropicUsageWire } from './anthropic-api.js';

/**
 * Converts an Anthropic `usage` object to {@link Usage}. Anthropic's `input_tokens` excludes
 * cached tokens, so the input total is `input + cache_read + cache_creation` and `uncached` is
 * `input_tokens`. `undefined` when `raw` is not an object.
 */
export function convertAnthropicUsage(raw: unknown): Usage | undefined {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined;
  const usage = raw as AnthropicUsageWire;
  const cacheRead = toCount(usage.cache_read_input_tokens);
  const cacheWrite = toCount(usage.cache_creation_input_tokens);
  return createUsage({
    inputTotal: toCount(usage.input_tokens) + cacheRead + cacheWrite,
    cacheRead,
    cacheWrite,
    outputTotal: toCount(usage.output_tokens),
    raw,
  });
}

/**
 * Merges the usage of a stream: `message_start` carries the input side (and a first output
 * count), `message_delta` the final output count (and, from newer API versions, the input side
 * again). A later count replaces an earlier one only when it is positive, as new-api does.
 */
export class AnthropicStreamUsage {
  private readonly counts: Required<{ [K in keyof AnthropicUsageWire]: number }> = {
    input_tokens: 0,
    output_tokens: 0,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
  };
  private seen = false;

  /** Applies the `usage` of `message_start` (every field) or `message_delta` (positive fields). */
  apply(raw: unknown, fromStart: boolean): void {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return;
    const usage = raw as AnthropicUsageWire;
    this.seen = true;
    for (const key of Object.keys(this.counts) as Array<keyof AnthropicUsageWire>) {
      const value = toCount(usage[key]);
      if (fromStart || value > 0) this.counts[key] = value;
    }
  }

  /** The merged usage, or `undefined` before any usage was seen. */
  result(): Usage | undefined {
    return this.seen ? convertAnthropicUsage({ ...this.counts }) : undefined;
  }
}

/** Reads the usage of a complete Anthropic message body (text or parsed). */
export function readAnthropicBodyUsage(body: unknown): Usage | undefined {
  let value = body;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value) as unknown;
    } catch {
      return undefined;
    }
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as { usage?: unknown; message?: { usage?: unknown } };
  return convertAnthropicUsage(record.usage ?? record.message?.usage);
}
