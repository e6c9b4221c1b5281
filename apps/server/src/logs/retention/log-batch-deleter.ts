import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** What one retention rule removes from rows of its types older than its horizon. */
export interface WalkRule {
  /** Log types the rule applies to. */
  types: readonly number[];
  /** `delete` removes the rows; `blank` empties their content and other, keeping row and numbers. */
  action: 'delete' | 'blank';
}

/** One batch of a walk: how many rows it changed, where the walk now stands, whether it is over. */
export interface WalkStep {
  changed: number;
  /** The highest id the rule has now handled; the next batch starts after it. */
  cursor: number;
  /** Nothing is left to do before the horizon (or the id bound) for now. */
  finished: boolean;
}

/**
 * The statements of batched log clean-up. Every batch reads at most `limit` rows by primary key
 * or by the created_at index and then changes them by id (`id IN (…)`), one short statement each:
 * the same plan on SQLite, PostgreSQL and MySQL (MySQL refuses LIMIT inside an IN subquery, so the
 * ids travel through the client), and no statement ever scans the table.
 */
export class LogBatchDeleter {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * One batch of a rule's walk over logs in id order, after `cursor` and up to `bound`. Rows of
   * the rule's types created before `horizon` are changed. Ids follow created_at to within the
   * seconds a consume row waits before it is written, so the walk stops at the first row of its
   * types that is not yet old enough: the cursor stays before it and the next run reads it
   * again. Due rows after it in the same batch are handled now.
   */
  async walk(
    rule: WalkRule,
    cursor: number,
    horizon: number,
    bound: number,
    limit: number,
  ): Promise<WalkStep> {
    let query = this.db
      .selectFrom('logs')
      .select(['id', 'type', 'created_at'])
      .where('id', '>', cursor)
      .orderBy('id')
      .limit(limit);
    if (Number.isFinite(bound)) query = query.where('id', '<=', bound);
    const rows = await query.execute();
    const due: number[] = [];
    let next = cursor;
    let blocked = false;
    for (const row of rows) {
      const id = Number(row.id);
      if (rule.types.includes(Number(row.type))) {
        if (Number(row.created_at) < horizon) due.push(id);
        else blocked = true;
      }
      if (!blocked) next = id;
    }
    const changed = due.length === 0 ? 0 : await this.change(rule.action, due);
    return { changed, cursor: next, finished: blocked || rows.length < limit };
  }

  /**
   * One batch of "clear logs before": up to `limit` rows of any type created before `target`
   * (found through the created_at index), with ids up to `bound`, deleted. Returns the count; a
   * count below `limit` means none are left.
   */
  async clearBatch(target: number, bound: number, limit: number): Promise<number> {
    let query = this.db.selectFrom('logs').select('id').where('created_at', '<', target).limit(limit);
    if (Number.isFinite(bound)) query = query.where('id', '<=', bound);
    const rows = await query.execute();
    if (rows.length === 0) return 0;
    return this.change(
      'delete',
      rows.map((row) => Number(row.id)),
    );
  }

  private async change(action: WalkRule['action'], ids: number[]): Promise<number> {
    if (action === 'delete') {
      const result = await this.db.deleteFrom('logs').where('id', 'in', ids).executeTakeFirst();
      return Number(result.numDeletedRows);
    }
    // MySQL counts only rows whose values change; the batch's size is what was handled.
    await this.db.updateTable('logs').set({ content: '', other: '' }).where('id', 'in', ids).execute();
    return ids.length;
  }
}
