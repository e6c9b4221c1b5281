import type { QuotaDataBucket, QuotaDataRow } from '@switchyard/shared';
import type { QuotaDataIncrement } from './quota-data-repository.ts';
import { HOURLY, type QuotaDataSlot, slotStart } from './quota-data-slots.ts';

const byHourThenModel = (a: QuotaDataRow, b: QuotaDataRow) =>
  a.created_at - b.created_at || (a.model_name < b.model_name ? -1 : a.model_name > b.model_name ? 1 : 0);

/**
 * quota_data rows (one user's, or one username's) with this node's unflushed increments added:
 * into the row of the same user, model and slot, else as a new row (id 0, not yet written).
 */
export function withUnflushedRows(
  rows: QuotaDataRow[],
  unflushed: Iterable<QuotaDataIncrement>,
  slot: QuotaDataSlot = HOURLY,
): QuotaDataRow[] {
  const byKey = new Map(
    rows.map((row) => [`${row.user_id}\u0000${row.model_name}\u0000${row.created_at}`, row]),
  );
  const added: QuotaDataRow[] = [];
  for (const increment of unflushed) {
    const createdAt = slotStart(increment.createdAt, slot);
    const key = `${increment.userId}\u0000${increment.modelName}\u0000${createdAt}`;
    const row = byKey.get(key);
    if (row !== undefined) {
      row.count += increment.count;
      row.quota += increment.quota;
      row.token_used += increment.tokenUsed;
      continue;
    }
    const fresh: QuotaDataRow = {
      id: 0,
      user_id: increment.userId,
      username: increment.username,
      model_name: increment.modelName,
      created_at: createdAt,
      token_used: increment.tokenUsed,
      count: increment.count,
      quota: increment.quota,
    };
    byKey.set(key, fresh);
    added.push(fresh);
  }
  return added.length === 0 ? rows : [...rows, ...added].sort(byHourThenModel);
}

/** Per-model sums of each slot with this node's unflushed increments added. */
export function withUnflushedSums(
  sums: QuotaDataBucket[],
  unflushed: Iterable<QuotaDataIncrement>,
  slot: QuotaDataSlot = HOURLY,
): QuotaDataBucket[] {
  const byKey = new Map(sums.map((sum) => [`${sum.model_name}\u0000${sum.created_at}`, sum]));
  const added: QuotaDataBucket[] = [];
  for (const increment of unflushed) {
    const createdAt = slotStart(increment.createdAt, slot);
    const key = `${increment.modelName}\u0000${createdAt}`;
    let sum = byKey.get(key);
    if (sum === undefined) {
      sum = {
        id: 0,
        user_id: 0,
        username: '',
        model_name: increment.modelName,
        created_at: createdAt,
        token_used: 0,
        count: 0,
        quota: 0,
      };
      byKey.set(key, sum);
      added.push(sum);
    }
    sum.count += increment.count;
    sum.quota += increment.quota;
    sum.token_used += increment.tokenUsed;
  }
  return added.length === 0 ? sums : [...sums, ...added].sort(byHourThenModel);
}

/** The increments of one selection (a user, a username, a time range). */
export function* unflushedWhere(
  unflushed: Iterable<QuotaDataIncrement>,
  keep: (increment: QuotaDataIncrement) => boolean,
): Iterable<QuotaDataIncrement> {
  for (const increment of unflushed) if (keep(increment)) yield increment;
}
