import { describe, expect, it } from 'vitest';
import type { NewLog } from '../../db/repositories/log-repository.ts';
import { LOG_COLUMNS, logValues, runLogRow } from './log-values.ts';

describe('logValues', () => {
  it("gives the insert every column: the row's own values, else the time and the defaults", () => {
    const full = {
      type: 2,
      user_id: 7,
      username: 'alice',
      token_id: 3,
      token_name: 'ci',
      model_name: 'gpt-4o-mini',
      quota: 1234,
      prompt_tokens: 20,
      completion_tokens: 9,
      use_time: 1,
      is_stream: 1,
      channel_id: 4,
      group: 'vip',
      ip: '10.0.0.1',
      content: '模型倍率 0.08',
      other: '{"frt":12}',
      created_at: 1_700_000_000,
    } as NewLog;
    const sparse = { type: 2, user_id: 7, quota: 5 } as NewLog;
    const row = full as Record<string, unknown>;
    expect(logValues(full, 1_800_000_000)).toEqual(LOG_COLUMNS.map((column) => row[column]));
    // The stamp wins over the settlement time; a missing one takes it.
    expect(logValues(full, 9)[1]).toBe(1_700_000_000);
    expect(logValues(sparse, 9)).toEqual([7, 9, 2, null, '', '', '', 5, 0, 0, 0, 0, 0, 0, '', '', null]);
  });
});

describe('runLogRow', () => {
  it('hands the statement every value as its own argument, in order', () => {
    const values = LOG_COLUMNS.map((column, index) => `${index}:${column}`);
    const calls: unknown[][] = [];
    runLogRow({ run: (...args: unknown[]) => calls.push(args) }, values);
    expect(calls).toEqual([values]);
  });

  it('refuses a row with a value missing rather than binding it short', () => {
    const run = () => runLogRow({ run: () => undefined }, LOG_COLUMNS.slice(1));
    expect(run).toThrow(/17 values, got 16/);
  });
});
