import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/db/database.ts';
import { migrateDatabases } from '../../src/db/migrate.ts';
import { POSTGRES_URL, withDatabase } from './test-database.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A PostgreSQL database migrated by this run, copied by `buildTestApp` (none elsewhere). */
    postgresTemplate: string | undefined;
  }
}

/**
 * Global setup of the server projects: on PostgreSQL, migrates one database of this run that
 * `buildTestApp` copies (`CREATE DATABASE … TEMPLATE`, a tenth of the time of the migrations)
 * for each app it builds. The copy is the migrated schema and nothing more: the app seeds it as
 * it seeds a database it migrated itself. Dropped after the run.
 */
export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  if (project.config.env?.TEST_DB !== 'postgres') {
    project.provide('postgresTemplate', undefined);
    return undefined;
  }
  const name = `sy_template_${process.pid}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect().catch((error: Error) => {
    throw new Error(
      `PostgreSQL is required for TEST_DB=postgres but ${POSTGRES_URL} is unreachable: ${error.message}`,
    );
  });
  try {
    await admin.query(`CREATE DATABASE ${name}`);
    const handle = openDatabase({ kind: 'postgres', location: withDatabase(POSTGRES_URL, name) });
    try {
      await migrateDatabases(handle.db as never, null);
    } finally {
      await handle.destroy();
    }
  } finally {
    await admin.end();
  }
  project.provide('postgresTemplate', name);
  return async () => {
    const client = new pg.Client({ connectionString: POSTGRES_URL });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.end();
  };
}
