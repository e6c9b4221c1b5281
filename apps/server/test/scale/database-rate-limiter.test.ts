import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../src/db/database.ts';
import { migrateDatabases } from '../../src/db/migrate.ts';
import {
  createDatabaseRateLimiter,
  type DatabaseRateLimiter,
} from '../../src/rate-limit/database-rate-limiter.ts';
import { createRedisRateLimiter } from '../../src/rate-limit/rate-limiter.ts';
import { createTestDatabase, type TestDatabase, testDatabaseKind } from '../support/test-database.ts';

/**
 * The database-backed sliding window (ADR-19) on the selected database. On PostgreSQL and MySQL
 * the two limiters use two connection pools, like two nodes; two SQLite connections in one
 * process would block each other's event loop, so there they share one handle (the file is
 * owned by one process in production, which uses the memory limiter).
 */
const kind = testDatabaseKind;

describe(`database rate limiter on ${kind}`, () => {
  let database: TestDatabase;
  let first: DatabaseHandle;
  let second: DatabaseHandle;
  let time = 1_000_000_000;
  const now = () => time;
  const limiters: DatabaseRateLimiter[] = [];
  const limiter = (handle: DatabaseHandle, clock?: () => number) => {
    const created = createDatabaseRateLimiter(handle, { now: clock, sweepIntervalMs: 0 });
    limiters.push(created);
    return created;
  };
  const hits = async (key?: string) => {
    let query = first.db.selectFrom('rate_limit_hits').select((eb) => eb.fn.countAll<number>().as('n'));
    if (key !== undefined) query = query.where('key', '=', key);
    return Number((await query.executeTakeFirstOrThrow()).n);
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    first = openDatabase(database.target);
    await migrateDatabases(first.db as never, null);
    second = kind === 'sqlite' ? first : openDatabase(database.target);
  });

  afterAll(async () => {
    for (const created of limiters) created.close();
    if (second && second !== first) await second.destroy();
    await first?.destroy();
    await database?.drop();
  });

  it('admits exactly max of 40 concurrent hits shared by two limiters (a new key and a known one)', async () => {
    const a = limiter(first);
    const b = limiter(second);
    const burst = (key: string, count: number) =>
      Promise.all(Array.from({ length: count }, (_, index) => (index % 2 ? a : b).hit(key, 10, 60)));
    // A key nobody used yet: every hit races to create its row.
    expect((await burst('MRRL:new', 40)).filter(Boolean)).toHaveLength(10);
    expect((await burst('MRRL:new', 20)).filter(Boolean)).toHaveLength(0);
    expect(await hits('MRRL:new')).toBe(10);
    // A key that exists already.
    expect(await a.hit('MRRL:known', 10, 60)).toBe(true);
    expect((await burst('MRRL:known', 40)).filter(Boolean)).toHaveLength(9);
    expect(await hits('MRRL:known')).toBe(10);
  });

  it('slides: hits older than the window stop counting', async () => {
    const a = limiter(first, now);
    const b = limiter(second, now);
    const results: boolean[] = [];
    for (let i = 0; i < 4; i++) results.push(await (i % 2 ? a : b).hit('MRRL:slide', 3, 10));
    expect(results).toEqual([true, true, true, false]);
    time += 5_000;
    expect(await b.hit('MRRL:slide', 3, 10)).toBe(false);
    time += 5_001;
    // The first three left the window; the one admitted now counts.
    expect(await a.hit('MRRL:slide', 3, 10)).toBe(true);
    expect(await b.hit('MRRL:slide', 3, 10)).toBe(true);
    expect(await a.hit('MRRL:slide', 3, 10)).toBe(true);
    expect(await b.hit('MRRL:slide', 3, 10)).toBe(false);
    expect(await hits('MRRL:slide')).toBe(3);
    expect(await a.hit('MRRL:other', 3, 10)).toBe(true);
  });

  it('gives a released slot back, whichever limiter releases it', async () => {
    const a = limiter(first);
    const b = limiter(second);
    const ticket = await a.acquire('MRRLS:release', 1, 60);
    expect(ticket).not.toBeNull();
    expect(await b.acquire('MRRLS:release', 1, 60)).toBeNull();
    await b.release('MRRLS:release', ticket!);
    const next = await b.acquire('MRRLS:release', 1, 60);
    expect(next).not.toBeNull();
    expect(await a.acquire('MRRLS:release', 1, 60)).toBeNull();
    // Concurrent acquire/release pairs never admit more than max at once.
    await b.release('MRRLS:release', next!);
    const held = await Promise.all(
      Array.from({ length: 30 }, async (_, index) => {
        const taken = await (index % 2 ? a : b).acquire('MRRLS:pairs', 5, 60);
        if (taken !== null && index % 3 === 0) await (index % 2 ? b : a).release('MRRLS:pairs', taken);
        return taken !== null && index % 3 !== 0;
      }),
    );
    expect(await hits('MRRLS:pairs')).toBe(held.filter(Boolean).length);
    expect(held.filter(Boolean).length).toBeLessThanOrEqual(5);
  });

  if (kind !== 'sqlite') {
    it('takes a hit while another node is still releasing a hit of the same key', async () => {
      const a = limiter(first);
      const released = await a.acquire('MRRLS:racing', 5, 60);
      expect(released).not.toBeNull();
      let taken: string | null = null;
      // Node B's release, not yet committed, holds its hit's row. A hit that locked more than the
      // expired hits it deletes would wait here for that row (MySQL locks the index entry just
      // past a range delete): the acquire would never return inside this transaction.
      await second.db
        .transaction()
        .setIsolationLevel('read committed')
        .execute(async (trx) => {
          await trx.deleteFrom('rate_limit_hits').where('ticket', '=', released!).execute();
          taken = await a.acquire('MRRLS:racing', 5, 60);
        });
      expect(taken).not.toBeNull();
      expect(await hits('MRRLS:racing')).toBe(1);
    });
  }

  it('hashes keys longer than the column and still counts them apart', async () => {
    const a = limiter(first);
    const long = `notify:${'x'.repeat(300)}`;
    expect(await a.hit(`${long}1`, 1, 60)).toBe(true);
    expect(await a.hit(`${long}1`, 1, 60)).toBe(false);
    expect(await a.hit(`${long}2`, 1, 60)).toBe(true);
  });

  it('sweeps expired hits of idle keys and keys left without hits', async () => {
    const a = limiter(first, now);
    expect(await a.hit('MRRL:idle', 5, 1)).toBe(true);
    expect(await a.hit('MRRL:busy', 5, 600)).toBe(true);
    time += 2_000;
    await a.sweep();
    expect(await hits('MRRL:idle')).toBe(0);
    expect(await hits('MRRL:busy')).toBe(1);
    const keys = (await first.db.selectFrom('rate_limit_keys').select('key').execute()).map((row) => row.key);
    // SQLite needs no row to lock; elsewhere the idle key's row goes once its hits are gone.
    expect(keys).not.toContain('MRRL:idle');
    if (kind !== 'sqlite') expect(keys).toContain('MRRL:busy');
    // A key swept away is created again by its next hit.
    expect(await a.hit('MRRL:idle', 1, 1)).toBe(true);
    expect(await a.hit('MRRL:idle', 1, 1)).toBe(false);
  });

  it('keeps one count across nodes during a Redis outage (Redis falling back to the database)', async () => {
    // Nothing listens on port 1: every Redis command fails at once, as during an outage.
    const down = new Redis('redis://127.0.0.1:1', {
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
      retryStrategy: () => null,
    });
    down.on('error', () => undefined);
    try {
      const a = createRedisRateLimiter(down, limiter(first));
      const b = createRedisRateLimiter(down, limiter(second));
      const results = await Promise.all(
        Array.from({ length: 30 }, (_, index) => (index % 2 ? a : b).hit('MRRL:outage', 10, 60)),
      );
      expect(results.filter(Boolean)).toHaveLength(10);
      expect(await hits('MRRL:outage')).toBe(10);
      const ticket = await a.acquire('MRRLS:outage', 1, 60);
      expect(await b.acquire('MRRLS:outage', 1, 60)).toBeNull();
      await b.release('MRRLS:outage', ticket!);
      expect(await b.acquire('MRRLS:outage', 1, 60)).not.toBeNull();
    } finally {
      down.disconnect();
    }
  });
});
