import { describe, expect, it } from 'vitest';
import { cleanupPacingFromEnv, DEFAULT_CLEANUP_PACING } from './cleanup-pacing.ts';

describe('cleanupPacingFromEnv', () => {
  it('uses the defaults when nothing is set', () => {
    expect(cleanupPacingFromEnv({})).toEqual(DEFAULT_CLEANUP_PACING);
  });

  it('reads both settings', () => {
    expect(cleanupPacingFromEnv({ LOG_CLEANUP_BATCH_SIZE: '2000', LOG_CLEANUP_PAUSE_MS: '0' })).toEqual({
      batchSize: 2000,
      pauseMs: 0,
    });
  });

  it.each([
    ['LOG_CLEANUP_BATCH_SIZE', '5'],
    ['LOG_CLEANUP_BATCH_SIZE', '1.5'],
    ['LOG_CLEANUP_PAUSE_MS', '-1'],
    ['LOG_CLEANUP_PAUSE_MS', 'soon'],
  ])('refuses %s=%s', (name, value) => {
    expect(() => cleanupPacingFromEnv({ [name]: value })).toThrow(name);
  });
});
