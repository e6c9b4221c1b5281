import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LedgerRetries } from './ledger-retries.ts';

function recordingLog() {
  const lines: string[] = [];
  return {
    lines,
    log: {
      error: (_: unknown, message: string) => lines.push(`error ${message}`),
      warn: (_: unknown, message: string) => lines.push(`warn ${message}`),
      info: (_: unknown, message: string) => lines.push(`info ${message}`),
    } as never,
  };
}

describe('LedgerRetries', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('waits longer after each failure, repeats the last wait, and stops once the step succeeds', async () => {
    const { log, lines } = recordingLog();
    const retries = new LedgerRetries(log, [100, 200, 500]);
    const at: number[] = [];
    let failures = 4;
    const done = vi.fn();
    const start = Date.now();
    retries.add(
      'row-1',
      'settlement',
      new Error('down'),
      async () => {
        at.push(Date.now() - start);
        if (failures-- > 0) throw new Error('still down');
      },
      done,
    );
    expect(retries.size).toBe(1);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(at).toEqual([100, 300, 800, 1_300, 1_800]);
    expect(done).toHaveBeenCalledOnce();
    expect(retries.size).toBe(0);
    expect(lines).toEqual([
      'error settlement failed; it is retried while this process runs (the reservation stays held meanwhile)',
      'info settlement retried and written',
    ]);
  });

  it('keeps one retry per ledger row and warns every tenth failed attempt', async () => {
    const { log, lines } = recordingLog();
    const retries = new LedgerRetries(log, [10]);
    const attempt = vi.fn(async () => {
      throw new Error('down');
    });
    retries.add('row-1', 'refund', new Error('down'), attempt, () => undefined);
    retries.add('row-1', 'refund', new Error('down'), attempt, () => undefined);
    expect(retries.size).toBe(1);
    await vi.advanceTimersByTimeAsync(205);
    expect(attempt).toHaveBeenCalledTimes(20);
    expect(lines.filter((line) => line.startsWith('warn'))).toEqual([
      'warn refund still failing; retrying',
      'warn refund still failing; retrying',
    ]);
    expect(lines.filter((line) => line.startsWith('error'))).toHaveLength(1);
  });

  it('stops every retry at shutdown and only logs steps that fail afterwards', async () => {
    const { log, lines } = recordingLog();
    const retries = new LedgerRetries(log, [10]);
    const attempt = vi.fn(async () => undefined);
    retries.add('row-1', 'refund', new Error('down'), attempt, () => undefined);
    retries.stop();
    retries.add('row-2', 'settlement', new Error('down'), attempt, () => undefined);
    await vi.advanceTimersByTimeAsync(100);
    expect(attempt).not.toHaveBeenCalled();
    expect(retries.size).toBe(0);
    expect(lines.at(-1)).toBe(
      'error settlement failed at shutdown; the reservation is reconciled once this process is gone',
    );
  });
});
