import { describe, expect, it } from 'vitest';
import { HOURLY, slotOfQuery, slotStart } from './quota-data-slots.ts';

describe('dashboard slots', () => {
  it('asks for local days only with day or week and a valid offset', () => {
    expect(slotOfQuery('day', 480)).toEqual({ kind: 'day', offsetSeconds: 28_800 });
    expect(slotOfQuery('week', -300)).toEqual({ kind: 'day', offsetSeconds: -18_000 });
    expect(slotOfQuery('day', 0)).toEqual({ kind: 'day', offsetSeconds: 0 });
    expect(slotOfQuery('hour', 480)).toBe(HOURLY);
    expect(slotOfQuery(undefined, 480)).toBe(HOURLY);
    // new-api's console sends default_time without an offset: it sums hours itself.
    expect(slotOfQuery('day', undefined)).toBe(HOURLY);
    expect(slotOfQuery('day', 'abc')).toBe(HOURLY);
    expect(slotOfQuery('day', 841)).toBe(HOURLY);
    expect(slotOfQuery('day', -721)).toBe(HOURLY);
    expect(slotOfQuery('day', 30.5)).toBe(HOURLY);
  });

  it('puts an hour in the local day it starts in', () => {
    // 2025-03-09T15:00Z is 23:00 on the 9th at +08:00, 16:00Z is 00:00 on the 10th.
    const utcMidnight = Date.UTC(2025, 2, 9) / 1000;
    const plus8 = slotOfQuery('day', 480);
    expect(slotStart(utcMidnight + 15 * 3600, plus8)).toBe(utcMidnight - 8 * 3600);
    expect(slotStart(utcMidnight + 16 * 3600, plus8)).toBe(utcMidnight + 16 * 3600);
    // At −05:00 the local day of the 9th starts at 05:00Z.
    const minus5 = slotOfQuery('day', -300);
    expect(slotStart(utcMidnight + 4 * 3600, minus5)).toBe(utcMidnight - 19 * 3600);
    expect(slotStart(utcMidnight + 5 * 3600, minus5)).toBe(utcMidnight + 5 * 3600);
    // Half-hour offsets: the day starts at 18:30Z the evening before.
    const india = slotOfQuery('day', 330);
    expect(slotStart(utcMidnight + 18 * 3600, india)).toBe(utcMidnight - 5.5 * 3600);
    expect(slotStart(utcMidnight + 19 * 3600, india)).toBe(utcMidnight + 18.5 * 3600);
    expect(slotStart(utcMidnight + 7 * 3600, HOURLY)).toBe(utcMidnight + 7 * 3600);
  });
});
