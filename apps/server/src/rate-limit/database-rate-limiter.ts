import { createHash } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { DatabaseHandle } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { createMemoryRateLimiter, fallbackTickets, newTicket, type RateLimiter } from './rate-limiter.ts';

export interface DatabaseRateLimiterOptions {
  now?: () => number;
  /** How often expired hits of idle keys (and keys left without hits) are removed; 0: never. */
  sweepIntervalMs?: number;
  /** Takes hits while the database keeps failing (memory: per node). */
  fallback?: RateLimiter;
}

export interface DatabaseRateLimiter extends RateLimiter {
  /** Removes expired hits and keys without hits (run by the timer; exposed for tests). */
  sweep(): Promise<void>;
}

/** Longest key stored as is (the column is varchar(191)); longer keys are hashed. */
const MAX_KEY_LENGTH = 191;
const ATTEMPTS = 4;
const SWEEP_BATCH = 500;
/** Most tickets one delete names. */
const DELETE_BATCH = 500;
/** The key row was swept away between two hits: create it again and retry. */
const MISSING = Symbol('missing key row');

const storedKey = (key: string) =>
  key.length <= MAX_KEY_LENGTH ? key : `sha256:${createHash('sha256').update(key).digest('hex')}`;

/**
 * Sliding window in the database, exact across every node sharing it (ADR-19). A hit is one
 * transaction: lock the key's row in `rate_limit_keys` (`SELECT … FOR UPDATE` on PostgreSQL and
 * MySQL; SQLite runs one writing transaction at a time anyway), delete the key's hits older than
 * the window, count the rest and insert the hit if the count is under `max`. Transactions run at
 * READ COMMITTED so the count sees every hit committed before the lock was granted (and MySQL
 * takes no gap locks). The key row is created outside that transaction: an `INSERT IGNORE` that
 * meets an existing row takes a shared lock on MySQL, and two of them waiting to upgrade to the
 * row lock would deadlock. A release deletes its ticket. Times come from each node's clock.
 *
 * Hits are only ever deleted by ticket (`deleteHits`), so every statement that deletes a hit locks
 * its primary-key entry before its index entries, in one order. A range delete over the
 * (key, hit_at) index locks index entries first, and MySQL also locks the entry just past the
 * range (a live hit) and its row: a release deleting that hit at the same moment deadlocked with
 * it, and the release, rolled back, left a failed call's slot taken for the whole window.
 */
