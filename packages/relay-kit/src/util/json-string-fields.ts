/**
 * Visits one string-valued field found by {@link scanStringFields}: the key spans
 * `payload[keyStart, keyEnd)` (quotes excluded), the value's literal spans `valueQuote..valueClose`
 * (both quotes included; decode it with {@link decodeJsonString}). `depth` is 1 for the fields of
 * the outermost object and grows by one per enclosing object or array. Answer true to stop.
 */
export type StringFieldVisitor = (
  keyStart: number,
  keyEnd: number,
  valueQuote: number,
  valueClose: number,
  depth: number,
) => boolean | undefined;

const QUOTE = 34;
const COLON = 58;
const BACKSLASH = 92;

/**
 * Reads the string-valued fields of a JSON text in one left-to-right pass without `JSON.parse`:
 * it hops from string literal to string literal with `indexOf('"')`, counts brackets in the gaps
 * between literals for the depth, and hands each `"key": "value"` pair to `visit`. Fields whose
 * values are numbers, literals, objects or arrays are not reported (their own fields are).
 *
 * Correctness rests on JSON's grammar: a `"` that is not escaped always opens or closes a string,
 * so hopping between unescaped quotes visits exactly the string literals, brackets outside them
 * are structure, and a literal followed by `:` is a key. The text is not validated: a caller that
 * must tell broken JSON apart checks it another way (a full parse when in doubt).
 */
export function scanStringFields(payload: string, visit: StringFieldVisitor): void {
  let position = 0;
  let depth = 0;
  for (;;) {
    const open = payload.indexOf('"', position);
    if (open === -1) return;
    for (let index = position; index < open; index++) {
      const code = payload.charCodeAt(index);
      if (code === 123 /* { */ || code === 91 /* [ */) depth++;
      else if (code === 125 /* } */ || code === 93 /* ] */) depth--;
    }
    const close = findClosingQuote(payload, open);
    if (close === -1) return;
    let cursor = skipSpace(payload, close + 1);
    if (payload.charCodeAt(cursor) !== COLON) {
      // A string in an array (or garbage): skip it.
      position = close + 1;
      continue;
    }
    cursor = skipSpace(payload, cursor + 1);
    if (payload.charCodeAt(cursor) !== QUOTE) {
      // Objects, arrays, numbers, literals: the gap scan counts their brackets.
      position = cursor;
      continue;
    }
    const valueClose = findClosingQuote(payload, cursor);
    if (valueClose === -1) return;
    if (visit(open + 1, close, cursor, valueClose, depth) === true) return;
    position = valueClose + 1;
  }
}

/** Whether `payload[start, end)` is exactly `name`. */
export function spanEquals(payload: string, start: number, end: number, name: string): boolean {
  return end - start === name.length && payload.startsWith(name, start);
}

/**
 * Decodes the string literal spanning `quote..close` (both quotes included): a slice when it has no
 * escapes, otherwise `JSON.parse` of the literal; undefined when an escape is invalid.
 */
export function decodeJsonString(payload: string, quote: number, close: number): string | undefined {
  let escaped = false;
  for (let index = quote + 1; index < close; index++) {
    if (payload.charCodeAt(index) === BACKSLASH) {
      escaped = true;
      break;
    }
  }
  if (!escaped) return payload.slice(quote + 1, close);
  try {
    return JSON.parse(payload.slice(quote, close + 1)) as string;
  } catch {
    return undefined;
  }
}

/** Index of the unescaped `"` closing the literal that opens at `open`; -1 if unterminated. */
export function findClosingQuote(payload: string, open: number): number {
  let close = payload.indexOf('"', open + 1);
  while (close !== -1 && payload.charCodeAt(close - 1) === BACKSLASH) {
    let backslashes = 1;
    while (payload.charCodeAt(close - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) break;
    close = payload.indexOf('"', close + 1);
  }
  return close;
}

/** True when the text's last non-blank character is `}` (a cheap check before trusting a scan). */
export function endsLikeObject(text: string): boolean {
  for (let index = text.length - 1; index >= 0; index--) {
    const code = text.charCodeAt(index);
    if (code === 32 || code === 9 || code === 13 || code === 10) continue;
    return code === 125;
  }
  return false;
}

function skipSpace(payload: string, cursor: number): number {
  let char = payload.charCodeAt(cursor);
  while (char === 32 || char === 9 || char === 10 || char === 13) char = payload.charCodeAt(++cursor);
  return cursor;
}
