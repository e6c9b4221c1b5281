/**
 * The time one clean-up batch takes on PostgreSQL and MySQL/MariaDB, by batch size, with the
 * server's own statements (LogBatchDeleter: a clear's batch through the created_at index, and a
 * retention walk's batch by primary key), on a fresh database filled with old consume rows. On
 * these databases a batch does not hold the server's event loop; what it costs the relay is the
 * database's time and the row locks of the batch (other rows, so settlements do not wait on them).
 *
 * npm run bench:retention:dialects -w @switchyard/bench
 *   RETENTION_DIALECT_ROWS (1000000), RETENTION_DIALECTS ("postgres,mysql"),
 *   BENCH_POSTGRES_URL, BENCH_MYSQL_URL (the bench's defaults).
 */
import { cpus, totalmem } from 'node:os';
import { LogType } from '@switchyard/shared';
import { openDatabase } from '../../../apps/server/src/db/database.ts';
import { migrateDatabases } from '../../../apps/server/src/db/migrate.ts';
import { LogRepository, type NewLog } from '../../../apps/server/src/db/repositories/log-repository.ts';
import { LogBatchDeleter } from '../../../apps/server/src/logs/retention/log-batch-deleter.ts';
import { loadBenchConfig } from '../bench-config.ts';
import { type BenchDatabaseKind, openBenchDatabase } from '../bench-database.ts';
import { BATCHES_PER_SIZE, type DialectCost, writeDialectReport } from './retention-report.ts';

const ROWS = Number(process.env.RETENTION_DIALECT_ROWS ?? 1_000_000);
const DIALECTS = (process.env.RETENTION_DIALECTS ?? 'postgres,mysql').split(',') as BenchDatabaseKind[];
const SIZES = [100, 500, 1000, 2000, 5000];
const BATCHES = BATCHES_PER_SIZE;
const DAY = 86_400;

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;
};

async function measure(kind: BenchDatabaseKind): Promise<DialectCost> {
  const config = loadBenchConfig(process.env);
  const bench = await openBenchDatabase({
    database: kind,
    redis: false,
    adminUrl: kind === 'mysql' ? config.mysqlAdminUrl : config.postgresAdminUrl,
    redisUrl: config.redisUrl,
  });
  const url = bench.env.SQL_DSN!;
  const handle = openDatabase({ kind, location: url });
  try {
    await migrateDatabases(handle.db as never, null);
    const now = Math.floor(Date.now() / 1000);
    const started = performance.now();
    const logs = new LogRepository(handle.db);
    const chunk = 2000;
    for (let done = 0; done < ROWS; done += chunk) {
      const rows: NewLog[] = [];
      for (let i = done; i < Math.min(ROWS, done + chunk); i++) {
        rows.push({
          type: LogType.Consume,
          created_at: now - 90 * DAY + Math.floor((i / ROWS) * 59 * DAY),
          user_id: 1 + (i % 1000),
          username: `user${1 + (i % 1000)}`,
          token_name: `token${i % 5000}`,
          model_name: 'gpt-4o-mini',
          quota: 100 + (i % 900),
          content: '',
          other: `{"model_ratio":0.075,"group_ratio":1,"completion_ratio":4,"request_id":"2026${String(i).padStart(16, '0')}"}`,
        });
      }
      await logs.insertMany(rows);
    }
    const fillSeconds = (performance.now() - started) / 1000;
    const deleter = new LogBatchDeleter(handle.db);
    const target = now - 30 * DAY;
    const costs: DialectCost['costs'] = [];
    let cursor = 0;
    for (const size of SIZES) {
      const clears: number[] = [];
      const walks: number[] = [];
      for (let i = 0; i < BATCHES; i++) {
        let at = performance.now();
        await deleter.clearBatch(target, Number.POSITIVE_INFINITY, size);
        clears.push(performance.now() - at);
        at = performance.now();
        const step = await deleter.walk(
          { types: [LogType.Consume], action: 'delete' },
          cursor,
          target,
          Number.POSITIVE_INFINITY,
          size,
        );
        walks.push(performance.now() - at);
        cursor = step.cursor;
      }
      costs.push({
        batchSize: size,
        clearMedian: quantile(clears, 0.5),
        clearP90: quantile(clears, 0.9),
        walkMedian: quantile(walks, 0.5),
        walkP90: quantile(walks, 0.9),
      });
      console.log(kind, costs.at(-1));
    }
    return { database: kind, rows: ROWS, fillSeconds, costs };
  } finally {
    await handle.destroy();
    await bench.drop();
  }
}

const results: DialectCost[] = [];
for (const kind of DIALECTS) results.push(await measure(kind));
const processors = cpus();
writeDialectReport(
  results,
  `${processors.length} × ${processors[0]?.model.trim() ?? 'unknown'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, shared with other work`,
);
