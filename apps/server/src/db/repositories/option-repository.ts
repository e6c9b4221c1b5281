import type { DatabaseHandle } from '../database.ts';

/** Stored option rows. */
export class OptionRepository {
  constructor(private readonly handle: DatabaseHandle) {}

  async all(): Promise<Array<{ key: string; value: string }>> {
    const rows = await this.handle.db.selectFrom('options').select(['key', 'value']).execute();
    return rows.map((row) => ({ key: row.key, value: row.value ?? '' }));
  }

  /** Inserts or replaces one option (dialect-specific upsert). */
  async upsert(key: string, value: string): Promise<void> {
    const insert = this.handle.db.insertInto('options').values({ key, value });
    if (this.handle.kind === 'mysql') {
      await insert.onDuplicateKeyUpdate({ value }).execute();
    } else {
      await insert.onConflict((conflict) => conflict.column('key').doUpdateSet({ value })).execute();
    }
  }

  /** Inserts only when absent; returns the stored value (used to share a generated secret between nodes). */
  async insertIfAbsent(key: string, value: string): Promise<string> {
    const insert = this.handle.db.insertInto('options').values({ key, value });
    if (this.handle.kind === 'mysql') await insert.ignore().execute();
    else await insert.onConflict((conflict) => conflict.column('key').doNothing()).execute();
    const row = await this.handle.db
      .selectFrom('options')
      .select('value')
      .where('key', '=', key)
      .executeTakeFirst();
    return row?.value ?? value;
  }
}
