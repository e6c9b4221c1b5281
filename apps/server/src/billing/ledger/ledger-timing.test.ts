import { describe, expect, it } from 'vitest';
import { DEFAULT_LEDGER_TIMING, ledgerTimingFromEnv } from './ledger-timing.ts';

describe('ledgerTimingFromEnv', () => {
  it('uses the defaults when nothing is set and reads each setting', () => {
    expect(ledgerTimingFromEnv({})).toEqual(DEFAULT_LEDGER_TIMING);
    expect(
      ledgerTimingFromEnv({
        SETTLEMENT_FLUSH_MS: '50',
        SETTLEMENT_BATCH_SIZE: '10',
      }),
    ).toMatchObject({ flushMs: 50, batchSize: 10 });
    expect(ledgerTimingFromEnv({ LEDGER_ORPHAN_AFTER_MS: '60000' }).orphanAfterMs).toBe(60_000);
  });

  it('refuses values that are not whole numbers, and a dead-after time within two heartbeats', () => {
    expect(() => ledgerTimingFromEnv({ SETTLEMENT_FLUSH_MS: '-1' })).toThrow(/SETTLEMENT_FLUSH_MS/);
    expect(() => ledgerTimingFromEnv({ SETTLEMENT_FLUSH_MS: 'many' })).toThrow(/SETTLEMENT_FLUSH_MS/);
    expect(() => ledgerTimingFromEnv({ SETTLEMENT_BATCH_SIZE: '0' })).toThrow(/SETTLEMENT_BATCH_SIZE/);
    expect(() => ledgerTimingFromEnv({ LEDGER_ORPHAN_AFTER_MS: '0' })).toThrow(/LEDGER_ORPHAN_AFTER_MS/);
    expect(() => ledgerTimingFromEnv({ NODE_HEARTBEAT_MS: '1000', NODE_DEAD_AFTER_MS: '2000' })).toThrow(
      /NODE_DEAD_AFTER_MS/,
    );
  });
});
