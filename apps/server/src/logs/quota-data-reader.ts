import type { QuotaDataBucket, QuotaDataRow } from '@switchyard/shared';
import { type ExpressionBuilder, type Kysely, type RawBuilder, sql } from 'kysely';
import type { DatabaseHandle } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { DAY, type QuotaDataSlot } from './quota-data-slots.ts';

interface SlotSums {
  user_id?: number | string | bigint;
  username?: string;
  model_name: string;
  created_at: number | string | bigint;
  count: number | string | bigint | null;
  quota: number | string | bigint | null;
  token_used: number | string | bigint | null;
}

const toRow = (row: SlotSums, id = 0): QuotaDataRow => ({
  id,
  user_id: Number(row.user_id ?? 0),
  username: row.username ?? '',
  model_name: row.model_name,
  created_at: Number(row.created_at),
  token_used: Number(row.token_used ?? 0),
  count: Number(row.count ?? 0),
  quota: Number(row.quota ?? 0),
});

/**
 * The start of the local day an hour bucket falls in, as SQL: the hour minus its time since local
 * midnight. The offset is an integer the query validated, written as a literal so every dialect
 * types the sum as the column's.
 */
function dayStartOf(offsetSeconds: number): RawBuilder<number> {
  const local = sql`(${sql.ref('created_at')} + ${sql.lit(offsetSeconds)})`;
  return sql<number>`${sql.ref('created_at')} - (${local} % ${sql.lit(DAY)})`;
}

/**
 * PostgreSQL's memory for one day sum: at the default 4 MB a month of 200 models' hours (about
 * 140,000 rows) sorts on disk; with this the planner hashes them, about twice as fast.
 */
const DAY_SUM_WORK_MEM = '32MB';

const sums = <T extends 'quota_data' | 'quota_data_models'>(eb: ExpressionBuilder<Database, T>) => [
  eb.fn.sum<number>(sql.ref('count')).as('count'),
  eb.fn.sum<number>(sql.ref('quota')).as('quota'),
  eb.fn.sum<number>(sql.ref('token_used')).as('token_used'),
];

/**
 * The dashboard's reads of quota_data (per user, model and hour) and quota_data_models (per model
 * and hour): buckets whose hour start lies in [start, end], oldest first, then by model. Hourly
 * slots return the stored rows; day slots sum them per local day in the database, so the answer
 * holds one row per model (and user) and day.
 */
export class QuotaDataReader {
  constructor(private readonly handle: DatabaseHandle) {}

  /** Runs a day sum; on PostgreSQL in a transaction whose work_mem lets it hash the groups. */
  private async daySum<T>(read: (db: Kysely<Database>) => Promise<T>): Promise<T> {
    if (this.handle.kind !== 'postgres') return read(this.handle.db);
    return this.handle.db.transaction().execute(async (trx) => {
      await sql`set local work_mem = ${sql.lit(DAY_SUM_WORK_MEM)}`.execute(trx);
      return read(trx);
    });
  }

  /** One user's buckets. */
  async listByUser(userId: number, start: number, end: number, slot: QuotaDataSlot): Promise<QuotaDataRow[]> {
    return this.userBuckets('user_id', userId, start, end, slot);
  }

  /** The buckets of every user whose username is exactly `username`. */
  async listByUsername(
    username: string,
    start: number,
    end: number,
    slot: QuotaDataSlot,
  ): Promise<QuotaDataRow[]> {
    return this.userBuckets('username', username, start, end, slot);
  }

  private async userBuckets(
    column: 'user_id' | 'username',
    value: number | string,
    start: number,
    end: number,
    slot: QuotaDataSlot,
  ): Promise<QuotaDataRow[]> {
    const from = (db: Kysely<Database>) =>
      db
        .selectFrom('quota_data')
        .where(column, '=', value)
        .where('created_at', '>=', start)
        .where('created_at', '<=', end);
    if (slot.kind === 'hour') {
      const rows = await from(this.handle.db)
        .selectAll()
        .orderBy('created_at')
        .orderBy('model_name')
        .execute();
      return rows.map((row) => toRow(row, Number(row.id)));
    }
    const day = dayStartOf(slot.offsetSeconds);
    const rows = await this.daySum((db) =>
      from(db)
        .select((eb) => [
          'user_id',
          eb.fn.max('username').as('username'),
          'model_name',
          day.as('created_at'),
          ...sums(eb),
        ])
        .groupBy(['user_id', 'model_name', day])
        .orderBy(day)
        .orderBy('model_name')
        .orderBy('user_id')
        .execute(),
    );
    return rows.map((row) => toRow(row));
  }

  /** Sums over every user per model and slot (QuotaDataBucket: id and user_id 0, username ''). */
  async sumByModel(start: number, end: number, slot: QuotaDataSlot): Promise<QuotaDataBucket[]> {
    const from = (db: Kysely<Database>) =>
      db.selectFrom('quota_data_models').where('created_at', '>=', start).where('created_at', '<=', end);
    if (slot.kind === 'hour') {
      const rows = await from(this.handle.db)
        .select(['model_name', 'created_at', 'count', 'quota', 'token_used'])
        .orderBy('created_at')
        .orderBy('model_name')
        .execute();
      return rows.map((row) => toRow(row));
    }
    const day = dayStartOf(slot.offsetSeconds);
    const rows = await this.daySum((db) =>
      from(db)
        .select((eb) => ['model_name', day.as('created_at'), ...sums(eb)])
        .groupBy([day, 'model_name'])
        .orderBy(day)
        .orderBy('model_name')
        .execute(),
    );
    return rows.map((row) => toRow(row));
  }
}
