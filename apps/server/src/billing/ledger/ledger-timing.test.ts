import { describe, expect, it } from 'vitest';
import { DEFAULT_LEDGER_TIMING, ledgerTimingFromEnv } from './ledger-timing.ts';

describe('ledgerTimingFromEnv', () => {
  it('uses the defaults when nothing is set and reads each setting', () => {
    expect(ledgerTimingFromEnv({})).toEqual(DEFAULT_LEDGER_TIMING);
    expect(
      ledgerTimingFromEnv({
        SETTLEMENT_FLUSH_MS: '50',
        SETTLEMENT_BATCH_SIZE: '10',
        SETTLE_IN_PLACE_FROM: '0',
      }),
    ).toMatchObject({ flushMs: 50, batchSize: 10, settleInPlaceFrom: 0 });
    expect(ledgerTimingFromEnv({ SETTLE_IN_PLACE_FROM: ' 1 ' }).settleInPlaceFrom).toBe(1);
    expect(ledgerTimingFromEnv({ LEDGER_ORPHAN_AFTER_MS: '60000' }).orphanAfterMs).toBe(60_000);
  });

  it('refuses values that are not whole numbers, and a dead-after time within two heartbeats', () => {
    expect(() => ledgerTimingFromEnv({ SETTLE_IN_PLACE_FROM: '-1' })).toThrow(/SETTLE_IN_PLACE_FROM/);
    expect(() => ledgerTimingFromEnv({ SETTLE_IN_PLACE_FROM: 'many' })).toThrow(/SETTLE_IN_PLACE_FROM/);
    expect(() => ledgerTimingFromEnv({ SETTLEMENT_BATCH_SIZE: '0' })).toThrow(/SETTLEMENT_BATCH_SIZE/);
    expect(() => ledgerTimingFromEnv({ LEDGER_ORPHAN_AFTER_MS: '0' })).toThrow(/LEDGER_ORPHAN_AFTER_MS/);
    expect(() => ledgerTimingFromEnv({ NODE_HEARTBEAT_MS: '1000', NODE_DEAD_AFTER_MS: '2000' })).toThrow(
      /NODE_DEAD_AFTER_MS/,
    );
  });
});
