import { describe, expect, it } from 'vitest';
import { rollupTimingFor } from './rollup-timing.ts';

describe('rollupTimingFor', () => {
  it('waits for late commits on PostgreSQL and MySQL only; SQLite batches are short and take a fifth of the time', () => {
    expect(rollupTimingFor('sqlite', {})).toMatchObject({
      pacing: { batchMs: 25, sharePercent: 20 },
      settleMs: 0,
    });
    expect(rollupTimingFor('postgres', {}).settleMs).toBe(30_000);
    expect(rollupTimingFor('mysql', {}).settleMs).toBe(30_000);
  });

  it('reads the environment: a full-duty catch-up, and a first batch never above the most', () => {
    expect(
      rollupTimingFor('sqlite', {
        LOG_ROLLUP_SHARE: '100',
        LOG_ROLLUP_PAUSE_MS: '0',
        LOG_ROLLUP_BATCH_MS: '1000',
        LOG_ROLLUP_BATCH_ROWS: '40',
        LOG_ROLLUP_IDLE_MS: '50',
      }),
    ).toEqual({
      pacing: { batchSize: 40, firstBatch: 40, batchMs: 1000, pauseMs: 0, sharePercent: 100 },
      idleMs: 50,
      settleMs: 0,
    });
    expect(rollupTimingFor('mysql', { LOG_ROLLUP_SETTLE_MS: '0' }).settleMs).toBe(0);
  });

  it.each([
    ['LOG_ROLLUP_BATCH_ROWS', '0'],
    ['LOG_ROLLUP_BATCH_MS', '0'],
    ['LOG_ROLLUP_PAUSE_MS', '1.5'],
    ['LOG_ROLLUP_SHARE', '101'],
    ['LOG_ROLLUP_IDLE_MS', '0'],
    ['LOG_ROLLUP_SETTLE_MS', '-1'],
  ])('refuses %s=%s', (name, value) => {
    expect(() => rollupTimingFor('sqlite', { [name]: value })).toThrow(name);
  });
});
