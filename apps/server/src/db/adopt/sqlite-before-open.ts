import { existsSync, statSync } from 'node:fs';
import SQLite from 'better-sqlite3';
import { type Kysely, Kysely as KyselyInstance, SqliteDialect } from 'kysely';
import type { AdoptionLog } from './adopt-database.ts';
import { planAdoption } from './adopt-database.ts';
import type { AdoptionPlan } from './plan-adoption.ts';

/** `2026-01-29T03:01:02.345Z` → `20260129-030102`, a file-name-safe UTC time. */
export function backupStamp(now: Date): string {
  return now
    .toISOString()
    .replace(/\.\d+Z$/, '')
    .replace(/[-:]/g, '')
    .replace('T', '-');
}

/**
 * Runs before the SQLite file is opened for writing (which switches it to WAL): reads it
 * read-only, refuses a file Switchyard cannot adopt while it is still untouched, and before the
 * first adoption of a new-api/one-api file copies it to `<file>.pre-switchyard-<time>.bak`.
 * Returns the plan, or null for a missing or empty file (a fresh start).
 */
export async function checkSqliteBeforeOpen(
  file: string,
  log: AdoptionLog,
  now = new Date(),
): Promise<(AdoptionPlan & { backup: string | null }) | null> {
  if (file === '' || file === ':memory:' || !existsSync(file) || statSync(file).size === 0) return null;
  const sqlite = new SQLite(file, { readonly: true, fileMustExist: true });
  const db: Kysely<unknown> = new KyselyInstance<unknown>({
    dialect: new SqliteDialect({ database: sqlite }),
  });
  try {
    const plan = await planAdoption(db, 'sqlite', true);
    let backup: string | null = null;
    if (plan.source.firstAdoption) {
      backup = `${file}.pre-switchyard-${backupStamp(now)}.bak`;
      await sqlite.backup(backup);
      log.info(`adopt: copied ${file} to ${backup} before changing it (restore it to go back)`);
    }
    return { ...plan, backup };
  } finally {
    await db.destroy();
  }
}
