/**
 * `npm run bench:logs -- [--database sqlite|postgres] [--rows N] [--label before] [--reuse] [--skip-build]`
 * (`--render-only`: re-render docs/logs-at-scale.md from the saved results)
 *
 * Fills a fresh database (schema from the built server's own migrations) with N log rows (10M by
 * default), starts the real server on it, and times the console's log, stat, dashboard and usage
 * queries. Saves bench/results/logs-<database>[-<label>].json and re-renders docs/logs-at-scale.md
 * from every saved result. `--reuse` measures the table an earlier run left (its description is
 * kept beside it), e.g. before and after a change to the server.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { machineInfo } from '../machine-info.ts';
import { backgroundCpu, freePort, spawnProcess, stopAll, waitForHttp } from '../processes.ts';
import { repositoryStartFlags } from '../start-flags.ts';
import { buildSwitchyard, repositoryRoot } from '../targets.ts';
import { consoleQueries, subjectsOf, timeRanges } from './console-queries.ts';
import { accessTokenOf } from './console-rows.ts';
import { fillLogs } from './fill-logs.ts';
import { openPostgresFill } from './fill-postgres.ts';
import { openSqliteFill } from './fill-sqlite.ts';
import { buildWorld, FULL_WORLD } from './log-world.ts';
import { type LogsBenchResult, renderLogsReport, verdict } from './logs-report.ts';
import { DEFAULT_MEASURE, measureQuery, type QueryTiming } from './measure-queries.ts';
import { waitForLogAggregates } from './wait-for-log-aggregates.ts';

interface Options {
  database: 'sqlite' | 'postgres';
  rows: number;
  label: string;
  reuse: boolean;
  skipBuild: boolean;
  postgresUrl: string;
  only: string | null;
  budgetMs: number;
  minSamples: number;
  /** Kinds of query left out (e.g. stat,dashboard for a quick baseline of the lists). */
  skip: string[];
}

function readOptions(argv: string[]): Options {
  const value = (name: string) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const database = value('--database') ?? process.env.BENCH_DATABASE ?? 'sqlite';
  if (database !== 'sqlite' && database !== 'postgres')
    throw new Error(`--database must be sqlite or postgres, got ${database}`);
  const rows = Number((value('--rows') ?? '10000000').replace(/_/g, ''));
  if (!Number.isInteger(rows) || rows < 1000) throw new Error('--rows must be an integer ≥ 1000');
  return {
    database,
    rows,
    label: value('--label') ?? 'current',
    reuse: argv.includes('--reuse'),
    skipBuild: argv.includes('--skip-build'),
    postgresUrl: process.env.BENCH_POSTGRES_URL?.trim() || 'postgres://postgres@127.0.0.1:5432/postgres',
    only: value('--only') ?? null,
    budgetMs: Number(value('--budget-ms') ?? DEFAULT_MEASURE.budgetMs),
    minSamples: Number(value('--min-samples') ?? DEFAULT_MEASURE.minSamples),
    skip: (value('--skip') ?? '').split(',').filter(Boolean),
  };
}

/** Where the SQLite file and the filled tables' descriptions live (BENCH_LOGS_DIR to keep two). */
const DATA_DIRECTORY = process.env.BENCH_LOGS_DIR?.trim() || join(tmpdir(), 'switchyard-bench-logs');
const POSTGRES_DATABASE = 'bench_logs';
const resultsDirectory = join(repositoryRoot, 'bench/results');
const log = (line: string) => process.stdout.write(`${line}\n`);

interface FilledTable {
  rows: number;
  requestId: string;
  fill: LogsBenchResult['fill'];
}

function postgresDsn(adminUrl: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${POSTGRES_DATABASE}`;
  return url.toString();
}

async function freshPostgres(adminUrl: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${POSTGRES_DATABASE} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${POSTGRES_DATABASE}`);
  await admin.end();
}

async function postgresSize(dsn: string): Promise<number> {
  const client = new pg.Client({ connectionString: dsn });
  await client.connect();
  const { rows } = await client.query<{ size: string }>(
    'SELECT pg_database_size(current_database()) AS size',
  );
  await client.end();
  return Number(rows[0]?.size ?? 0);
}

