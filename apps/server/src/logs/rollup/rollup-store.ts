import { type Kysely, sql, type Transaction } from 'kysely';
import type { DatabaseKind } from '../../config/env.ts';
import type { Database } from '../../db/schema.ts';
import { aggregateRows, type RollupIncrement, type RollupSourceRow } from './aggregate-rows.ts';
import { ROLLUP_KEY_COLUMNS } from './rollup-grains.ts';

/** Increments per INSERT statement (14 parameters each, well under every driver's limit). */
const CHUNK_SIZE = 1000;

/** Thrown when the watermark moved under a batch: another roll-up counted it (two masters). */
export class RollupRaced extends Error {}

/** Reads logs rows for the roll-up and writes the aggregates with the watermark. */
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
   * past them; answers how many rows it counted.
   */
  async rollUp(after: number, bound: number, limit: number): Promise<number> {
    const rows = await this.rowsAfter(after, bound, limit);
    const through = rows.length < limit ? bound : rows[rows.length - 1]!.id;
    await this.commit(aggregateRows(rows), after, through);
    return rows.length;
  }

  /** Up to `limit` rows with after < id ≤ through, in id order. */
  async rowsAfter(after: number, through: number, limit: number): Promise<RollupSourceRow[]> {
    const rows = await this.db
      .selectFrom('logs')
      .select([
        'id',
        'created_at',
        'type',
        'user_id',
        'username',
        'token_name',
        'model_name',
        'channel_id',
        'group',
        'quota',
        'prompt_tokens',
        'completion_tokens',
      ])
      .where('id', '>', after)
      .where('id', '<=', through)
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map((row) => ({ ...row, id: Number(row.id) }));
  }

  /**
   * Adds the increments and moves the watermark from `from` to `to`, in one transaction: either
   * the batch is counted and the watermark says so, or neither. The watermark moves only if it
   * still reads `from`, so two roll-ups (two masters by mistake) cannot count a batch twice.
   */
  async commit(increments: readonly RollupIncrement[], from: number, to: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const moved = await trx
        .updateTable('log_rollup_state')
        .set({ rolled_up_through: to })
        .where('id', '=', 1)
        .where('rolled_up_through', '=', from)
        .executeTakeFirst();
      if (Number(moved.numUpdatedRows) !== 1)
        throw new RollupRaced(`log roll-up watermark is no longer ${from}`);
      for (let index = 0; index < increments.length; index += CHUNK_SIZE) {
        await this.upsert(trx, increments.slice(index, index + CHUNK_SIZE));
      }
    });
  }

  private async upsert(trx: Transaction<Database>, chunk: readonly RollupIncrement[]): Promise<void> {
    const insert = trx.insertInto('log_rollups').values(chunk.map((increment) => ({ ...increment })));
    if (this.kind === 'mysql') {
      const add = (column: string) => sql<number>`${sql.ref(column)} + values(${sql.ref(column)})`;
      await insert
        .onDuplicateKeyUpdate({
          count: add('count'),
          quota: add('quota'),
          prompt_tokens: add('prompt_tokens'),
          completion_tokens: add('completion_tokens'),
        })
        .execute();
      return;
    }
    await insert
      .onConflict((conflict) =>
        conflict.columns([...ROLLUP_KEY_COLUMNS]).doUpdateSet((eb) => ({
          count: eb('log_rollups.count', '+', eb.ref('excluded.count')),
          quota: eb('log_rollups.quota', '+', eb.ref('excluded.quota')),
          prompt_tokens: eb('log_rollups.prompt_tokens', '+', eb.ref('excluded.prompt_tokens')),
          completion_tokens: eb('log_rollups.completion_tokens', '+', eb.ref('excluded.completion_tokens')),
        })),
      )
      .execute();
  }
}
