import type { Kysely } from 'kysely';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CLEAR_RUNNING_MESSAGE } from '../../src/console/options/option-routes.ts';
import { LogRepository, type NewLog } from '../../src/db/repositories/log-repository.ts';
import type { Database } from '../../src/db/schema.ts';
import { DEFAULT_CLEANUP_PACING, fixedPacing } from '../../src/logs/retention/cleanup-pacing.ts';
import { LogCleaner, STOPPED_MESSAGE } from '../../src/logs/retention/log-cleaner.ts';
import { startLogCleanup } from '../../src/start/background-jobs.ts';
import { createAppLifecycle } from '../../src/start/subsystems.ts';
import { expectOk, expectRefused, ROOT_PASSWORD } from '../console/console-support.ts';
import { buildTestApp, type ConsoleClient, type TestApp } from '../helper.ts';

// "Clear logs before": batched, with progress; the route's answer and the progress it reports;
// and the retention schedule, which only the master runs.

const T = 1_700_000_000;

describe('clear logs before, in batches', () => {
  let t: TestApp;
  let db: Kysely<Database>;
  let root: ConsoleClient;

  /** `old` rows before T (one second apart) and `recent` rows at or after it. */
  const seed = async (old: number, recent: number) => {
    const rows: NewLog[] = [];
    for (let i = 0; i < old; i++)
      rows.push({ type: 1 + (i % 5), created_at: T - old + i, content: `old ${i}` });
    for (let i = 0; i < recent; i++) rows.push({ type: 2, created_at: T + i, content: `recent ${i}` });
    const logs = new LogRepository(db);
    for (let i = 0; i < rows.length; i += 200) await logs.insertMany(rows.slice(i, i + 200));
  };
  const count = async () =>
    Number(
      (
        await db
          .selectFrom('logs')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const settle = async (cleaner: LogCleaner) => {
    while (cleaner.clearProgress().state === 'running')
      await new Promise((resolve) => setTimeout(resolve, 5));
  };

  beforeAll(async () => {
    t = await buildTestApp();
    db = t.app.services.logDatabase.db;
    root = await t.login('root', ROOT_PASSWORD);
  });
  afterAll(async () => {
    await t.close();
  });
  beforeEach(async () => {
    await db.deleteFrom('logs').execute();
  });

  it("answers at the end with the whole count and no message, the answer new-api's console shows", async () => {
    // SettingsLog shows `${data} 条日志已清理！` and ignores the message: data must be every row
    // the clear deleted, though it took many batches (the app's first batch is 100 rows).
    await seed(1_234, 20);
    const answer = await root.delete(`/api/log/?target_timestamp=${T}`);
    expect(answer.json()).toEqual({ success: true, message: '', data: 1_234 });
    expect(expectOk(await root.get('/api/log/clear_progress'))).toMatchObject({
      state: 'done',
      deleted: 1_234,
    });
    expect(await count()).toBe(20);
  });

  it('answers after the first batch with background=true, then the progress route reaches done with the whole count', async () => {
    await seed(1_234, 20);
    const answer = await root.delete(`/api/log/?target_timestamp=${T}&background=true`);
    const body = answer.json();
    expect(body.success).toBe(true);
    // The app's cleaner starts with a batch of 100 rows: more remain, so the answer says it goes on.
    expect(body.data).toBe(DEFAULT_CLEANUP_PACING.firstBatch);
    expect(body.message).toBe(CLEAR_RUNNING_MESSAGE);
    let progress = expectOk(await root.get('/api/log/clear_progress'));
    while (progress.state === 'running') {
      await new Promise((resolve) => setTimeout(resolve, 10));
      progress = expectOk(await root.get('/api/log/clear_progress'));
    }
    expect(progress).toMatchObject({ state: 'done', target_timestamp: T, deleted: 1_234, message: '' });
    expect(progress.finished_at).toBeGreaterThanOrEqual(progress.started_at);
    expect(await count()).toBe(20);
    const oldest = await db
      .selectFrom('logs')
      .select('created_at')
      .orderBy('created_at')
      .executeTakeFirstOrThrow();
    expect(Number(oldest.created_at)).toBe(T);
  });

  it('answers a clear still running after the wait with the count so far; it goes on to the end', async () => {
    await seed(50, 5);
    // A long pause holds the clear after each batch, past the 30 ms wait.
    const cleaner = new LogCleaner(db, { pacing: fixedPacing(20, 600_000) });
    expect(await cleaner.startClear(T, { ms: 30 })).toMatchObject({ state: 'running', deleted: 20 });
    // Joining it waits the same way, or less when told to stop waiting (the server closing).
    expect(await cleaner.startClear(T, { ms: 30 })).toMatchObject({ state: 'running', deleted: 20 });
    expect(await cleaner.startClear(T, { ms: 600_000, until: Promise.resolve() })).toMatchObject({
      state: 'running',
      deleted: 20,
    });
    await cleaner.stop();
    const quick = new LogCleaner(db, { pacing: fixedPacing(20, 0) });
    expect(await quick.startClear(T, { ms: 60_000 })).toMatchObject({ state: 'done', deleted: 30 });
    expect(await count()).toBe(5);
  });

  it('reports idle before any clear, and refuses a missing time', async () => {
    const fresh = new LogCleaner(db);
    expect(fresh.clearProgress()).toEqual({
      state: 'idle',
      target_timestamp: 0,
      deleted: 0,
      started_at: 0,
      finished_at: 0,
      message: '',
    });
    expectRefused(await root.delete('/api/log/?target_timestamp=-5'), 'target timestamp is required');
  });

  it('joins a running clear for the same time, refuses another time, and resumes after a stop', async () => {
    await seed(50, 5);
    // A long pause holds the clear after each batch.
    const first = new LogCleaner(db, { pacing: fixedPacing(20, 600_000) });
    expect(await first.startClear(T)).toMatchObject({ state: 'running', deleted: 20 });
    expect(await first.startClear(T)).toMatchObject({ state: 'running', deleted: 20 });
    expect(await first.startClear(T - 10)).toBeNull();
    await first.stop();
    expect(first.clearProgress()).toMatchObject({ state: 'failed', deleted: 20, message: STOPPED_MESSAGE });
    expect(await count()).toBe(35);
    const second = new LogCleaner(db, { pacing: fixedPacing(20, 0) });
    await second.startClear(T);
    await settle(second);
    expect(second.clearProgress()).toMatchObject({ state: 'done', deleted: 30 });
    expect(await count()).toBe(5);
  });

  it('clears every row before the target, past the retention bound too (asked for by hand)', async () => {
    await seed(30, 0);
    const ids = (await db.selectFrom('logs').select('id').orderBy('id').execute()).map((row) =>
      Number(row.id),
    );
    const cleaner = new LogCleaner(db, {
      pacing: fixedPacing(5, 0),
      upperBound: async () => ids[11]!,
    });
    await cleaner.startClear(T);
    await settle(cleaner);
    expect(cleaner.clearProgress()).toMatchObject({ state: 'done', deleted: 30 });
    expect(await db.selectFrom('logs').select('id').execute()).toEqual([]);
  });

  it('answers a waiting clear at once when the server closes, not at its end', async () => {
    // 20,000 rows take the app's cleaner a dozen batches with their pauses (a second or more);
    // the server closes right after the first one.
    const closingApp = await buildTestApp();
    let closing: Promise<void> | null = null;
    try {
      const db = closingApp.app.services.logDatabase.db;
      const logs = new LogRepository(db);
      for (let i = 0; i < 20_000; i += 500) {
        await logs.insertMany(
          Array.from({ length: 500 }, (_, j) => ({ type: 2, created_at: T - 1 - i - j })),
        );
      }
      const admin = await closingApp.login('root', ROOT_PASSWORD);
      const answer = admin.delete(`/api/log/?target_timestamp=${T}`);
      while (closingApp.app.services.logCleaner.clearProgress().deleted === 0)
        await new Promise((resolve) => setTimeout(resolve, 2));
      closing = closingApp.close();
      const body = (await answer).json();
      // The count so far: the answer is given when closing begins, before the cleaner stops
      // (which would answer the clear's interruption, at the end of the shutdown).
      expect(body.message).toBe(CLEAR_RUNNING_MESSAGE);
      expect(body.data).toBeGreaterThanOrEqual(DEFAULT_CLEANUP_PACING.firstBatch);
      expect(body.data).toBeLessThan(20_000);
    } finally {
      await (closing ?? closingApp.close());
    }
  });

  it('schedules retention on the master only; every node can clear', async () => {
    const log = pino({ level: 'silent' });
    for (const nodeType of ['master', 'slave'] as const) {
      const lifecycle = createAppLifecycle({});
      const cleaner = startLogCleanup(
        nodeType,
        t.app.services.logDatabase,
        t.app.services.options,
        lifecycle,
        log,
      );
      expect(cleaner).toBeInstanceOf(LogCleaner);
      expect(lifecycle.closeOrder()).toEqual(
        nodeType === 'master' ? ['log-retention', 'log-cleaner'] : ['log-cleaner'],
      );
      await lifecycle.close(log);
    }
  });
});