function sqliteSize(path: string): number {
  return ['', '-wal'].reduce(
    (sum, suffix) => sum + (existsSync(path + suffix) ? statSync(path + suffix).size : 0),
    0,
  );
}

function serverEnv(options: Options): Record<string, string> {
  return {
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    SQLITE_PATH: join(DATA_DIRECTORY, 'logs.db'),
    DATA_DIR: DATA_DIRECTORY,
    SESSION_SECRET: randomBytes(24).toString('base64url'),
    GLOBAL_API_RATE_LIMIT_ENABLE: 'false',
    GLOBAL_WEB_RATE_LIMIT_ENABLE: 'false',
    CRITICAL_RATE_LIMIT: '100000',
    LOG_LEVEL: 'warn',
    // The roll-up catches up on the filled table at full duty (nothing else runs meanwhile): long
    // batches, no rest.
    LOG_ROLLUP_SHARE: '100',
    LOG_ROLLUP_PAUSE_MS: '0',
    LOG_ROLLUP_BATCH_MS: '1000',
    LOG_ROLLUP_BATCH_ROWS: '1000000',
    LOG_ROLLUP_SETTLE_MS: '0',
    SQL_DSN: options.database === 'postgres' ? postgresDsn(options.postgresUrl) : '',
    LOG_SQL_DSN: '',
    REDIS_CONN_STRING: '',
  };
}

/** Starts the built server as `npm start` does; the first start on an empty database runs the migrations and creates root. */
async function startServer(options: Options) {
  const port = await freePort();
  const child = spawnProcess(
    'Switchyard',
    process.execPath,
    [
      ...repositoryStartFlags(repositoryRoot),
      process.env.BENCH_SWITCHYARD_MAIN || 'apps/server/dist/main.js',
    ],
    {
      cwd: repositoryRoot,
      env: { ...serverEnv(options), PORT: String(port) },
    },
  );
  const url = `http://127.0.0.1:${port}`;
  // A migration that builds an index on a filled table may take minutes.
  await waitForHttp(child, `${url}/api/status`, 30 * 60_000);
  return { url, child };
}

async function fillFresh(options: Options): Promise<FilledTable> {
  const sqlitePath = join(DATA_DIRECTORY, 'logs.db');
  if (options.database === 'sqlite') {
    for (const suffix of ['', '-wal', '-shm']) rmSync(sqlitePath + suffix, { force: true });
  } else {
    await freshPostgres(options.postgresUrl);
  }
  log('migrating the empty database with the built server');
  const server = await startServer(options);
  await server.child.stop();
  const world = buildWorld(FULL_WORLD);
  const fill =
    options.database === 'sqlite'
      ? openSqliteFill(sqlitePath)
      : await openPostgresFill(postgresDsn(options.postgresUrl));
  log(`filling ${options.rows.toLocaleString('en-US')} rows`);
  try {
    const outcome = await fillLogs(fill, world, options.rows, Math.floor(Date.now() / 1000), log);
    const sizeBytes =
      options.database === 'sqlite'
        ? sqliteSize(sqlitePath)
        : await postgresSize(postgresDsn(options.postgresUrl));
    return {
      rows: options.rows,
      requestId: outcome.requestId,
      fill: { seconds: outcome.seconds, indexSeconds: outcome.indexSeconds, sizeBytes },
    };
  } catch (error) {
    await fill.close();
    throw error;
  }
}

