import { describe, expect, it } from 'vitest';
import { createRequestId } from './request-id.ts';

describe('createRequestId', () => {
  it('forms yyyyMMddHHmmss, three millisecond and six sub-millisecond digits, then 8 random characters', () => {
    const day = () => new Date().toISOString().replace(/[-:T]/g, '').slice(0, 8);
    const before = day();
    const ids = Array.from({ length: 2000 }, () => createRequestId());
    for (const id of ids) expect(id).toMatch(/^\d{14}\d{3}\d{6}[a-zA-Z0-9]{8}$/);
    expect([before, day()]).toContain(ids[0]!.slice(0, 8));
    expect(new Set(ids).size).toBe(ids.length);
  });
});
