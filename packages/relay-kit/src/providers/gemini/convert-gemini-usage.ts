import { createUsage, toCount, type Usage } from '../../spec/usage.js';
import { type GeminiUsageMetadata, isRecord } from './gemini-api.js';

/**
 * Converts Gemini `usageMetadata` to {@link Usage}: input total = `promptTokenCount` (it includes
 * cached tokens), cache read = `cachedContentTokenCount`, output total = `candidatesTokenCount` +
 * `thoughtsTokenCount` (Gemini counts thoughts apart from the answer), reasoning =
 * `thoughtsTokenCount`. `undefined` for a missing or non-object value.
 */
export function convertGeminiUsage(raw: unknown): Usage | undefined {
  if (!isRecord(raw)) return undefined;
  const metadata = raw as GeminiUsageMetadata;
  const thoughts = toCount(metadata.thoughtsTokenCount);
  return createUsage({
    inputTotal: toCount(metadata.promptTokenCount) + toCount(metadata.toolUsePromptTokenCount),
    cacheRead: toCount(metadata.cachedContentTokenCount),
    outputTotal: toCount(metadata.candidatesTokenCount) + thoughts,
    reasoning: thoughts,
    raw,
  });
}

/**
 * Reads the usage of a complete Gemini response body from its text: the last `usageMetadata`
 * object (found without parsing the whole body when possible). `undefined` when there is none.
 */
export function readGeminiUsageFromText(text: string): Usage | undefined {
  const keyIndex = text.lastIndexOf('"usageMetadata"');
  if (keyIndex === -1) return undefined;
  const start = text.indexOf('{', keyIndex);
  if (start !== -1) {
    const end = findObjectEnd(text, start);
    if (end !== -1) {
      try {
        return convertGeminiUsage(JSON.parse(text.slice(start, end + 1)));
      } catch {
        // Fall through to the full parse.
      }
    }
  }
  try {
    const body: unknown = JSON.parse(text);
    const last = Array.isArray(body) ? body.at(-1) : body;
    return isRecord(last) ? convertGeminiUsage(last.usageMetadata) : undefined;
  } catch {
    return undefined;
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
    } else if (char === 123 /* { */) {
      depth++;
    } else if (char === 125 /* } */) {
      depth--;
      if (depth === 0) return index;
    }
  }
  return -1;
}