async function login(url: string): Promise<{ cookie: string; id: number }> {
  const response = await fetch(`${url}/api/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'root', password: '123456' }),
  });
  const answer = (await response.json()) as { success: boolean; message?: string; data?: { id: number } };
  const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  if (!answer.success || !answer.data || cookie === '')
    throw new Error(`root login failed: ${answer.message}`);
  return { cookie, id: answer.data.id };
}

function loadResults(): LogsBenchResult[] {
  if (!existsSync(resultsDirectory)) return [];
  return readdirSync(resultsDirectory)
    .filter((name) => /^logs-.*\.json$/.test(name))
    .sort()
    .map((name) => JSON.parse(readFileSync(join(resultsDirectory, name), 'utf8')) as LogsBenchResult);
}

async function main(): Promise<void> {
  const options = readOptions(process.argv.slice(2));
  if (process.argv.includes('--render-only')) {
    writeFileSync(join(repositoryRoot, 'docs/logs-at-scale.md'), renderLogsReport(loadResults()));
    log('wrote docs/logs-at-scale.md');
    return;
  }
  mkdirSync(DATA_DIRECTORY, { recursive: true });
  buildSwitchyard({ switchyardMode: 'dist', skipBuild: options.skipBuild } as Parameters<
    typeof buildSwitchyard
  >[0]);
  const descriptionPath = join(DATA_DIRECTORY, `${options.database}.json`);
  let table: FilledTable;
  if (options.reuse) {
    if (!existsSync(descriptionPath))
      throw new Error(`--reuse: no filled ${options.database} table (${descriptionPath})`);
    table = { ...(JSON.parse(readFileSync(descriptionPath, 'utf8')) as FilledTable), fill: null };
  } else {
    table = await fillFresh(options);
    writeFileSync(descriptionPath, JSON.stringify(table));
    log(`filled in ${Math.round(table.fill!.seconds)} s`);
  }
  log('starting the server on the filled database');
  const server = await startServer(options);
  await waitForLogAggregates(
    options.database === 'sqlite'
      ? { database: 'sqlite', path: join(DATA_DIRECTORY, 'logs.db') }
      : { database: 'postgres', dsn: postgresDsn(options.postgresUrl) },
    log,
  );
  const admin = await login(server.url);
  const world = buildWorld(FULL_WORLD);
  const subjects = subjectsOf(world, table.requestId);
  const userHeaders = (id: number) => ({ authorization: accessTokenOf(id), 'new-api-user': String(id) });
  const headers = {
    admin: { cookie: admin.cookie, 'new-api-user': String(admin.id) },
    'heavy-user': userHeaders(subjects.heavyUser.id),
    'median-user': userHeaders(subjects.medianUser.id),
    'token-key': {},
  };
  const queries = consoleQueries(subjects, timeRanges(new Date())).filter(
    (q) => (!options.only || q.name.includes(options.only)) && !options.skip.includes(q.kind),
  );
  const loadAtStart = loadavg()[0]!;
  const others = backgroundCpu(machineInfo({ switchyardMode: 'dist' }).cores);
  const timings: QueryTiming[] = [];
  for (const query of queries) {
    const timing = await measureQuery(server.url, query, headers, {
      ...DEFAULT_MEASURE,
      budgetMs: options.budgetMs,
      minSamples: options.minSamples,
      warmup: Math.min(DEFAULT_MEASURE.warmup, options.minSamples),
    });
    timings.push(timing);
    log(
      `  ${timing.name}: p50 ${timing.p50Ms.toFixed(1)} ms, p95 ${timing.p95Ms.toFixed(1)} ms (n=${timing.samples}, rows ${timing.rows}) ${verdict(timing)}`,
    );
  }
  const result: LogsBenchResult = {
    database: options.database,
    label: options.label,
    rows: table.rows,
    machine: machineInfo({ switchyardMode: 'dist' }),
    fill: table.fill,
    load: { loadAverage: [loadAtStart, loadavg()[0]!], otherCpuPercent: others.stop() },
    measuredAt: new Date().toISOString(),
    timings,
  };
  await server.child.stop();
  if (options.only) return;
  mkdirSync(resultsDirectory, { recursive: true });
  const suffix = options.label === 'current' ? '' : `-${options.label}`;
  writeFileSync(
    join(resultsDirectory, `logs-${options.database}${suffix}.json`),
    `${JSON.stringify(result, null, 2)}\n`,
  );
  writeFileSync(join(repositoryRoot, 'docs/logs-at-scale.md'), renderLogsReport(loadResults()));
  log('wrote docs/logs-at-scale.md');
}

main()
  .catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  })
  .finally(() => stopAll());
