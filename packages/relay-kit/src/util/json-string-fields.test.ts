import { describe, expect, it } from 'vitest';
import {
  decodeJsonString,
  endsLikeObject,
  findClosingQuote,
  scanStringFields,
  spanEquals,
} from './json-string-fields.js';

/** Every string field the scan reports, decoded: [depth, key, value]. */
function fields(payload: string, stopAtKey?: string): Array<[number, string, string | undefined]> {
  const seen: Array<[number, string, string | undefined]> = [];
  scanStringFields(payload, (keyStart, keyEnd, valueQuote, valueClose, depth) => {
    const key = payload.slice(keyStart, keyEnd);
    seen.push([depth, key, decodeJsonString(payload, valueQuote, valueClose)]);
    return key === stopAtKey;
  });
  return seen;
}

describe('scanStringFields', () => {
  it('reports string fields with their depth and skips other values', () => {
    const payload = JSON.stringify({
      type: 'a',
      index: 0,
      ok: true,
      none: null,
      delta: { text: 'hi', list: ['x', { inner: 'y' }], n: 1.5 },
      after: 'z',
    });
    expect(fields(payload)).toEqual([
      [1, 'type', 'a'],
      [2, 'text', 'hi'],
      [4, 'inner', 'y'],
      [1, 'after', 'z'],
    ]);
  });

  it('is not fooled by brackets, quotes and key-like text inside strings', () => {
    const payload = JSON.stringify({ a: '{"b":"c"} ] [', d: { e: 'say \\"x\\": "y"' }, f: 'g' });
    expect(fields(payload)).toEqual([
      [1, 'a', '{"b":"c"} ] ['],
      [2, 'e', 'say \\"x\\": "y"'],
      [1, 'f', 'g'],
    ]);
  });

  it('handles whitespace around colons and values', () => {
    expect(fields('{ "a" :\n "b" , "c"\t:\t{ "d" : "e" } }')).toEqual([
      [1, 'a', 'b'],
      [2, 'd', 'e'],
    ]);
  });

  it('stops when the visitor answers true', () => {
    expect(fields('{"a":"1","b":"2","c":"3"}', 'b')).toEqual([
      [1, 'a', '1'],
      [1, 'b', '2'],
    ]);
  });

  it('stops quietly at an unterminated string', () => {
    expect(fields('{"a":"1","b":"unterminated')).toEqual([[1, 'a', '1']]);
    expect(fields('{"a":"1","unterminated')).toEqual([[1, 'a', '1']]);
  });
});

describe('decodeJsonString', () => {
  it('slices a literal without escapes and parses one with escapes', () => {
    const payload = '{"a":"plain","b":"t\\u00e9\\n\\"q\\""}';
    const plainQuote = payload.indexOf('"plain"');
    expect(decodeJsonString(payload, plainQuote, plainQuote + 6)).toBe('plain');
    const escapedQuote = payload.indexOf('"t');
    expect(decodeJsonString(payload, escapedQuote, payload.length - 2)).toBe('té\n"q"');
  });

  it('answers undefined for an invalid escape', () => {
    expect(decodeJsonString('"bad \\x"', 0, 7)).toBeUndefined();
  });
});

describe('findClosingQuote', () => {
  it('skips escaped quotes and stops after an escaped backslash', () => {
    expect(findClosingQuote('"a\\"b"', 0)).toBe(5);
    expect(findClosingQuote('"a\\\\"b"', 0)).toBe(4);
    expect(findClosingQuote('"never', 0)).toBe(-1);
  });
});

describe('spanEquals and endsLikeObject', () => {
  it('compares a span with a name exactly', () => {
    expect(spanEquals('xtypey', 1, 5, 'type')).toBe(true);
    expect(spanEquals('xtypesy', 1, 6, 'type')).toBe(false);
    expect(spanEquals('xtyp', 1, 4, 'type')).toBe(false);
  });

  it('accepts a trailing brace followed by blanks only', () => {
    expect(endsLikeObject('{"a":1} \r\n')).toBe(true);
    expect(endsLikeObject('{"a":1')).toBe(false);
    expect(endsLikeObject('')).toBe(false);
  });
});
