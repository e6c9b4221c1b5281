/**
 * The by-hand roll-up tools' database (rollup-catch-up.ts, rollup-timings.ts): opened and migrated,
 * and filled at the bench's density when its logs table is empty.
 */
import type { DatabaseKind } from '../../src/config/env.ts';
import { type DatabaseHandle, openDatabase } from '../../src/db/database.ts';
import { migrateDatabases } from '../../src/db/migrate.ts';
import { fillLogs, TEN_MILLION } from './log-filler.ts';

/** A fixed end of the filled range (13:20:34 UTC on a day), so fills are the same from run to run. */
export const FILL_END = 1_765_000_000 - (1_765_000_000 % 86_400) + 13 * 3600 + 1234;

export async function openFilledLogDatabase(
  kind: DatabaseKind,
  location: string,
  rows: number,
  days: number,
): Promise<DatabaseHandle> {
  const handle = openDatabase({ kind, location });
  await migrateDatabases(handle.db as never, null);
  const existing = await handle.db
    .selectFrom('logs')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirst();
  if (Number(existing?.n ?? 0) === 0) {
    const t0 = Date.now();
    const seconds = () => ((Date.now() - t0) / 1000).toFixed(0);
    await fillLogs(handle, { ...TEN_MILLION, rows, days, end: FILL_END }, (done) => {
      if (done % 500_000 < rows / (days * 24)) console.log(`filled ${done} rows in ${seconds()} s`);
    });
    console.log(`fill: ${rows} rows over ${days} days in ${seconds()} s`);
  }
  return handle;
}
