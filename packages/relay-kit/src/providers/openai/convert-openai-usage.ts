import { createUsage, toCount, type Usage } from '../../spec/usage.js';
import type { OpenAIUsage } from './openai-api.js';

/**
 * Converts an OpenAI `usage` object to {@link Usage}. `prompt_tokens` includes cached tokens;
 * the cache split comes from `prompt_tokens_details.cached_tokens`, or DeepSeek's
 * `prompt_cache_hit_tokens`. Returns `undefined` for a missing or null usage, or one that is not
 * an object; a usage with all-zero counts is returned as is (callers decide what zero means).
 */
export function convertOpenAIUsage(raw: unknown): Usage | undefined {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined;
  const usage = raw as OpenAIUsage;
  const promptDetails = usage.prompt_tokens_details ?? undefined;
  const completionDetails = usage.completion_tokens_details ?? undefined;
  const cacheHit = toCount(usage.prompt_cache_hit_tokens);
  const cacheRead = toCount(promptDetails?.cached_tokens) || cacheHit;
  let inputTotal = toCount(usage.prompt_tokens);
  // Some compatible upstreams only send the DeepSeek split.
  if (inputTotal === 0) inputTotal = cacheHit + toCount(usage.prompt_cache_miss_tokens);
  const outputTotal = toCount(usage.completion_tokens);
  // Embeddings and a few compatible upstreams report only total_tokens.
  if (inputTotal === 0 && outputTotal === 0) inputTotal = toCount(usage.total_tokens);
  return createUsage({
    inputTotal,
    cacheRead,
    cacheWrite: toCount(promptDetails?.cache_write_tokens),
    inputAudio: toCount(promptDetails?.audio_tokens),
    outputTotal,
    reasoning: toCount(completionDetails?.reasoning_tokens),
    outputAudio: toCount(completionDetails?.audio_tokens),
    raw,
  });
}

/**
 * Reads the usage of a complete OpenAI response body from its text without parsing the whole body
 * (an embeddings response can be megabytes of floats; `usage` sits at the end): finds the last
 * `"usage"` key and parses only its object. Falls back to parsing the whole body. `undefined` when
 * the body has no usage.
 */
export function readOpenAIUsageFromText(text: string): Usage | undefined {
  const keyIndex = text.lastIndexOf('"usage"');
  if (keyIndex === -1) return undefined;
  let start = keyIndex + 7;
  let char = text.charCodeAt(start);
  while (char === 32 || char === 9 || char === 10 || char === 13) char = text.charCodeAt(++start);
  if (char === 58 /* : */) {
    char = text.charCodeAt(++start);
    while (char === 32 || char === 9 || char === 10 || char === 13) char = text.charCodeAt(++start);
    if (char === 123 /* { */) {
      // Usage objects hold numbers and objects of numbers: the braces alone find the end (indexOf
      // runs at memchr speed, a character loop took ~8x longer). JSON.parse accepts the slice only
      // when it is exactly one object, so a brace inside a string, which misplaces the end, fails
      // the parse and the exact scan that skips strings is tried.
      const end = findBracesEnd(text, start);
      const usage = end === -1 ? undefined : parseSlice(text, start, end);
      if (usage !== undefined) return convertOpenAIUsage(usage);
      const exactEnd = findObjectEnd(text, start);
      if (exactEnd !== -1 && exactEnd !== end) {
        const exact = parseSlice(text, start, exactEnd);
        if (exact !== undefined) return convertOpenAIUsage(exact);
      }
    } else if (text.startsWith('null', start)) {
      return undefined;
    }
  }
  try {
    const body = JSON.parse(text) as { usage?: unknown };
    return convertOpenAIUsage(body?.usage);
  } catch {
    return undefined;
  }
}

/** The JSON value of `text` from `start` to `end` inclusive; undefined when it is not JSON. */
function parseSlice(text: string, start: number, end: number): unknown {
  try {
    return JSON.parse(text.slice(start, end + 1)) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Index of the `}` that balances the `{` at `start`, counting braces only (a brace inside a string
 * counts too: callers check the slice); -1 if none.
 */
export function findBracesEnd(text: string, start: number): number {
  let depth = 1;
  let from = start + 1;
  let open = text.indexOf('{', from);
  for (;;) {
    const close = text.indexOf('}', from);
    if (close === -1) return -1;
    while (open !== -1 && open < close) {
      depth++;
      open = text.indexOf('{', open + 1);
    }
    depth--;
    if (depth === 0) return close;
    from = close + 1;
  }
}

/** Index of the `}` closing the object that opens at `start`, skipping strings; -1 if none. */
function findObjectEnd(text: string, start: number): number {
  let depth = 0;
  for (let index = start; index < text.length; index++) {
    const char = text.charCodeAt(index);
    if (char === 34 /* " */) {
      index++;
      while (index < text.length) {
        const inner = text.charCodeAt(index);
        if (inner === 92 /* \ */) index += 2;
        else if (inner === 34) break;
        else index++;
      }
    } else if (char === 123) {
      depth++;
    } else if (char === 125 /* } */) {
      depth--;
      if (depth === 0) return index;
    }
  }
  return -1;
}
