import o200k from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { shareOneFastShape } from '../testing/hidden-class.js';
import { countTextTokens, createTokenCounter, MAX_EXACT_CHARS } from './token-counter.js';
import { countEncodedTokens, encodingForModel } from './tokenizer.js';

describe('encodingForModel', () => {
  it.each([
    ['gpt-4o', 'o200k_base'],
    ['gpt-4o-mini-2024-07-18', 'o200k_base'],
    ['chatgpt-4o-latest', 'o200k_base'],
    ['o1-preview', 'o200k_base'],
    ['o3-mini', 'o200k_base'],
    ['o4-mini', 'o200k_base'],
    ['gpt-4.1-nano', 'o200k_base'],
    ['gpt-5', 'o200k_base'],
    ['GPT-5-mini', 'o200k_base'],
    ['gpt-4', 'cl100k_base'],
    ['gpt-4-turbo', 'cl100k_base'],
    ['gpt-3.5-turbo', 'cl100k_base'],
    ['claude-3-5-sonnet', 'cl100k_base'],
    ['deepseek-chat', 'cl100k_base'],
  ])('%s → %s', (model, encoding) => {
    expect(encodingForModel(model)).toBe(encoding);
  });
});

describe('countTextTokens', () => {
  it('counts with the model encoding', () => {
    expect(countTextTokens('', 'gpt-4o')).toBe(0);
    expect(countTextTokens('hello world', 'gpt-4o')).toBe(2);
    expect(countTextTokens('hello world', 'gpt-4')).toBe(2);
    // The encodings differ on CJK text.
    expect(countTextTokens('你好世界，这是一个测试。', 'gpt-4o')).not.toBe(
      countTextTokens('你好世界，这是一个测试。', 'gpt-4'),
    );
  });

  it('counts special-token text as plain text instead of throwing', () => {
    expect(countTextTokens('a <|endoftext|> b', 'gpt-4o')).toBeGreaterThan(3);
  });

  it('splits pathological runs so a long word cannot stall the event loop', () => {
    for (const text of [
      'a'.repeat(200_000),
      ' '.repeat(100_000),
      '你'.repeat(100_000),
      '😀'.repeat(50_000),
    ]) {
      const start = performance.now();
      const tokens = countTextTokens(text, 'gpt-4o');
      expect(performance.now() - start).toBeLessThan(2000);
      expect(tokens).toBeGreaterThan(0);
    }
    expect(countTextTokens('a'.repeat(200_000), 'gpt-4o')).toBe(25_000);
    // Text made of short words is counted exactly; long runs change by a token or two per piece.
    const prose = 'The quick brown fox jumps over the lazy dog. '.repeat(50);
    expect(countEncodedTokens('o200k_base', prose)).toBe(o200k.countTokens(prose));
    const withUrl = `see https://example.com/${'segment/'.repeat(60)}index.html for details`;
    const exact = o200k.countTokens(withUrl);
    const pieces = Math.ceil(withUrl.length / 128);
    expect(Math.abs(countEncodedTokens('o200k_base', withUrl) - exact)).toBeLessThanOrEqual(2 * pieces);
  });

  it('extrapolates beyond the exact budget, close to the real count and fast', () => {
    const unit = 'Switchyard relays requests to many upstream providers. ';
    const text = unit.repeat(Math.ceil((MAX_EXACT_CHARS * 5) / unit.length));
    const exactPerUnit = countTextTokens(unit.repeat(100), 'gpt-4o') / 100;
    const start = performance.now();
    const tokens = countTextTokens(text, 'gpt-4o');
    expect(performance.now() - start).toBeLessThan(1000);
    const expected = (exactPerUnit * text.length) / unit.length;
    expect(Math.abs(tokens - expected) / expected).toBeLessThan(0.02);
  });

  it('shares one budget across the texts of a counter', () => {
    const counter = createTokenCounter('gpt-4o', 20);
    expect(counter.count('hello world')).toBe(2);
    expect(counter.estimated).toBe(false);
    expect(counter.count('hello world hello world')).toBeGreaterThan(0);
    expect(counter.estimated).toBe(true);
    // Beyond the budget: tokens-per-character ratio of what was counted.
    expect(counter.count('x'.repeat(110))).toBeGreaterThan(0);
  });
});

describe('createTokenCounter shape', () => {
  it('gives every counter one fast hidden class (no per-counter accessor)', () => {
    const counters = [
      createTokenCounter('gpt-4o'),
      createTokenCounter('gpt-4'),
      createTokenCounter('gpt-4o', 3),
    ];
    counters[2]?.count('more than three characters');
    expect(counters[2]?.estimated).toBe(true);
    expect(counters[0]?.estimated).toBe(false);
    expect(shareOneFastShape(...counters)).toBe(true);
  });
});
