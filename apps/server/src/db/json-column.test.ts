import { describe, expect, it } from 'vitest';
import { readJsonColumn } from './json-column.ts';

describe('readJsonColumn', () => {
  it('reads text, BLOBs and parsed values alike', () => {
    expect(readJsonColumn('{"a":1}')).toEqual({ a: 1 });
    expect(readJsonColumn(Buffer.from('[1,2]'))).toEqual([1, 2]);
    expect(readJsonColumn([{ id: 'x' }])).toEqual([{ id: 'x' }]);
    expect(readJsonColumn('')).toBeNull();
    expect(readJsonColumn(null)).toBeNull();
    expect(readJsonColumn('{broken')).toBeNull();
  });
});
