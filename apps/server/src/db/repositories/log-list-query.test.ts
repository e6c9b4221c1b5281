import { describe, expect, it } from 'vitest';
import {
  asciiLower,
  namesContaining,
  REQUEST_ID_AFTER,
  requestIdSecond,
  requestIdWindow,
} from './log-list-query.ts';

describe('log list query helpers', () => {
  it('matches model names by substring, ignoring ASCII case only', () => {
    const names = ['GPT-4o', 'gpt-4o-mini', 'claude', 'Ünïcode-X'];
    expect(namesContaining(names, 'gpt-4O')).toEqual(['GPT-4o', 'gpt-4o-mini']);
    expect(namesContaining(names, 'x')).toEqual(['Ünïcode-X']);
    expect(namesContaining(names, 'ünï')).toEqual([]);
    expect(asciiLower('ÄBC')).toBe('Äbc');
  });

  it('reads the UTC second a request id begins with', () => {
    expect(requestIdSecond('20200913122640123456789abcdefgh')).toBe(1_600_000_000);
    expect(requestIdSecond('20200913122640')).toBe(1_600_000_000);
    expect(requestIdSecond('2020091312264')).toBeNull();
    expect(requestIdSecond('20201301000000x')).toBeNull();
    expect(requestIdSecond('20200230000000x')).toBeNull();
    expect(requestIdSecond('20200101250000x')).toBeNull();
    expect(requestIdSecond('custom-id')).toBeNull();
  });

  it('looks for a request from a minute before its time to an hour after', () => {
    expect(requestIdWindow('20200913122640abc')).toEqual({
      start: 1_600_000_000 - 60,
      end: 1_600_000_000 + REQUEST_ID_AFTER,
    });
    expect(requestIdWindow('abc')).toBeNull();
  });
});
