import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cursorAfter, LogKeysetReader } from '../../src/db/repositories/log-keyset-reader.ts';
import type { LogFilter, NewLog } from '../../src/db/repositories/log-repository.ts';
import { buildTestApp, type TestApp } from '../helper.ts';
import { testDatabaseKind } from '../support/test-database.ts';

// The export's reader on each database: batches that resume strictly after the previous batch's
// last row read every matching row once, in the list's order, also where a batch ends inside a run
// of equal created_at and when several model names are read name by name and merged. What the
// export does with the batches (HTTP, back-pressure, a client leaving) is logs-export-stream.test.ts.

const ROWS = 90;
const T0 = 1_600_000_000;
const MODELS = ['gpt-4o-mini', 'claude-3-haiku', 'gemini-2.0-flash'];
/** Smaller than a run of equal created_at, and no divisor of the row counts: batch ends land inside runs. */
const LIMIT = 4;

describe(`log keyset reader on ${testDatabaseKind}`, () => {
  let t: TestApp;
  let reader: LogKeysetReader;

  beforeAll(async () => {
    t = await buildTestApp();
    const rows: NewLog[] = Array.from({ length: ROWS }, (_, index) => ({
      type: 2,
      user_id: 1,
      username: 'root',
      model_name: MODELS[index % MODELS.length]!,
      quota: index,
      // Five rows per second.
      created_at: T0 + Math.floor(index / 5),
    }));
    await t.app.services.logs.insertMany(rows);
    reader = new LogKeysetReader(t.app.services.logDatabase.db);
  });
  afterAll(async () => t?.close());

  /** Reads `filter` to the end; returns the batch sizes and the rows' quotas in order. */
  const readAll = async (filter: LogFilter) => {
    const sizes: number[] = [];
    const quotas: number[] = [];
    let after = null;
    for (;;) {
      const rows = await reader.batch(filter, after, LIMIT);
      sizes.push(rows.length);
      quotas.push(...rows.map((row) => Number(row.quota)));
      if (rows.length < LIMIT) return { sizes, quotas };
      after = cursorAfter(rows.at(-1)!);
    }
  };

  /** Quotas of the inserted rows that `keep` selects, in the list's order (newest first). */
  const expected = (keep: (index: number) => boolean) =>
    Array.from({ length: ROWS }, (_, index) => index)
      .filter(keep)
      .reverse();

  it('reads every row once, newest first, in full batches', async () => {
    const { sizes, quotas } = await readAll({ start: T0, end: T0 + ROWS });
    expect(quotas).toEqual(expected(() => true));
    expect(sizes.slice(0, -1).every((size) => size === LIMIT)).toBe(true);
    expect(sizes.at(-1)).toBe(ROWS % LIMIT);
  });

  it('reads the rows of several model names merged in the same order', async () => {
    const names = MODELS.slice(0, 2);
    const { quotas } = await readAll({ start: T0, end: T0 + ROWS, modelNames: names });
    expect(quotas).toEqual(expected((index) => index % MODELS.length < 2));
  });

  it('keeps to the time range', async () => {
    const { quotas } = await readAll({ start: T0 + 3, end: T0 + 7 });
    expect(quotas).toEqual(expected((index) => index >= 15 && index < 40));
  });
});
