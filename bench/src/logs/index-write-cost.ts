/**
 * `npm run bench:log-index-cost -w @switchyard/bench -- [--database sqlite|postgres] [--rows 200000] [--rounds 3]`
 *
 * What the logs indexes cost each written row: one logs table per index set (the set before
 * migration 103, the composites alone, + the model index, + the type index, the full 103 set),
 * each pre-filled with the same rows, then in alternated rounds `--rows` more rows appended to
 * each in batches of 100 (one transaction or statement each, like the settlement's batches).
 * Prints the median microseconds per row of each set and its difference from the first.
 */
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { readCpuMs } from '../processes.ts';
import { emptyTotals, generateLogBatches, LOG_COLUMNS, type LogBatch } from './log-rows.ts';
import { buildWorld, FULL_WORLD } from './log-world.ts';
import { percentile } from './percentile.ts';

type IndexSet = Array<[string, string[]]>;

const BEFORE: IndexSet = [
  ['created_at_type', ['created_at', 'type']],
  ['user_created', ['user_id', 'created_at']],
  ['username', ['username']],
  ['token_name', ['token_name']],
  ['channel_id', ['channel_id']],
  ['token_id', ['token_id']],
  ['group', ['group']],
];
const COMPOSITES: IndexSet = [
  ['created_at_type', ['created_at', 'type']],
  ['user_created', ['user_id', 'created_at']],
  ['username_created', ['username', 'created_at']],
  ['token_name_created', ['token_name', 'created_at']],
  ['channel_created', ['channel_id', 'created_at']],
  ['token_created', ['token_id', 'created_at']],
  ['group_created', ['group', 'created_at']],
];
const MODEL: [string, string[]] = ['model_created', ['model_name', 'created_at']];
const TYPE: [string, string[]] = ['type_created', ['type', 'created_at']];

export const INDEX_SETS: Array<[string, IndexSet]> = [
  ['before 103 (7 indexes)', BEFORE],
  ['composites only (7)', COMPOSITES],
  ['composites + model (8)', [...COMPOSITES, MODEL]],
  ['composites + type (8)', [...COMPOSITES, TYPE]],
  ['103: composites + model + type (9)', [...COMPOSITES, MODEL, TYPE]],
];

const TABLE_SQL = (name: string, kind: 'sqlite' | 'postgres') => `CREATE TABLE ${name} (
  id ${kind === 'sqlite' ? 'INTEGER PRIMARY KEY AUTOINCREMENT' : 'BIGSERIAL PRIMARY KEY'},
  user_id integer NOT NULL DEFAULT 0, created_at bigint NOT NULL DEFAULT 0, type integer NOT NULL DEFAULT 0,
  content text, username varchar(64) NOT NULL DEFAULT '', token_name varchar(255) NOT NULL DEFAULT '',
  model_name varchar(255) NOT NULL DEFAULT '', quota bigint NOT NULL DEFAULT 0, prompt_tokens integer NOT NULL DEFAULT 0,
  completion_tokens integer NOT NULL DEFAULT 0, use_time integer NOT NULL DEFAULT 0, is_stream integer NOT NULL DEFAULT 0,
  channel_id integer NOT NULL DEFAULT 0, token_id integer NOT NULL DEFAULT 0, "group" varchar(64) NOT NULL DEFAULT '',
  ip varchar(64) NOT NULL DEFAULT '', other text)`;

const quoted = (name: string) => `"${name}"`;

function ownCpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

function rowsOf(count: number, from: number): LogBatch[] {
  const world = buildWorld(FULL_WORLD);
  return [
    ...generateLogBatches(
      world,
      { rows: count, from, to: from + count },
      100,
      emptyTotals(),
      () => undefined,
    ),
  ];
}

interface Target {
  /** CPU milliseconds spent by whatever writes the rows (this process; and the PostgreSQL backend). */
  cpuMs(): number;
  insert(table: string, batch: LogBatch): Promise<void>;
  exec(sqlText: string): Promise<void>;
  close(): Promise<void>;
}

function sqliteTarget(): Target {
  const path = join(tmpdir(), 'switchyard-index-cost.db');
  for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  const statements = new Map<string, Database.Statement>();
  const placeholders = `(${LOG_COLUMNS.map(() => '?').join(',')})`;
  return {
    cpuMs: ownCpuMs,
    async insert(table, batch) {
      let statement = statements.get(table);
      if (!statement) {
        statement = db.prepare(
          `INSERT INTO ${table} (${LOG_COLUMNS.map(quoted).join(',')}) VALUES ${Array(100).fill(placeholders).join(',')}`,
        );
        statements.set(table, statement);
      }
      const values: unknown[] = [];
      for (let r = 0; r < batch.length; r++) for (const column of LOG_COLUMNS) values.push(batch[column][r]);
      statement.run(values);
    },
    async exec(sqlText) {
      db.exec(sqlText);
    },
    async close() {
      db.close();
      for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
    },
  };
}

