import { describe, expect, it } from 'vitest';
import { deletedAtSeconds, deletedAtStyles, deletedAtValue } from './soft-delete.ts';

describe('deleted_at in either form', () => {
  it('reads numbers, Dates and Go time text as Unix seconds', () => {
    expect(deletedAtSeconds(null)).toBeNull();
    expect(deletedAtSeconds(1_700_000_000)).toBe(1_700_000_000);
    expect(deletedAtSeconds('1700000000')).toBe(1_700_000_000);
    expect(deletedAtSeconds(new Date('2025-02-10T00:31:02Z'))).toBe(
      Date.parse('2025-02-10T00:31:02Z') / 1000,
    );
    expect(deletedAtSeconds('2025-02-10 08:31:02.123456789+08:00')).toBe(
      Date.parse('2025-02-10T00:31:02Z') / 1000,
    );
    expect(deletedAtSeconds('2025-02-10 00:31:02')).toBe(Date.parse('2025-02-10T00:31:02Z') / 1000);
    expect(deletedAtSeconds('garbage')).toBe(0);
  });

  it('writes the column in its own form, and reads back what it wrote', () => {
    expect(deletedAtValue('seconds', 'sqlite', 1_700_000_000)).toBe(1_700_000_000);
    const sqlite = deletedAtValue('datetime', 'sqlite', 1_700_000_000);
    expect(sqlite).toBe('2023-11-14 22:13:20.000+00:00');
    expect(deletedAtValue('datetime', 'mysql', 1_700_000_000)).toBe('2023-11-14 22:13:20.000');
    expect(deletedAtValue('datetime', 'postgres', 1_700_000_000)).toBe('2023-11-14T22:13:20.000Z');
    expect(deletedAtSeconds(sqlite)).toBe(1_700_000_000);
  });

  it('tells datetime columns from integer ones', () => {
    expect(
      deletedAtStyles({ users: 'datetime', tokens: 'timestamp with time zone', redemptions: 'bigint' }),
    ).toEqual({
      users: 'datetime',
      tokens: 'datetime',
      redemptions: 'seconds',
    });
    expect(deletedAtStyles({}).users).toBe('seconds');
  });
});
