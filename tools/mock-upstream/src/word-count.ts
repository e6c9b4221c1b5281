/**
 * The mock's token arithmetic. Every count the mock reports is a word count, so tests can compute
 * the expected usage (and billing) by hand. A word is a maximal run of characters that are not
 * ASCII whitespace (space, tab, line feed, vertical tab, form feed, carriage return).
 */

/** True for the ASCII whitespace characters that separate words. */
export function isWordSeparator(code: number): boolean {
  return code === 32 || (code >= 9 && code <= 13);
}

/** Counts the whitespace-separated words of `text`. */
export function countWords(text: string): number {
  let words = 0;
  let inWord = false;
  for (let index = 0; index < text.length; index++) {
    if (isWordSeparator(text.charCodeAt(index))) {
      inWord = false;
    } else if (!inWord) {
      inWord = true;
      words++;
    }
  }
  return words;
}

/**
 * Splits `text` into one piece per word, each piece carrying the whitespace that precedes its word
 * (`"Hello from mock"` → `["Hello", " from", " mock"]`), so joining the pieces gives the text back
 * without its trailing whitespace. These pieces are the stream's default content chunks.
 */
export function splitIntoWordPieces(text: string): string[] {
  const pieces: string[] = [];
  let start = 0;
  let inWord = false;
  for (let index = 0; index < text.length; index++) {
    const separator = isWordSeparator(text.charCodeAt(index));
    if (separator && inWord) {
      pieces.push(text.slice(start, index));
      start = index;
      inWord = false;
    } else if (!separator) {
      inWord = true;
    }
  }
  if (inWord) pieces.push(text.slice(start));
  return pieces;
}

/**
 * Regroups word pieces into exactly `count` chunks of near-equal size (the caller pads the text
 * first when it has fewer words than chunks).
 */
export function groupPieces(pieces: readonly string[], count: number): string[] {
  if (count >= pieces.length) return pieces.slice();
  const chunks: string[] = [];
  for (let chunk = 0; chunk < count; chunk++) {
    const from = Math.floor((chunk * pieces.length) / count);
    const to = Math.floor(((chunk + 1) * pieces.length) / count);
    chunks.push(pieces.slice(from, to).join(''));
  }
  return chunks;
}
