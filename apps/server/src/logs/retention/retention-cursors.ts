import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';

/**
 * The retention rules' walk positions (table log_retention_cursors, in the logs database). Only
 * the master's retention job writes them. A cursor is written after its batch: if the process
 * stops between the two, the next run reads that batch again and finds it already handled.
 */
export class RetentionCursors {
  constructor(private readonly db: Kysely<Database>) {}

  /** The rule's position; a rule never run starts before the first row. */
  async read(rule: string): Promise<number> {
    const row = await this.db
      .selectFrom('log_retention_cursors')
      .select('last_id')
      .where('rule', '=', rule)
      .executeTakeFirst();
    if (row) return Number(row.last_id);
    try {
      await this.db.insertInto('log_retention_cursors').values({ rule, last_id: 0 }).execute();
    } catch (error) {
      // Another writer created it first: the row is there either way.
      if (!isUniqueViolation(error)) throw error;
    }
    return 0;
  }

  async write(rule: string, lastId: number): Promise<void> {
    await this.db
      .updateTable('log_retention_cursors')
      .set({ last_id: lastId })
      .where('rule', '=', rule)
      .execute();
  }
}
