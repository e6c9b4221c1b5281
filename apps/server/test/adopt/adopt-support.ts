import { readFileSync } from 'node:fs';
import SQLite from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { buildApp } from '../../src/app.ts';
import { type DatabaseTarget, loadConfig } from '../../src/config/env.ts';
import { type ConsoleClient, loginTo } from '../helper.ts';
import { type FixtureKind, newApiRows } from './fixtures/new-api-rows.ts';

process.env.BCRYPT_COST ??= '4';

/** Runs SQL statements (`;`-separated text or a list) on the target, outside Switchyard. */
export async function runSql(target: DatabaseTarget, statements: string[]): Promise<void> {
  if (target.kind === 'sqlite') {
    const db = new SQLite(target.location);
    try {
      for (const statement of statements) db.exec(statement);
    } finally {
      db.close();
    }
  } else if (target.kind === 'postgres') {
    const client = new pg.Client({ connectionString: target.location });
    await client.connect();
    try {
      for (const statement of statements) await client.query(statement);
    } finally {
      await client.end();
    }
  } else {
    const connection = await mysql.createConnection({ uri: target.location });
    try {
      for (const statement of statements) await connection.query(statement);
    } finally {
      await connection.end();
    }
  }
}

/** Reads rows with a query outside Switchyard. */
export async function querySql<T>(target: DatabaseTarget, text: string): Promise<T[]> {
  if (target.kind === 'sqlite') {
    const db = new SQLite(target.location, { readonly: true });
    try {
      return db.prepare(text).all() as T[];
    } finally {
      db.close();
    }
  }
  if (target.kind === 'postgres') {
    const client = new pg.Client({ connectionString: target.location });
    await client.connect();
    try {
      return (await client.query(text)).rows as T[];
    } finally {
      await client.end();
    }
  }
  const connection = await mysql.createConnection({ uri: target.location });
  try {
    return (await connection.query(text))[0] as T[];
  } finally {
    await connection.end();
  }
}

/** The statements of a fixture SQL file (comment lines dropped). */
export function statementsOf(file: string): string[] {
  return readFileSync(new URL(`./fixtures/${file}`, import.meta.url), 'utf8')
    .split('\n')
    .filter((line) => !line.startsWith('--'))
    .join('\n')
    .split(/;\s*\n/)
    .map((statement) => statement.trim())
    .filter((statement) => statement !== '');
}

const sequenced = [
  'users',
  'tokens',
  'channels',
  'redemptions',
  'logs',
  'midjourneys',
  'tasks',
  'top_ups',
  'quota_data',
];

/** Writes new-api v0.4.8.9.1's schema and rows into an empty database, as new-api would have. */
export async function writeNewApiDatabase(target: DatabaseTarget, upstream: string): Promise<void> {
  const kind = target.kind as FixtureKind;
  const statements = [...statementsOf(`new-api-v0.4.8.9.1.${kind}.sql`), ...newApiRows(kind, upstream)];
  // Rows written by the Go code advanced PostgreSQL's sequences; explicit ids here do not.
  if (kind === 'postgres') {
    for (const table of sequenced) {
      statements.push(
        `SELECT setval(pg_get_serial_sequence('${table}', 'id'), (SELECT max(id) FROM "${table}"))`,
      );
    }
  }
  await runSql(target, statements);
}

/** A started Switchyard on an existing database. */
export interface AdoptedApp {
  app: FastifyInstance;
  /** Log lines (msg) the server wrote at info level and above. */
  lines: string[];
  login(username: string, password: string): Promise<ConsoleClient>;
  close(): Promise<void>;
}

/** Starts the real server on `target` (the master, which adopts and migrates). */
export async function startOn(target: DatabaseTarget, env: Record<string, string> = {}): Promise<AdoptedApp> {
  const lines: string[] = [];
  const stream = {
    write(line: string) {
      const parsed = JSON.parse(line) as { msg?: string };
      if (parsed.msg) lines.push(parsed.msg);
    },
  };
  const config = {
    ...loadConfig({
      GLOBAL_API_RATE_LIMIT_ENABLE: 'false',
      CRITICAL_RATE_LIMIT: '100000',
      SESSION_SECRET: 'switchyard-test-session-secret',
      SQLITE_CHECKPOINT_MS: '0',
      ...env,
    }),
    database: target,
  };
  const app = await buildApp({ config, logger: { level: 'info', stream } });
  return {
    app,
    lines,
    login: (username, password) => loginTo(app, username, password),
    close: () => app.close(),
  };
}

/** Listens on a free loopback port and returns the base URL, e.g. http://127.0.0.1:PORT. */
export async function listen(server: AdoptedApp): Promise<string> {
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  const address = server.app.server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}
