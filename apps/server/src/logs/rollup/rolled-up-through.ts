import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/**
 * The highest logs.id counted in log_rollups: every logs row with an id up to it is counted
 * (rows committed late are waited for, see log-rollup-job.ts), so retention may delete them
 * without the aggregates losing history. 0 when nothing is rolled up yet.
 */
export async function rolledUpThrough(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('log_rollup_state')
    .select('rolled_up_through')
    .where('id', '=', 1)
    .executeTakeFirst();
  return Number(row?.rolled_up_through ?? 0);
}
