import type { Kysely } from 'kysely';
import type { DatabaseKind } from '../../config/env.ts';
import type { Database } from '../../db/schema.ts';
import { rollUpRange } from './rollup-sql.ts';

/** Thrown when the watermark moved under a batch: another roll-up counted it (two masters). */
export class RollupRaced extends Error {}

/** Finds each batch's id range and counts it into the aggregates with the watermark. */
export class RollupStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly kind: DatabaseKind,
  ) {}

  /** The highest logs.id committed now (0 for an empty table). */
  async maxLogId(): Promise<number> {
    const row = await this.db
      .selectFrom('logs')
      .select((eb) => eb.fn.max<number | string | null>('id').as('id'))
      .executeTakeFirst();
    return Number(row?.id ?? 0);
  }

  /**
   * Counts up to `limit` rows with after < id ≤ bound into the aggregates and moves the watermark
   * past them; answers how many rows it counted. The batch is an id range: it ends at the
   * `limit`-th row past the watermark (read along the primary key), or at `bound` when fewer are
   * there.
   */
  async rollUp(after: number, bound: number, limit: number): Promise<number> {
    const last = await this.db
      .selectFrom('logs')
      .select('id')
      .where('id', '>', after)
      .where('id', '<=', bound)
      .orderBy('id')
      .limit(1)
      .offset(limit - 1)
      .executeTakeFirst();
    if (last) {
      await this.commit(after, Number(last.id));
      return limit;
    }
    const row = await this.db
      .selectFrom('logs')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('id', '>', after)
      .where('id', '<=', bound)
      .executeTakeFirst();
    await this.commit(after, bound);
    return Number(row?.n ?? 0);
  }

  /**
   * Adds the rows with from < id ≤ to and moves the watermark from `from` to `to`, in one
   * transaction: either the batch is counted and the watermark says so, or neither. The watermark
   * moves only if it still reads `from`, so two roll-ups (two masters by mistake) cannot count a
   * batch twice. On MySQL the transaction reads committed rows without locking them: InnoDB's
   * default would lock the logs rows read and the gap past them, holding up the relay's inserts.
   */
  private async commit(from: number, to: number): Promise<void> {
    const transaction = this.db.transaction();
    await (this.kind === 'mysql' ? transaction.setIsolationLevel('read committed') : transaction).execute(
      async (trx) => {
        const moved = await trx
          .updateTable('log_rollup_state')
          .set({ rolled_up_through: to })
          .where('id', '=', 1)
          .where('rolled_up_through', '=', from)
          .executeTakeFirst();
        if (Number(moved.numUpdatedRows) !== 1)
          throw new RollupRaced(`log roll-up watermark is no longer ${from}`);
        await rollUpRange(trx, this.kind, from, to);
      },
    );
  }
}
