import { describe, expect, it } from 'vitest';
import { AhoCorasick } from './aho-corasick.ts';

describe('AhoCorasick', () => {
  it('finds every pattern, overlapping and nested, case-insensitively', () => {
    const matcher = new AhoCorasick(['he', 'she', 'his', 'hers', 'Test_Sensitive', '敏感词']);
    expect(matcher.findAll('ushers')).toEqual(['she', 'he', 'hers']);
    expect(matcher.findAll('a TEST_SENSITIVE word')).toEqual(['test_sensitive']);
    expect(matcher.findAll('这是敏感词测试')).toEqual(['敏感词']);
    expect(matcher.findAll('nothing to see')).toEqual([]);
  });

  it('ignores blank and duplicate lines', () => {
    const matcher = new AhoCorasick(['', '  ', 'abc', 'ABC']);
    expect(matcher.patterns).toEqual(['abc']);
    expect(new AhoCorasick([]).isEmpty).toBe(true);
  });

  it('agrees with a naive search on random inputs', () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const alphabet = 'abcab';
    const word = (length: number) =>
      Array.from({ length }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
    for (let round = 0; round < 200; round++) {
      const words = Array.from({ length: 5 }, () => word(1 + Math.floor(random() * 4)));
      const text = word(30);
      const matcher = new AhoCorasick(words);
      const expected = matcher.patterns.filter((pattern) => text.includes(pattern));
      expect(new Set(matcher.findAll(text, 100))).toEqual(new Set(expected));
    }
  });

  it('finds words among characters no word starts with (the start state skips them)', () => {
    const matcher = new AhoCorasick(['敏感', 'Bad', 'dx']);
    expect(matcher.findAll('这是一段 很 敏感 的 text with BAD words, ADX')).toEqual(['敏感', 'bad', 'dx']);
    expect(matcher.findAll('敏 感 b a d x')).toEqual([]);
    // A partial match that fails on a character no word starts with goes back to the start.
    expect(matcher.findAll('ba?bad')).toEqual(['bad']);
  });

  it('handles 10,000 words on a 4 kB prompt', () => {
    const words = Array.from({ length: 10_000 }, (_, i) => `forbidden${i}x`);
    const matcher = new AhoCorasick(words);
    const prompt = 'lorem ipsum dolor sit amet '.repeat(150) + ' forbidden4242x';
    expect(matcher.findAll(prompt)).toEqual(['forbidden4242x']);
  });
});
