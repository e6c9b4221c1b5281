import { describe, expect, it } from 'vitest';
import {
  cleanupPacingFromEnv,
  DEFAULT_CLEANUP_PACING,
  fixedPacing,
  nextBatchSize,
  PacedBatches,
  pauseAfter,
} from './cleanup-pacing.ts';

describe('cleanup pacing', () => {
  it('uses the defaults when nothing is set', () => {
    expect(cleanupPacingFromEnv({})).toEqual(DEFAULT_CLEANUP_PACING);
  });

  it('reads every setting; the first batch never exceeds the most', () => {
    expect(
      cleanupPacingFromEnv({
        LOG_CLEANUP_BATCH_SIZE: '50',
        LOG_CLEANUP_BATCH_MS: '5',
        LOG_CLEANUP_PAUSE_MS: '0',
        LOG_CLEANUP_SHARE: '25',
      }),
    ).toEqual({ batchSize: 50, firstBatch: 50, batchMs: 5, pauseMs: 0, sharePercent: 25 });
  });

  it.each([
    ['LOG_CLEANUP_BATCH_SIZE', '5'],
    ['LOG_CLEANUP_BATCH_SIZE', '10001'],
    ['LOG_CLEANUP_BATCH_MS', '0'],
    ['LOG_CLEANUP_PAUSE_MS', '-1'],
    ['LOG_CLEANUP_SHARE', '101'],
    ['LOG_CLEANUP_SHARE', 'half'],
  ])('refuses %s=%s', (name, value) => {
    expect(() => cleanupPacingFromEnv({ [name]: value })).toThrow(name);
  });

  it('halves a slow batch, doubles a quick one, within 10 rows and the most', () => {
    const pacing = { ...DEFAULT_CLEANUP_PACING, batchSize: 1000, batchMs: 10 };
    expect(nextBatchSize(pacing, 400, 25)).toBe(200);
    expect(nextBatchSize(pacing, 15, 25)).toBe(10);
    expect(nextBatchSize(pacing, 400, 2)).toBe(800);
    expect(nextBatchSize(pacing, 800, 2)).toBe(1000);
    expect(nextBatchSize(pacing, 400, 7)).toBe(400);
  });

  it('rests long enough to keep clean-up within its share of the time', () => {
    const pacing = { ...DEFAULT_CLEANUP_PACING, pauseMs: 20, sharePercent: 10 };
    expect(pauseAfter(pacing, 10)).toBe(90);
    expect(pauseAfter(pacing, 1)).toBe(20);
    expect(pauseAfter({ ...pacing, sharePercent: 50 }, 30)).toBe(30);
  });

  it('keeps a fixed pacing fixed', () => {
    const pacing = fixedPacing(25, 0);
    expect(nextBatchSize(pacing, 25, 10_000)).toBe(25);
    expect(pauseAfter(pacing, 10_000)).toBe(0);
  });

  it('grows after a quick batch only when told it was full; shrinks after a slow one regardless', async () => {
    const pacing = { batchSize: 1000, firstBatch: 100, batchMs: 1, pauseMs: 0, sharePercent: 10 };
    const batches = new PacedBatches({ ...pacing, batchMs: 10_000 });
    await batches.time(
      async () => 3,
      (rows) => rows >= 100,
    );
    expect(batches.size).toBe(100);
    await batches.time(
      async () => 100,
      (rows) => rows >= 100,
    );
    expect(batches.size).toBe(200);
    const slow = new PacedBatches(pacing);
    await slow.time(
      () => new Promise((resolve) => setTimeout(resolve, 20)),
      () => false,
    );
    expect(slow.size).toBe(50);
    expect(slow.pauseMs()).toBeGreaterThanOrEqual(9 * 15);
  });
});
