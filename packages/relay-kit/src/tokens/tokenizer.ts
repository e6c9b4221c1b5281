import { createRequire } from 'node:module';

/** The BPE encodings Switchyard counts with. */
export type TokenEncodingName = 'o200k_base' | 'cl100k_base';

interface Encoding {
  countTokens(text: string, options?: { disallowedSpecial?: Set<string> }): number;
}

/** Models counted with `o200k_base` (by prefix); everything else uses `cl100k_base`. */
const O200K_PREFIXES = [
  'gpt-4o',
  'chatgpt-4o',
  'gpt-4.1',
  'gpt-4.5',
  'gpt-5',
  'gpt-oss',
  'o1',
  'o3',
  'o4',
  'codex',
] as const;

/**
 * The encoding for a model: `o200k_base` for the GPT-4o generation onwards (gpt-4o*, o1*, o3*,
 * o4*, gpt-4.1*, gpt-4.5*, gpt-5*), `cl100k_base` otherwise. For non-OpenAI models the count is
 * an estimate either way (new-api's known limitation); cl100k is the conventional choice.
 */
export function encodingForModel(model: string): TokenEncodingName {
  const name = model.toLowerCase();
  for (const prefix of O200K_PREFIXES) if (name.startsWith(prefix)) return 'o200k_base';
  return 'cl100k_base';
}

// Encoders are loaded synchronously on first use (o200k takes ~150 ms and ~30 MB; cl100k ~65 ms)
// so a process that never counts never pays for them. `require` keeps counting synchronous;
// call `preloadTokenizers` at startup to move the cost out of the first request.
const requireModule = createRequire(import.meta.url);
const loaded = new Map<TokenEncodingName, Encoding>();

function loadEncoding(name: TokenEncodingName): Encoding {
  let encoding = loaded.get(name);
  if (encoding === undefined) {
    encoding = requireModule(`gpt-tokenizer/cjs/encoding/${name}`) as Encoding;
    loaded.set(name, encoding);
  }
  return encoding;
}

/** Loads the encoders for the given models (default: both) so the first count is not slow. */
export function preloadTokenizers(models: readonly string[] = ['gpt-4o', 'gpt-4']): void {
  for (const model of models) loadEncoding(encodingForModel(model));
}

/** Special-token text (`<|endoftext|>`) in user input is counted as plain text, never rejected. */
const COUNT_OPTIONS = { disallowedSpecial: new Set<string>() };

/** Longest run of non-space (or space) characters encoded as one piece. */
const MAX_RUN = 128;
const LONG_RUN = /\S{128,}|\s{128,}/g;
const HAS_LONG_RUN = /\S{128}|\s{128}/;

/**
 * Counts the tokens of `text` exactly, except that runs of 128+ characters without whitespace (or
 * of whitespace only) are counted in 128-character pieces. BPE cost grows much faster than
 * linearly with the length of one pre-token: 200k repeated letters took 26 s in one piece (the
 * stall of new-api #1295) and take 10 ms in pieces, while the count changes by a token or two per
 * piece boundary.
 */
export function countEncodedTokens(encoding: TokenEncodingName, text: string): number {
  if (text.length === 0) return 0;
  const encoder = loadEncoding(encoding);
  if (text.length < MAX_RUN || !HAS_LONG_RUN.test(text)) return encoder.countTokens(text, COUNT_OPTIONS);
  let total = 0;
  let last = 0;
  for (const match of text.matchAll(LONG_RUN)) {
    const start = match.index;
    if (start > last) total += encoder.countTokens(text.slice(last, start), COUNT_OPTIONS);
    const end = start + match[0].length;
    let pieceStart = start;
    while (pieceStart < end) {
      let pieceEnd = Math.min(pieceStart + MAX_RUN, end);
      // Do not split a surrogate pair.
      if (pieceEnd < end && isHighSurrogate(text.charCodeAt(pieceEnd - 1)) && pieceEnd - 1 > pieceStart)
        pieceEnd--;
      total += encoder.countTokens(text.slice(pieceStart, pieceEnd), COUNT_OPTIONS);
      pieceStart = pieceEnd;
    }
    last = end;
  }
  if (last < text.length) total += encoder.countTokens(text.slice(last), COUNT_OPTIONS);
  return total;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
