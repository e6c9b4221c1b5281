import { type Kysely, sql } from 'kysely';
import type { DatabaseHandle } from '../db/database.ts';
import type { Database } from '../db/schema.ts';

/** One user-model-hour bucket's increments. */
export interface QuotaDataIncrement {
  userId: number;
  username: string;
  modelName: string;
  /** Hour start, Unix seconds. */
  createdAt: number;
  count: number;
  quota: number;
  tokenUsed: number;
}

/** Rows per INSERT statement. */
const CHUNK_SIZE = 200;
/** Attempts per statement when the database reports a deadlock or serialization failure. */
const ATTEMPTS = 4;

/** PostgreSQL deadlock / serialization failure, MySQL deadlock / lock wait timeout, SQLite busy. */
function isTransientLockError(error: unknown): boolean {
  const { code, errno } = (error ?? {}) as { code?: unknown; errno?: unknown };
  return (
    code === '40P01' ||
    code === '40001' ||
    errno === 1213 ||
    errno === 1205 ||
    code === 'SQLITE_BUSY' ||
    code === 'ER_LOCK_DEADLOCK'
  );
}

/**
 * Writes to the quota_data table (dashboard aggregates, in the main database) and its
 * per-model-hour sums (quota_data_models); `quota-data-reader.ts` reads them. Writes are additive
 * UPSERTs on the unique (user_id, model_name, created_at) bucket and (created_at, model_name), so
 * any number of nodes can flush the same bucket at once without duplicate rows (the reference's
 * SELECT-then-INSERT races).
 */
export class QuotaDataRepository {
  constructor(private readonly handle: DatabaseHandle) {}

  /**
   * Adds the increments to their buckets, creating missing ones. Rows are written in a fixed
   * order (so concurrent flushes lock in the same order) in chunks; each chunk is one statement,
   * retried on a deadlock. Returns the increments that could not be written.
   */
  async addAll(increments: QuotaDataIncrement[]): Promise<{ failed: QuotaDataIncrement[]; error?: unknown }> {
    const sorted = [...increments].sort(
      (a, b) =>
        a.userId - b.userId ||
        (a.modelName < b.modelName ? -1 : a.modelName > b.modelName ? 1 : 0) ||
        a.createdAt - b.createdAt,
    );
    const failed: QuotaDataIncrement[] = [];
    let lastError: unknown;
    for (let index = 0; index < sorted.length; index += CHUNK_SIZE) {
      const chunk = sorted.slice(index, index + CHUNK_SIZE);
      try {
        await this.withRetry(() => this.upsert(chunk));
      } catch (error) {
        failed.push(...chunk);
        lastError = error;
      }
    }
    return lastError === undefined ? { failed } : { failed, error: lastError };
  }

  private async withRetry(write: () => Promise<void>): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await write();
        return;
      } catch (error) {
        if (attempt >= ATTEMPTS || !isTransientLockError(error)) throw error;
        await new Promise((resolve) => setTimeout(resolve, 10 * attempt + Math.random() * 20));
      }
    }
  }

  /**
   * Adds a chunk to quota_data and its per-model-hour sums to quota_data_models, in one
   * transaction. On SQLite the two statements run synchronously on the shared connection (a
   * Kysely transaction would hold the one write lock across awaits); when another transaction is
   * open there, the chunk is refused as busy and retried.
   */
  private async upsert(chunk: QuotaDataIncrement[]): Promise<void> {
    const sqlite = this.handle.sqlite;
    if (sqlite) {
      if (sqlite.inTransaction) throw Object.assign(new Error('database busy'), { code: 'SQLITE_BUSY' });
      const buckets = this.upsertBuckets(this.handle.db, chunk).compile();
      const models = this.upsertModelHours(this.handle.db, sumPerModelHour(chunk)).compile();
      sqlite
        .transaction(() => {
          sqlite.prepare(buckets.sql).run(...(buckets.parameters as unknown[]));
          sqlite.prepare(models.sql).run(...(models.parameters as unknown[]));
        })
        .immediate();
      return;
    }
    await this.handle.db.transaction().execute(async (trx) => {
      await this.upsertBuckets(trx, chunk).execute();
      await this.upsertModelHours(trx, sumPerModelHour(chunk)).execute();
    });
  }

  private upsertBuckets(trx: Kysely<Database>, chunk: QuotaDataIncrement[]) {
    const values = chunk.map((entry) => ({
      user_id: entry.userId,
      username: entry.username,
      model_name: entry.modelName,
      created_at: entry.createdAt,
      count: entry.count,
      quota: entry.quota,
      token_used: entry.tokenUsed,
    }));
    const insert = trx.insertInto('quota_data').values(values);
    if (this.handle.kind === 'mysql') {
      return insert.onDuplicateKeyUpdate({
        count: sql`${sql.ref('count')} + values(${sql.ref('count')})`,
        quota: sql`${sql.ref('quota')} + values(${sql.ref('quota')})`,
        token_used: sql`${sql.ref('token_used')} + values(${sql.ref('token_used')})`,
        username: sql`values(${sql.ref('username')})`,
      });
    }
    return insert.onConflict((conflict) =>
      conflict.columns(['user_id', 'model_name', 'created_at']).doUpdateSet((eb) => ({
        count: eb('quota_data.count', '+', eb.ref('excluded.count')),
        quota: eb('quota_data.quota', '+', eb.ref('excluded.quota')),
        token_used: eb('quota_data.token_used', '+', eb.ref('excluded.token_used')),
        username: eb.ref('excluded.username'),
      })),
    );
  }

  private upsertModelHours(trx: Kysely<Database>, sums: QuotaDataIncrement[]) {
    const insert = trx.insertInto('quota_data_models').values(
      sums.map((entry) => ({
        model_name: entry.modelName,
        created_at: entry.createdAt,
        count: entry.count,
        quota: entry.quota,
        token_used: entry.tokenUsed,
      })),
    );
    if (this.handle.kind === 'mysql') {
      return insert.onDuplicateKeyUpdate({
        count: sql`${sql.ref('count')} + values(${sql.ref('count')})`,
        quota: sql`${sql.ref('quota')} + values(${sql.ref('quota')})`,
        token_used: sql`${sql.ref('token_used')} + values(${sql.ref('token_used')})`,
      });
    }
    return insert.onConflict((conflict) =>
      conflict.columns(['created_at', 'model_name']).doUpdateSet((eb) => ({
        count: eb('quota_data_models.count', '+', eb.ref('excluded.count')),
        quota: eb('quota_data_models.quota', '+', eb.ref('excluded.quota')),
        token_used: eb('quota_data_models.token_used', '+', eb.ref('excluded.token_used')),
      })),
    );
  }
}

/** A chunk's increments summed per (model, hour), ordered like the unique index. */
function sumPerModelHour(chunk: QuotaDataIncrement[]): QuotaDataIncrement[] {
  const sums = new Map<string, QuotaDataIncrement>();
  for (const entry of chunk) {
    const key = `${entry.createdAt}\u0000${entry.modelName}`;
    const current = sums.get(key);
    if (current === undefined) {
      sums.set(key, { ...entry, userId: 0, username: '' });
      continue;
    }
    current.count += entry.count;
    current.quota += entry.quota;
    current.tokenUsed += entry.tokenUsed;
  }
  return [...sums.values()].sort(
    (a, b) =>
      a.createdAt - b.createdAt || (a.modelName < b.modelName ? -1 : a.modelName > b.modelName ? 1 : 0),
  );
}
