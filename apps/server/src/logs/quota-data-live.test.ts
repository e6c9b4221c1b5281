import type { QuotaDataRow } from '@switchyard/shared';
import { describe, expect, it } from 'vitest';
import { unflushedWhere, withUnflushedRows, withUnflushedSums } from './quota-data-live.ts';
import type { QuotaDataIncrement } from './quota-data-repository.ts';

const row = (over: Partial<QuotaDataRow>): QuotaDataRow => ({
  id: 1,
  user_id: 1,
  username: 'ann',
  model_name: 'gpt',
  created_at: 3600,
  token_used: 10,
  count: 1,
  quota: 100,
  ...over,
});
const inc = (over: Partial<QuotaDataIncrement>): QuotaDataIncrement => ({
  userId: 1,
  username: 'ann',
  modelName: 'gpt',
  createdAt: 3600,
  count: 2,
  quota: 50,
  tokenUsed: 5,
  ...over,
});

describe('the dashboard with unflushed increments', () => {
  it('adds an increment to the written row of its bucket and adds new buckets in order', () => {
    const merged = withUnflushedRows(
      [row({}), row({ id: 2, created_at: 7200 })],
      [inc({}), inc({ modelName: 'claude', createdAt: 7200 }), inc({ createdAt: 0 })],
    );
    expect(merged.map((r) => [r.id, r.created_at, r.model_name, r.count, r.quota, r.token_used])).toEqual([
      [0, 0, 'gpt', 2, 50, 5],
      [1, 3600, 'gpt', 3, 150, 15],
      [0, 7200, 'claude', 2, 50, 5],
      [2, 7200, 'gpt', 1, 100, 10],
    ]);
  });

  it('sums increments of every user into the model-hour rows', () => {
    const sums = withUnflushedSums(
      [row({ id: 0, user_id: 0, username: '' })],
      [inc({}), inc({ userId: 2, username: 'bob' }), inc({ modelName: 'claude' })],
    );
    expect(sums.map((s) => [s.model_name, s.created_at, s.count, s.quota, s.user_id])).toEqual([
      ['claude', 3600, 2, 50, 0],
      ['gpt', 3600, 5, 200, 0],
    ]);
  });

  it('selects increments and leaves rows alone when there are none', () => {
    const rows = [row({})];
    expect(
      withUnflushedRows(
        rows,
        unflushedWhere([inc({ userId: 9 })], (i) => i.userId === 1),
      ),
    ).toBe(rows);
    expect([...unflushedWhere([inc({}), inc({ userId: 2 })], (i) => i.userId === 2)]).toHaveLength(1);
  });
});
