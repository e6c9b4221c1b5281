import { type Kysely, sql, type Transaction } from 'kysely';
import { rolledUpThrough } from '../../logs/rollup/rolled-up-through.ts';
import { ROLLUP_GRAINS } from '../../logs/rollup/rollup-grains.ts';
import { fillGrainHistory } from '../../logs/rollup/rollup-sql.ts';
import type { Database } from '../schema.ts';
import { dialectOf } from './column-types.ts';

/** The grains this migration adds: per user with the model (8) and per token name (9). */
const ADDED_GRAINS = [8, 9];

/**
 * Two stat grains by day and by hour (logs/rollup/rollup-grains.ts), so a user's stat and a
 * token-name stat read raw rows only for the partial hours at their range's ends. The roll-up job
 * counts every grain from its watermark on; their history up to the watermark is filled here (days
 * from the full grain, which still holds what retention deleted; hours from the logs rows left).
 * One transaction, which first takes the watermark's row: a roll-up batch committing meanwhile (a
 * master on another node) waits for it rather than moving the watermark past rows this fill has
 * not counted. The old build's roll-up does not know these grains: stop it before this runs.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const fill = async (trx: Transaction<Database>) => {
    await trx
      .updateTable('log_rollup_state')
      .set((eb) => ({ rolled_up_through: eb.ref('rolled_up_through') }))
      .where('id', '=', 1)
      .execute();
    const through = await rolledUpThrough(trx);
    await trx.deleteFrom('log_rollups').where('grain', 'in', ADDED_GRAINS).execute();
    if (through === 0) return;
    for (const grain of ROLLUP_GRAINS.filter((candidate) => ADDED_GRAINS.includes(candidate.id))) {
      await fillGrainHistory(trx, grain, through);
    }
    // The fill may have added millions of rows; PostgreSQL's planner should know before the first stat.
    if (dialectOf(db) === 'postgres') await sql`analyze log_rollups`.execute(trx);
  };
  const logs = db as unknown as Kysely<Database>;
  // Migrations run in a transaction where DDL is transactional (not on MySQL).
  await (logs.isTransaction ? fill(logs as Transaction<Database>) : logs.transaction().execute(fill));
}

export async function down(): Promise<void> {
  throw new Error('Switchyard migrations are forward-only');
}