async function postgresTarget(adminUrl: string): Promise<Target> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query('DROP DATABASE IF EXISTS bench_index_cost WITH (FORCE)');
  await admin.query('CREATE DATABASE bench_index_cost');
  const url = new URL(adminUrl);
  url.pathname = '/bench_index_cost';
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  const { rows: backend } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  const backendPid = backend[0]!.pid;
  const types = [
    'int4',
    'int8',
    'int4',
    'text',
    'text',
    'text',
    'text',
    'int8',
    'int4',
    'int4',
    'int4',
    'int4',
    'int4',
    'int4',
    'text',
    'text',
    'text',
  ];
  return {
    cpuMs: () => ownCpuMs() + readCpuMs(backendPid),
    async insert(table, batch) {
      await client.query(
        `INSERT INTO ${table} (${LOG_COLUMNS.map(quoted).join(',')}) SELECT * FROM unnest(${LOG_COLUMNS.map((_, i) => `$${i + 1}::${types[i]}[]`).join(',')})`,
        LOG_COLUMNS.map((column) => batch[column]),
      );
    },
    async exec(sqlText) {
      await client.query(sqlText);
    },
    async close() {
      await client.end();
      await admin.query('DROP DATABASE IF EXISTS bench_index_cost WITH (FORCE)');
      await admin.end();
    },
  };
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const option = (name: string, fallback: string) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1]! : fallback;
  };
  const kind = option('--database', 'sqlite') as 'sqlite' | 'postgres';
  const rows = Number(option('--rows', '200000'));
  const rounds = Number(option('--rounds', '3'));
  const prefill = Number(option('--prefill', '500000'));
  const target =
    kind === 'sqlite'
      ? sqliteTarget()
      : await postgresTarget(
          process.env.BENCH_POSTGRES_URL?.trim() || 'postgres://postgres@127.0.0.1:5432/postgres',
        );
  const start = 1_700_000_000;
  const seedRows = rowsOf(prefill, start);
  const roundRows = Array.from({ length: rounds }, (_, round) =>
    rowsOf(rows, start + prefill + round * rows),
  );
  const tables = INDEX_SETS.map((_, i) => `logs_set${i}`);
  for (const [i, [, indexes]] of INDEX_SETS.entries()) {
    await target.exec(TABLE_SQL(tables[i]!, kind));
    for (const [name, columns] of indexes) {
      await target.exec(
        `CREATE INDEX ${tables[i]}_${name} ON ${tables[i]} (${columns.map(quoted).join(',')})`,
      );
    }
    for (const batch of seedRows) await target.insert(tables[i]!, batch);
  }
  const perRow: number[][] = INDEX_SETS.map(() => []);
  const cpuPerRow: number[][] = INDEX_SETS.map(() => []);
  for (let round = 0; round < rounds; round++) {
    // Alternated order each round, so drift on the shared machine falls on every set alike.
    const order = INDEX_SETS.map((_, i) => i);
    if (round % 2 === 1) order.reverse();
    for (const i of order) {
      const started = performance.now();
      const cpu = target.cpuMs();
      for (const batch of roundRows[round]!) await target.insert(tables[i]!, batch);
      perRow[i]!.push(((performance.now() - started) * 1000) / rows);
      cpuPerRow[i]!.push(((target.cpuMs() - cpu) * 1000) / rows);
    }
    process.stdout.write(
      `round ${round + 1}: ${order.map((i) => `${INDEX_SETS[i]![0]} ${perRow[i]!.at(-1)!.toFixed(2)} µs (CPU ${cpuPerRow[i]!.at(-1)!.toFixed(2)} µs)`).join(', ')}\n`,
    );
  }
  await target.close();
  process.stdout.write(
    `\n${kind}: median µs per row appended (${rounds} rounds of ${rows} rows, tables pre-filled with ${prefill}):\n`,
  );
  const line = (label: string, samples: number[][]) => {
    const base = percentile(samples[0]!, 50);
    process.stdout.write(`${label}\n`);
    for (const [i, [name]] of INDEX_SETS.entries()) {
      const median = percentile(samples[i]!, 50);
      const delta = median - base;
      process.stdout.write(
        `  ${name}: ${median.toFixed(2)} µs (${delta >= 0 ? '+' : ''}${delta.toFixed(2)} µs, ${((delta / base) * 100).toFixed(1)}%)\n`,
      );
    }
  };
  line('CPU time (writer process and database backend):', cpuPerRow);
  line('wall time:', perRow);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
