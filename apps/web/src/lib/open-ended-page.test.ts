import { describe, expect, it } from 'vitest';
import { openEndedTotal } from './open-ended-page';

describe('openEndedTotal', () => {
  it('offers the next page after a full page and stops after a short one', () => {
    expect(openEndedTotal(1, 10, 10)).toBe(20);
    expect(openEndedTotal(3, 10, 10)).toBe(40);
    expect(openEndedTotal(3, 10, 4)).toBe(24);
    expect(openEndedTotal(1, 10, 0)).toBe(0);
  });
});
