import { LogType } from '@switchyard/shared';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LogRepository, type NewLog } from '../../src/db/repositories/log-repository.ts';
import type { Database } from '../../src/db/schema.ts';
import { fixedPacing } from '../../src/logs/retention/cleanup-pacing.ts';
import { LogCleaner } from '../../src/logs/retention/log-cleaner.ts';
import { buildTestApp, type TestApp } from '../helper.ts';

// The retention rules on a real logs table: exactly the rows past each horizon, never past the
// id bound, and a run stopped half-way then started again ending in the same rows.

const DAY = 86_400;
const NOW = 1_800_000_000;
/** Days each option keeps (consume 30, error 7, detail 3); others keep forever. */
const DAYS: Record<string, number> = {
  LogConsumeRetentionDays: 30,
  LogErrorRetentionDays: 7,
  LogDetailRetentionDays: 3,
};
const days = (option: string) => DAYS[option] ?? 0;
const AGES = [60, 31, 29, 10, 6, 4, 2, 0];
const TYPES = [LogType.Consume, LogType.Error, LogType.TopUp, LogType.Manage, LogType.System];

interface Seeded {
  type: number;
  age: number;
  content: string | null;
  other: string | null;
}

describe('log retention', () => {
  let t: TestApp;
  let db: Kysely<Database>;

  /** Rows in id order, oldest first: every type at every age, text in content and other. */
  const seed = async (rounds = 1) => {
    const rows: NewLog[] = [];
    for (let round = 0; round < rounds; round++) {
      for (const age of AGES) {
        for (const type of TYPES) {
          rows.push({ type, created_at: NOW - age * DAY - 10, content: `${type}/${age}`, other: '{"x":1}' });
        }
      }
    }
    rows.sort((a, b) => Number(a.created_at) - Number(b.created_at));
    const logs = new LogRepository(db);
    for (let i = 0; i < rows.length; i += 100) await logs.insertMany(rows.slice(i, i + 100));
  };
  const read = async (): Promise<Seeded[]> =>
    (
      await db.selectFrom('logs').select(['type', 'created_at', 'content', 'other']).orderBy('id').execute()
    ).map((row) => ({
      type: Number(row.type),
      age: Math.round((NOW - Number(row.created_at)) / DAY),
      content: row.content,
      other: row.other,
    }));
  /** What the rules leave of `seed()`: the expected rows, computed independently of the cleaner. */
  const expected = (rounds = 1): Seeded[] => {
    const out: Seeded[] = [];
    for (let round = 0; round < rounds; round++) {
      for (const age of AGES) {
        for (const type of TYPES) {
          if (type === LogType.Consume && age > 30) continue;
          if (type === LogType.Error && age > 7) continue;
          const blank = (type === LogType.Consume || type === LogType.Error) && age > 3;
          out.push({ type, age, content: blank ? '' : `${type}/${age}`, other: blank ? '' : '{"x":1}' });
        }
      }
    }
    return sortRows(out);
  };
  const sortRows = (rows: Seeded[]) =>
    [...rows].sort(
      (a, b) => b.age - a.age || a.type - b.type || String(a.content).localeCompare(String(b.content)),
    );

  beforeAll(async () => {
    t = await buildTestApp();
    db = t.app.services.logDatabase.db;
  });
  afterAll(async () => {
    await t.close();
  });
  beforeEach(async () => {
    await db.deleteFrom('logs').execute();
    await db.deleteFrom('log_retention_cursors').execute();
  });

  it('deletes consume and error rows past their horizons, blanks old details, keeps everything else', async () => {
    await seed();
    const cleaner = new LogCleaner(db, { pacing: fixedPacing(7, 0) });
    const result = await cleaner.runRetention(days, NOW);
    const left = await read();
    expect(sortRows(left)).toEqual(expected());
    // consume at 60 and 31 days; error at 60, 31, 29, 10; details of consume at 29, 10, 6, 4 and error at 6, 4.
    expect(result).toEqual({ consume: 2, error: 4, detail: 4 + 2 });
    // A second run finds nothing to do: the cursors stand where the first one ended.
    expect(await cleaner.runRetention(days, NOW)).toEqual({ consume: 0, error: 0, detail: 0 });
    expect(sortRows(await read())).toEqual(expected());
  });

  it('keeps everything when every option is 0, and picks up old rows when an option is set later', async () => {
    await seed();
    const cleaner = new LogCleaner(db, { pacing: fixedPacing(5, 0) });
    expect(await cleaner.runRetention(() => 0, NOW)).toEqual({ consume: 0, error: 0, detail: 0 });
    expect((await read()).length).toBe(AGES.length * TYPES.length);
    await cleaner.runRetention(days, NOW);
    expect(sortRows(await read())).toEqual(expected());
  });

  it('never touches a row past the id bound, and continues once the bound moves', async () => {
    await seed();
    const ids = (await db.selectFrom('logs').select('id').orderBy('id').execute()).map((row) =>
      Number(row.id),
    );
    let bound = ids[7]!; // the 60- and 31-day rows have ids 0..9 in seed order; bound stops inside them
    const cleaner = new LogCleaner(db, {
      pacing: fixedPacing(3, 0),
      upperBound: async () => bound,
    });
    await cleaner.runRetention(days, NOW);
    const after = await db.selectFrom('logs').select(['id', 'type', 'content']).orderBy('id').execute();
    for (const row of after) {
      if (Number(row.id) > bound) expect(row.content).not.toBe('');
    }
    const removed = ids.filter((id) => !after.some((row) => Number(row.id) === id));
    expect(removed.length).toBeGreaterThan(0);
    expect(Math.max(...removed)).toBeLessThanOrEqual(bound);
    bound = Number.POSITIVE_INFINITY;
    await cleaner.runRetention(days, NOW);
    expect(sortRows(await read())).toEqual(expected());
  });

  it('stopped after its first batch, a run resumes on a new cleaner and ends in the same rows', async () => {
    await seed(3);
    const total = AGES.length * TYPES.length * 3;
    // A long pause holds the run after its first batch until it is stopped.
    const first = new LogCleaner(db, { pacing: fixedPacing(10, 600_000) });
    const run = first.runRetention(days, NOW);
    while ((await read()).length === total) await new Promise((resolve) => setTimeout(resolve, 5));
    await first.stop();
    const partial = await run;
    expect(partial.consume).toBeGreaterThan(0);
    expect(partial.consume).toBeLessThan(6);
    expect((await read()).length).toBe(total - partial.consume);
    const cursor = await db
      .selectFrom('log_retention_cursors')
      .selectAll()
      .where('rule', '=', 'consume')
      .executeTakeFirst();
    expect(Number(cursor?.last_id)).toBeGreaterThan(0);
    // Like a process that died between a batch and its cursor write: the cursor goes back.
    await db.updateTable('log_retention_cursors').set({ last_id: 0 }).execute();
    const second = new LogCleaner(db, { pacing: fixedPacing(10, 0) });
    const rest = await second.runRetention(days, NOW);
    expect(partial.consume + rest.consume).toBe(6);
    expect(sortRows(await read())).toEqual(expected(3));
  });

  it('a retention run gives way to a clear that is waiting, at its next batch', async () => {
    await seed(2);
    const cleaner = new LogCleaner(db, { pacing: fixedPacing(4, 0) });
    const run = cleaner.runRetention(days, NOW);
    const progress = await cleaner.startClear(NOW - 5 * DAY);
    expect(progress?.deleted).toBe(4);
    expect(await run).toEqual({ consume: 0, error: 0, detail: 0 });
    while (cleaner.clearProgress().state === 'running')
      await new Promise((resolve) => setTimeout(resolve, 5));
    expect(cleaner.clearProgress()).toMatchObject({ state: 'done', deleted: 5 * 2 * TYPES.length });
    await cleaner.stop();
    const left = await read();
    expect(left.every((row) => row.age < 5)).toBe(true);
  });
});
