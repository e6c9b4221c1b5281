import mysql from 'mysql2/promise';
import pg from 'pg';

export type BenchDatabaseKind = 'sqlite' | 'postgres' | 'mysql';

/**
 * Where Switchyard keeps its data in a run: the embedded SQLite file, or a fresh PostgreSQL or
 * MySQL/MariaDB database.
 */
export interface BenchDatabase {
  /** Environment for the Switchyard process (SQL_DSN, REDIS_CONN_STRING). */
  env: Record<string, string>;
  /** Words for the target's label, e.g. "PostgreSQL + Redis". */
  description: string;
  drop(): Promise<void>;
}

const withDatabase = (url: string, name: string) => {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
};

/**
 * The optional server variants (`BENCH_DATABASE=postgres` or `mysql`, with `BENCH_REDIS=1`): a
 * database created for this run on the server `adminUrl` names and dropped afterwards, so every
 * run starts from the same empty schema; Redis database 13 of `redisUrl`'s server.
 */
export async function openBenchDatabase(options: {
  database: BenchDatabaseKind;
  redis: boolean;
  adminUrl: string;
  redisUrl: string;
}): Promise<BenchDatabase> {
  const redisEnv: Record<string, string> = options.redis ? { REDIS_CONN_STRING: options.redisUrl } : {};
  const redisWords = options.redis ? ' + Redis' : '';
  if (options.database === 'sqlite') {
    return { env: redisEnv, description: `SQLite${redisWords}`, drop: async () => undefined };
  }
  const name = `sy_bench_${Date.now().toString(36)}`;
  if (options.database === 'mysql') return openMysqlDatabase(options.adminUrl, name, redisEnv, redisWords);
  const admin = new pg.Client({ connectionString: options.adminUrl });
  await admin.connect().catch((error: Error) => {
    throw new Error(`BENCH_DATABASE=postgres: ${options.adminUrl} is unreachable: ${error.message}`);
  });
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  return {
    env: { SQL_DSN: withDatabase(options.adminUrl, name), ...redisEnv },
    description: `PostgreSQL${redisWords}`,
    async drop() {
      const client = new pg.Client({ connectionString: options.adminUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

async function openMysqlDatabase(
  adminUrl: string,
  name: string,
  redisEnv: Record<string, string>,
  redisWords: string,
): Promise<BenchDatabase> {
  const connect = () =>
    mysql.createConnection(adminUrl).catch((error: Error) => {
      throw new Error(`BENCH_DATABASE=mysql: ${adminUrl} is unreachable: ${error.message}`);
    });
  const admin = await connect();
  await admin.query(`CREATE DATABASE ${name} CHARACTER SET utf8mb4`);
  await admin.end();
  return {
    env: { SQL_DSN: withDatabase(adminUrl, name), ...redisEnv },
    description: `MariaDB/MySQL${redisWords}`,
    async drop() {
      const client = await connect();
      await client.query(`DROP DATABASE IF EXISTS ${name}`);
      await client.end();
    },
  };
}
