import { describe, expect, it } from 'vitest';
import { aggregateRows, type RollupSourceRow } from './aggregate-rows.ts';
import { DAY, HOUR, ROLLUP_GRAINS } from './rollup-grains.ts';

const row = (id: number, created_at: number, over: Partial<RollupSourceRow> = {}): RollupSourceRow => ({
  id,
  created_at,
  type: 2,
  user_id: 7,
  username: 'ann',
  token_name: 't1',
  model_name: 'gpt-4o',
  channel_id: 3,
  group: 'default',
  quota: 100,
  prompt_tokens: 10,
  completion_tokens: 5,
  ...over,
});

describe('aggregateRows', () => {
  it('sums rows of one bucket into one increment per grain and span', () => {
    const increments = aggregateRows([row(1, DAY + 10), row(2, DAY + 20, { quota: 50, prompt_tokens: 1 })]);
    const spans = ROLLUP_GRAINS.reduce((n, grain) => n + grain.spans.length, 0);
    expect(increments).toHaveLength(spans);
    for (const increment of increments) {
      expect(increment).toMatchObject({ count: 2, quota: 150, prompt_tokens: 11, completion_tokens: 10 });
      expect(increment.bucket).toBe(DAY);
    }
  });

  it('blanks the columns a grain does not keep and splits the ones it does', () => {
    const increments = aggregateRows([row(1, 5 * HOUR + 1), row(2, 6 * HOUR + 1, { model_name: 'claude' })]);
    const models = increments
      .filter((i) => i.grain === 2 && i.span === HOUR)
      .sort((a, b) => a.bucket - b.bucket);
    expect(models.map((i) => [i.bucket, i.model_name, i.user_id, i.token_name, i.count])).toEqual([
      [5 * HOUR, 'gpt-4o', 0, '', 1],
      [6 * HOUR, 'claude', 0, '', 1],
    ]);
    const totals = increments.filter((i) => i.grain === 1 && i.span === DAY);
    expect(totals).toEqual([
      expect.objectContaining({
        bucket: 0,
        model_name: '',
        username: '',
        channel_id: 0,
        group: '',
        count: 2,
      }),
    ]);
    const full = increments
      .filter((i) => i.grain === 6)
      .sort((a, b) => a.model_name.localeCompare(b.model_name));
    expect(
      full.map((i) => [i.user_id, i.username, i.token_name, i.model_name, i.channel_id, i.group]),
    ).toEqual([
      [7, 'ann', 't1', 'claude', 3, 'default'],
      [7, 'ann', 't1', 'gpt-4o', 3, 'default'],
    ]);
  });

  it('keeps types apart and answers nothing for no rows', () => {
    const increments = aggregateRows([row(1, 0), row(2, 0, { type: 1 })]);
    expect(
      increments
        .filter((i) => i.grain === 1 && i.span === HOUR)
        .map((i) => [i.type, i.count])
        .sort((a, b) => a[0]! - b[0]!),
    ).toEqual([
      [1, 1],
      [2, 1],
    ]);
    expect(aggregateRows([])).toEqual([]);
  });
});