export function createDatabaseRateLimiter(
  database: DatabaseHandle,
  {
    now = Date.now,
    sweepIntervalMs = 60_000,
    fallback = createMemoryRateLimiter(now),
  }: DatabaseRateLimiterOptions = {},
): DatabaseRateLimiter {
  const { db, kind } = database;
  const locks = kind !== 'sqlite';
  const fallbackHits = fallbackTickets(fallback, 'local:');

  const begin = () => (locks ? db.transaction().setIsolationLevel('read committed') : db.transaction());

  /** Locks the key's row; false when there is none. */
  const lock = async (trx: Transaction<Database>, key: string) =>
    (await trx
      .selectFrom('rate_limit_keys')
      .select('key')
      .where('key', '=', key)
      .forUpdate()
      .executeTakeFirst()) !== undefined;

  /**
   * Deletes the key's hits whose `column` is at most `limit`, by ticket. The caller holds the key's
   * lock and every hit of a key is inserted under it, so the unlocked read misses none.
   */
  const deleteHits = async (
    trx: Transaction<Database>,
    key: string,
    column: 'hit_at' | 'expires_at',
    limit: number,
  ) => {
    const tickets = (
      await trx
        .selectFrom('rate_limit_hits')
        .select('ticket')
        .where('key', '=', key)
        .where(column, '<=', limit)
        .execute()
    ).map((row) => row.ticket);
    for (let start = 0; start < tickets.length; start += DELETE_BATCH) {
      await trx
        .deleteFrom('rate_limit_hits')
        .where('ticket', 'in', tickets.slice(start, start + DELETE_BATCH))
        .execute();
    }
  };

  const createKey = async (key: string) => {
    const insert = db.insertInto('rate_limit_keys').values({ key });
    if (kind === 'mysql') await insert.ignore().execute();
    else await insert.onConflict((conflict) => conflict.column('key').doNothing()).execute();
  };

  const tryAcquire = (key: string, max: number, windowMs: number) =>
    begin().execute(async (trx): Promise<string | null | typeof MISSING> => {
      if (locks && !(await lock(trx, key))) return MISSING;
      const time = now();
      await deleteHits(trx, key, 'hit_at', time - windowMs);
      const { count } = await trx
        .selectFrom('rate_limit_hits')
        .select((eb) => eb.fn.countAll<number | string>().as('count'))
        .where('key', '=', key)
        .executeTakeFirstOrThrow();
      if (Number(count) >= max) return null;
      const ticket = newTicket(time);
      await trx
        .insertInto('rate_limit_hits')
        .values({ ticket, key, hit_at: time, expires_at: time + windowMs })
        .execute();
      return ticket;
    });

  const acquire = async (key: string, max: number, windowSeconds: number): Promise<string | null> => {
    if (max <= 0) return null;
    const stored = storedKey(key);
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      try {
        const result = await tryAcquire(stored, max, windowSeconds * 1000);
        if (result !== MISSING) return result;
        await createKey(stored);
      } catch {
        // A lost connection or a deadlock victim: try again.
      }
    }
    // The database keeps failing: count on this node alone rather than refuse every call.
    return fallbackHits.acquire(key, max, windowSeconds);
  };

  const sweep = async () => {
    const time = now();
    const expired = await db
      .selectFrom('rate_limit_hits')
      .select('key')
      .distinct()
      .where('expires_at', '<', time)
      .limit(SWEEP_BATCH)
      .execute();
    for (const { key } of expired) {
      // Under the key's lock, like a hit, so the two never wait for each other's rows.
      await begin().execute(async (trx) => {
        if (locks) await lock(trx, key);
        await deleteHits(trx, key, 'expires_at', time - 1);
      });
    }
    if (!locks) return;
    const idle = await db
      .selectFrom('rate_limit_keys')
      .select('key')
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('rate_limit_hits')
              .select('rate_limit_hits.ticket')
              .whereRef('rate_limit_hits.key', '=', 'rate_limit_keys.key'),
          ),
        ),
      )
      .limit(SWEEP_BATCH)
      .execute();
    for (const { key } of idle) {
      await begin().execute(async (trx) => {
        if (!(await lock(trx, key))) return;
        const hit = await trx
          .selectFrom('rate_limit_hits')
          .select('ticket')
          .where('key', '=', key)
          .limit(1)
          .executeTakeFirst();
        if (!hit) await trx.deleteFrom('rate_limit_keys').where('key', '=', key).execute();
      });
    }
  };

  let sweeping = false;
  const sweeper =
    sweepIntervalMs > 0
      ? setInterval(() => {
          if (sweeping) return;
          sweeping = true;
          sweep()
            .catch(() => undefined)
            .finally(() => {
              sweeping = false;
            });
        }, sweepIntervalMs)
      : null;
  sweeper?.unref();

  return {
    hit: async (key, max, windowSeconds) => (await acquire(key, max, windowSeconds)) !== null,
    acquire,
    async release(key, ticket) {
      if (await fallbackHits.release(key, ticket)) return;
      // An unreachable database: the hit stays counted until its window ends.
      await db
        .deleteFrom('rate_limit_hits')
        .where('ticket', '=', ticket)
        .execute()
        .catch(() => undefined);
    },
    sweep,
    close() {
      if (sweeper) clearInterval(sweeper);
      fallback.close();
    },
  };
}
