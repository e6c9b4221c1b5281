import { type Compilable, CompiledQuery, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withDrivingIndex } from '../../src/db/repositories/log-index-choice.ts';
import {
  cappedTotalQuery,
  LOG_COLUMN_DEFAULTS,
  type LogFilter,
  type NewLog,
} from '../../src/db/repositories/log-repository.ts';
import { newestLogRowsQuery } from '../../src/db/repositories/newest-log-rows.ts';
import { resolveLogFilter } from '../../src/db/repositories/resolve-log-filter.ts';
import type { Database } from '../../src/db/schema.ts';
import { buildTestApp, type TestApp } from '../helper.ts';

// SQLite plans the log lists without statistics; with two indexed filters the probe in
// log-index-choice.ts decides which index drives the page and the capped total. These tests read
// the plans SQLite makes for the queries the list runs.

const T0 = 1_630_000_000;
const RANGE = { start: T0, end: T0 + 100_000 };
const HEAVY = 900;
const LIGHT = 901;

/** SQLite's plan for the query, one step a line. */
async function planDetails(db: Kysely<Database>, query: Compilable): Promise<string> {
  const compiled = query.compile();
  const plan = await db.executeQuery<{ detail: string }>(
    CompiledQuery.raw(`EXPLAIN QUERY PLAN ${compiled.sql}`, [...compiled.parameters]),
  );
  return plan.rows.map((row) => row.detail).join('\n');
}

/** The indexes SQLite's plan for the query reads (`USING … INDEX name`). */
async function indexesOf(db: Kysely<Database>, query: Compilable): Promise<string[]> {
  return [...(await planDetails(db, query)).matchAll(/INDEX (\w+)/g)].map((m) => m[1]!);
}

describe('SQLite log lists: the probed index drives the page and the total', () => {
  let t: TestApp;
  let db: Kysely<Database>;
  const page = { offset: 0, limit: 10 };

  beforeAll(async () => {
    t = await buildTestApp();
    db = t.app.services.logDatabase.db;
    const rows: NewLog[] = [];
    // The heavy user: 3,000 rows of popular models, five of two rare ones, 40% under one token.
    for (let i = 0; i < 3000; i++) {
      rows.push({
        user_id: HEAVY,
        username: 'heavy',
        token_name: i % 5 < 2 ? 'heavy-key1' : 'heavy-key2',
        model_name: i % 2 ? 'pop-a' : 'pop-b',
        type: 2,
        created_at: T0 + i * 10,
      });
    }
    for (let i = 0; i < 5; i++) {
      rows.push({
        user_id: HEAVY,
        username: 'heavy',
        model_name: i % 2 ? 'rare-a' : 'rare-b',
        type: 2,
        created_at: T0 + i * 7,
      });
    }
    // The light user: a handful of rows of the popular models.
    for (let i = 0; i < 6; i++) {
      rows.push({ user_id: LIGHT, username: 'light', model_name: 'pop-a', type: 2, created_at: T0 + i * 13 });
    }
    for (let i = 0; i < rows.length; i += 500) {
      await db
        .insertInto('logs')
        .values(rows.slice(i, i + 500).map((row) => ({ ...LOG_COLUMN_DEFAULTS, ...row })))
        .execute();
    }
  });

  afterAll(async () => {
    await t.close();
  });

  const resolved = async (filter: LogFilter): Promise<LogFilter> => {
    const out = await resolveLogFilter(db, { ...RANGE, ...filter });
    if (out === null) throw new Error('the filter matches nothing');
    return out;
  };

  it('drives a heavy user filtered by a rare model with the model index', async () => {
    const filter = await resolved({ userId: HEAVY, modelName: 'rare' });
    expect(filter.modelNames).toEqual(['rare-a', 'rare-b']);
    expect(filter.driveBy).toBe('model_name');
    for (const query of [newestLogRowsQuery(db, filter, page), cappedTotalQuery(db, filter)]) {
      const indexes = await indexesOf(db, query);
      expect(indexes.length).toBeGreaterThan(0);
      expect(new Set(indexes)).toEqual(new Set(['idx_logs_model_created']));
    }
  });

  it('drives a light user filtered by a popular model with the user index, in time order without a sort', async () => {
    const filter = await resolved({ userId: LIGHT, modelName: 'pop' });
    expect(filter.modelNames).toEqual(['pop-a', 'pop-b']);
    expect(filter.driveBy).toBe('user_id');
    const pageQuery = newestLogRowsQuery(db, filter, page);
    expect(await indexesOf(db, pageQuery)).toEqual(['idx_logs_user_created']);
    expect(await planDetails(db, pageQuery)).not.toMatch(/TEMP B-TREE/);
    expect(await indexesOf(db, cappedTotalQuery(db, filter))).toEqual(['idx_logs_user_created']);
  });

  it('the same for a user by name and a single model name', async () => {
    const heavy = await resolved({ username: 'heavy', modelName: 'rare-a' });
    expect(heavy.driveBy).toBe('model_name');
    expect(await indexesOf(db, newestLogRowsQuery(db, heavy, page))).toEqual(['idx_logs_model_created']);
    const light = await resolved({ username: 'light', modelName: 'pop-a' });
    expect(light.driveBy).toBe('username');
    expect(await indexesOf(db, newestLogRowsQuery(db, light, page))).toEqual(['idx_logs_username_created']);
  });

  it('leaves a filter with one indexed column to the planner', async () => {
    expect((await resolved({ userId: HEAVY })).driveBy).toBeUndefined();
    expect((await resolved({ modelName: 'rare' })).driveBy).toBeUndefined();
  });

  it('when every column has more entries than the cap, drives with the one whose sampled rows match most', async () => {
    // With a cap of 50, both the user (3,005 rows) and the token (1,200) are capped: in the
    // token's index every row is the user's, in the user's index 40% are the token's.
    const filter = await withDrivingIndex(
      db,
      { ...RANGE, userId: HEAVY, tokenName: 'heavy-key1' },
      { cap: 50, sample: 20 },
    );
    expect(filter.driveBy).toBe('token_name');
    expect(await indexesOf(db, newestLogRowsQuery(db, filter, page))).toEqual([
      'idx_logs_token_name_created',
    ]);
    // With the default cap the token's 1,200 entries are counted outright: fewer than the user's.
    expect((await resolved({ userId: HEAVY, tokenName: 'heavy-key1' })).driveBy).toBe('token_name');
  });
});
