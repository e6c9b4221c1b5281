import { describe, expect, it } from 'vitest';
import { maskSensitive } from './mask-sensitive.js';

describe('maskSensitive', () => {
  it('masks URLs, keys, bearer tokens and addresses', () => {
    expect(maskSensitive('see https://api.example.com/v1/x?key=abc.')).toBe('see [url].');
    expect(maskSensitive('key sk-proj-abcdefgh1234 rejected')).toBe('key [secret] rejected');
    expect(maskSensitive('AIzaSyA1234567890abcdefghijklmnop is invalid')).toBe('[secret] is invalid');
    expect(maskSensitive('Authorization: Bearer abcdefghijkl')).toBe('Authorization: [secret]');
    expect(maskSensitive('connect to 192.168.1.20:8080 failed')).toBe('connect to [address] failed');
  });

  it('leaves ordinary text alone', () => {
    const text = "This model's maximum context length is 128000 tokens (gpt-4o, v1.2).";
    expect(maskSensitive(text)).toBe(text);
  });
});
