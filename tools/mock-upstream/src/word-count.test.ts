import { describe, expect, it } from 'vitest';
import { countWords, groupPieces, splitIntoWordPieces } from './word-count.ts';

describe('countWords', () => {
  it('counts runs of non-whitespace', () => {
    expect(countWords('')).toBe(0);
    expect(countWords('   ')).toBe(0);
    expect(countWords('hello')).toBe(1);
    expect(countWords('  hello \n\t world  ')).toBe(2);
    expect(countWords('你好世界 ok')).toBe(2);
  });
});

describe('splitIntoWordPieces', () => {
  it('keeps the leading whitespace with each word so the pieces join back', () => {
    expect(splitIntoWordPieces('Hello from  mock')).toEqual(['Hello', ' from', '  mock']);
    expect(splitIntoWordPieces('  a b ')).toEqual(['  a', ' b']);
    expect(splitIntoWordPieces('')).toEqual([]);
  });
});

describe('groupPieces', () => {
  it('regroups pieces into the requested number of chunks', () => {
    const pieces = ['a', ' b', ' c', ' d', ' e'];
    expect(groupPieces(pieces, 2)).toEqual(['a b', ' c d e']);
    expect(groupPieces(pieces, 5)).toEqual(pieces);
    expect(groupPieces(pieces, 1)).toEqual(['a b c d e']);
  });
});
