import { describe, expect, it } from 'vitest';
import { rollupTimingFor } from './log-rollup-job.ts';

describe('rollupTimingFor', () => {
  it('waits for late commits on PostgreSQL and MySQL only; SQLite rests after each large batch', () => {
    expect(rollupTimingFor('sqlite', {})).toMatchObject({ batchRows: 20_000, pauseMs: 1000, settleMs: 0 });
    expect(rollupTimingFor('postgres', {})).toMatchObject({ batchRows: 5000, settleMs: 30_000 });
    expect(rollupTimingFor('mysql', {}).settleMs).toBe(30_000);
  });

  it('reads the environment and refuses what is not a whole number in range', () => {
    expect(
      rollupTimingFor('mysql', { LOG_ROLLUP_SETTLE_MS: '0', LOG_ROLLUP_BATCH_ROWS: '10' }),
    ).toMatchObject({
      settleMs: 0,
      batchRows: 10,
    });
    expect(() => rollupTimingFor('sqlite', { LOG_ROLLUP_BATCH_ROWS: '0' })).toThrow(/LOG_ROLLUP_BATCH_ROWS/);
    expect(() => rollupTimingFor('sqlite', { LOG_ROLLUP_PAUSE_MS: '1.5' })).toThrow(/LOG_ROLLUP_PAUSE_MS/);
    expect(() => rollupTimingFor('sqlite', { LOG_ROLLUP_SETTLE_MS: '-1' })).toThrow(/LOG_ROLLUP_SETTLE_MS/);
  });
});
