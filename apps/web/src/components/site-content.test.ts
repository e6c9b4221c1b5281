import { describe, expect, it } from 'vitest';
import { isEmbeddableUrl } from './site-content';

describe('isEmbeddableUrl', () => {
  it.each([
    ['https://example.com', true],
    ['http://example.com/page?x=1', true],
    ['  https://example.com/  ', true],
    ['HTTPS://EXAMPLE.COM', true],
    ['', false],
    ['# Title', false],
    ['see https://example.com', false],
    ['https://example.com\n\nmore text', false],
    ['javascript:alert(1)', false],
    ['ftp://example.com', false],
  ])('%j → %s', (value, expected) => {
    expect(isEmbeddableUrl(value)).toBe(expected);
  });
});
