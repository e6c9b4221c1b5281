import type { Insertable, Kysely } from 'kysely';
import type { Database, LogTable } from '../schema.ts';

export type NewLog = Insertable<LogTable>;

/** The logs table (possibly in its own database, see LOG_SQL_DSN). */
export class LogRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(log: NewLog): Promise<void> {
    await this.insertMany([log]);
  }

  async insertMany(logs: NewLog[]): Promise<void> {
    if (logs.length === 0) return;
    const now = Math.floor(Date.now() / 1000);
    await this.db
      .insertInto('logs')
      .values(logs.map((log) => ({ created_at: now, ...log })))
      .execute();
  }

  /** Deletes logs older than the timestamp in batches so large tables are not locked for long. */
  async deleteBefore(timestamp: number, batchSize = 5000): Promise<number> {
    let deleted = 0;
    for (;;) {
      const ids = await this.db
        .selectFrom('logs')
        .select('id')
        .where('created_at', '<', timestamp)
        .limit(batchSize)
        .execute();
      if (ids.length === 0) return deleted;
      const result = await this.db
        .deleteFrom('logs')
        .where(
          'id',
          'in',
          ids.map((row) => row.id),
        )
        .executeTakeFirst();
      deleted += Number(result.numDeletedRows);
      if (ids.length < batchSize) return deleted;
    }
  }
}
