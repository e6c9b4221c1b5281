import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mysql from 'mysql2/promise';
import pg from 'pg';
import type { DatabaseTarget } from '../../src/config/env.ts';

/** Which database the integration suite runs on: TEST_DB=sqlite|postgres|mysql (vitest projects set it). */
export const testDatabaseKind = (process.env.TEST_DB ?? 'sqlite') as 'sqlite' | 'postgres' | 'mysql';

export const POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const MYSQL_URL = process.env.TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test';

/** A throwaway database on the selected server, removed by `drop()`. */
export interface TestDatabase {
  target: DatabaseTarget;
  drop(): Promise<void>;
}

const uniqueName = () =>
  `sy_test_${process.pid}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/**
 * Creates a fresh database (on PostgreSQL a copy of `postgresTemplate` when given: an already
 * migrated one). A PostgreSQL or MariaDB server that is not reachable fails the test loudly: the
 * suite must never silently fall back to SQLite.
 */
export async function createTestDatabase(postgresTemplate?: string): Promise<TestDatabase> {
  if (testDatabaseKind === 'postgres') {
    const name = uniqueName();
    const admin = new pg.Client({ connectionString: POSTGRES_URL });
    await admin.connect().catch((error: Error) => {
      throw new Error(
        `PostgreSQL is required for TEST_DB=postgres but ${POSTGRES_URL} is unreachable: ${error.message}`,
      );
    });
    await admin.query(`CREATE DATABASE ${name}${postgresTemplate ? ` TEMPLATE ${postgresTemplate}` : ''}`);
    await admin.end();
    return {
      target: { kind: 'postgres', location: withDatabase(POSTGRES_URL, name) },
      drop: async () => {
        const client = new pg.Client({ connectionString: POSTGRES_URL });
        await client.connect();
        // pg's Pool.end() resolves before its sockets are gone; dropping with FORCE at that moment
        // kills a closing connection and surfaces as an unhandled error. Wait for them first.
        for (let i = 0; i < 40; i++) {
          const open = await client.query(
            'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1',
            [name],
          );
          if (open.rows[0].n === 0) break;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await client.end();
      },
    };
  }
  if (testDatabaseKind === 'mysql') {
    const name = uniqueName();
    const admin = await mysql.createConnection(MYSQL_URL).catch((error: Error) => {
      throw new Error(
        `MariaDB/MySQL is required for TEST_DB=mysql but ${MYSQL_URL} is unreachable: ${error.message}`,
      );
    });
    await admin.query(`CREATE DATABASE ${name} CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`);
    await admin.end();
    return {
      target: { kind: 'mysql', location: withDatabase(MYSQL_URL, name) },
      drop: async () => {
        const client = await mysql.createConnection(MYSQL_URL);
        await client.query(`DROP DATABASE IF EXISTS ${name}`);
        await client.end();
      },
    };
  }
  const directory = mkdtempSync(join(tmpdir(), 'switchyard-test-'));
  return {
    target: { kind: 'sqlite', location: join(directory, 'test.db') },
    drop: async () => rmSync(directory, { recursive: true, force: true }),
  };
}
