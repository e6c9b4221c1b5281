/**
 * What a big log clean-up costs the relay: a SQLite database with a few million old consume rows,
 * the built server in front of the mock upstream, chat calls at a fixed rate (open loop), and the
 * latency percentiles of a window without clean-up next to a window while the batched deletion
 * runs (started through "clear logs before", the same path as retention), for each pacing
 * (the LOG_CLEANUP_* settings). Writes its section of docs/logs-retention.md.
 *
 * npm run bench:retention -w @switchyard/bench
 *   RETENTION_ROWS (3000000), RETENTION_RATES ("1000,200" req/s), RETENTION_SECONDS (20 per window),
 *   RETENTION_PACINGS (see PACINGS), RETENTION_SKIP_BUILD=1, RETENTION_DB (reuse a filled file),
 *   RETENTION_BATCH_COST=0 (skip the in-process batch timings).
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { startLoadClient } from '../load/load-client.ts';
import type { LoadResult } from '../load/load-jobs.ts';
import { freePort, type SpawnedProcess, spawnProcess, stopAll, waitForHttp } from '../processes.ts';
import { repositoryStartFlags } from '../start-flags.ts';
import { repositoryRoot, setUpSwitchyard, startMock } from '../targets.ts';
import { type BatchCost, measureBatchCost, readBenchKey } from './batch-cost.ts';
import { fillOldLogs } from './fill-old-logs.ts';
import { type PacingResult, type RetentionReport, writeRetentionReport } from './retention-report.ts';

const env = process.env;
const ROWS = Number(env.RETENTION_ROWS ?? 3_000_000);
const RATES = (env.RETENTION_RATES ?? '1000,200').split(',').map(Number);
const SECONDS = Number(env.RETENTION_SECONDS ?? 20);
/**
 * Pacings to compare: `a:<batch ms>/<share %>` sizes batches by time (the server's way, with the
 * default most rows and least pause), `f:<rows>/<pause ms>` fixes both (a batch of that many rows
 * whatever it costs, then that pause).
 */
const PACINGS = (env.RETENTION_PACINGS ?? 'f:500/50,a:25/20,a:10/10,a:5/5').split(',').map(
  (
    entry,
  ): {
    label: string;
    env: Record<string, string>;
  } => {
    const match = /^([af]):(\d+)\/(\d+)$/.exec(entry.trim());
    if (!match) throw new Error(`RETENTION_PACINGS: bad "${entry}" (a:<ms>/<share> or f:<rows>/<pause>)`);
    const [, kind, first, second] = match;
    return kind === 'a'
      ? {
          label: `by time: ${first} ms, ${second}%`,
          env: { LOG_CLEANUP_BATCH_MS: first!, LOG_CLEANUP_SHARE: second! },
        }
      : {
          label: `fixed: ${first} rows, ${second} ms`,
          env: {
            LOG_CLEANUP_BATCH_SIZE: first!,
            LOG_CLEANUP_BATCH_MS: '10000',
            LOG_CLEANUP_PAUSE_MS: second!,
            LOG_CLEANUP_SHARE: '100',
          },
        };
  },
);
/** A database filled by an earlier run (its rows partly deleted by it) instead of a new one. */
const REUSE = env.RETENTION_DB ?? '';
const DAY = 86_400;
const CHAT = JSON.stringify({
  model: 'gpt-4o-mini',
  messages: [{ role: 'user', content: 'Write one short sentence about load testing an AI gateway.' }],
  max_tokens: 64,
});

interface Server {
  url: string;
  process: SpawnedProcess;
}

async function startServer(sqlitePath: string, extra: Record<string, string> = {}): Promise<Server> {
  const port = await freePort();
  const child = spawnProcess(
    'Switchyard',
    process.execPath,
    [...repositoryStartFlags(repositoryRoot), 'apps/server/dist/main.js'],
    {
      cwd: repositoryRoot,
      env: {
        NODE_ENV: 'production',
        PORT: String(port),
        HOST: '127.0.0.1',
        SQLITE_PATH: sqlitePath,
        SESSION_SECRET: randomBytes(24).toString('base64url'),
        GLOBAL_API_RATE_LIMIT_ENABLE: 'false',
        LOG_LEVEL: 'warn',
        SQL_DSN: '',
        LOG_SQL_DSN: '',
        REDIS_CONN_STRING: '',
        ...extra,
      },
    },
  );
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(child, `${url}/api/status`, 120_000);
  return { url, process: child };
}

async function rootSession(url: string): Promise<Record<string, string>> {
  const response = await fetch(`${url}/api/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'root', password: '123456' }),
  });
  const body = (await response.json()) as { data: { id: number } };
  const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  return { cookie, 'new-api-user': String(body.data.id) };
}

async function consoleJson(url: string, path: string, session: Record<string, string>, method = 'GET') {
  const response = await fetch(`${url}${path}`, { method, headers: session });
  const body = (await response.json()) as { success: boolean; message: string; data: unknown };
  if (!body.success) throw new Error(`${method} ${path}: ${body.message}`);
  return body.data;
}

async function main() {
  if (env.RETENTION_SKIP_BUILD !== '1') {
    const build = spawnSync('npm', ['run', 'build', '--silent', '-w', '@switchyard/server'], {
      cwd: repositoryRoot,
      stdio: 'inherit',
    });
    if (build.status !== 0) throw new Error('building the server failed');
  }
  const directory = REUSE ? '' : mkdtempSync(join(tmpdir(), 'switchyard-retention-'));
  const sqlitePath = REUSE || join(directory, 'switchyard.db');
  const mock = await startMock(null);
  const load = await startLoadClient(null);
  const results: PacingResult[] = [];
  let report!: RetentionReport;
  try {
    const now = Math.floor(Date.now() / 1000);
    let key: string;
    let fillSeconds = 0;
    let batchCost: BatchCost[] = [];
    if (REUSE && existsSync(REUSE)) {
      key = readBenchKey(REUSE, mock.url);
    } else {
      const first = await startServer(sqlitePath);
      key = await setUpSwitchyard(first.url, mock.url);
      await first.process.stop();
      console.log(`filling ${ROWS} old consume rows…`);
      fillSeconds = fillOldLogs(sqlitePath, ROWS, now - 90 * DAY, now - 31 * DAY);
      console.log(`filled in ${fillSeconds.toFixed(0)} s`);
    }
    if (env.RETENTION_BATCH_COST !== '0') {
      batchCost = measureBatchCost(sqlitePath, now - 30 * DAY, [50, 100, 200, 500, 1000, 2000]);
      console.log(batchCost);
    }
    const spec = {
      url: '',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: CHAT,
    };
    for (const pacing of PACINGS) {
      for (const rate of RATES) {
        const server = await startServer(sqlitePath, pacing.env);
        const session = await rootSession(server.url);
        const url = `${server.url}/v1/chat/completions`;
        const run = (seconds: number): Promise<LoadResult> =>
          load.run({ kind: 'paced', rate, durationSeconds: seconds, ...spec, url });
        await run(5); // warm-up
        const loadBefore = loadavg()[0]!;
        const quiet = await run(SECONDS);
        const startedAt = performance.now();
        await consoleJson(server.url, `/api/log/?target_timestamp=${now - 30 * DAY}`, session, 'DELETE');
        const busy = await run(SECONDS);
        const seconds = (performance.now() - startedAt) / 1000;
        const progress = (await consoleJson(server.url, '/api/log/clear_progress', session)) as {
          state: string;
          deleted: number;
        };
        results.push({
          pacing: pacing.label,
          rate,
          quiet,
          busy,
          deleted: progress.deleted,
          rowsPerSecond: progress.deleted / seconds,
          stillRunning: progress.state === 'running',
          loadAverage: [loadBefore, loadavg()[0]!],
        });
        console.log(
          `${rate} req/s, ${pacing.label}: p99 ${quiet.latency.p99.toFixed(1)} → ${busy.latency.p99.toFixed(1)} ms, ${progress.deleted} rows deleted`,
        );
        await server.process.stop();
      }
    }
    report = {
      date: new Date().toISOString(),
      machine: machineWords(),
      rows: ROWS,
      fillSeconds,
      seconds: SECONDS,
      batchCost,
      results,
    };
  } finally {
    await stopAll();
    if (directory) rmSync(directory, { recursive: true, force: true });
  }
  writeRetentionReport(report);
}

function machineWords(): string {
  const processors = cpus();
  return `${processors.length} × ${processors[0]?.model.trim() ?? 'unknown'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
}

main().catch(async (error: unknown) => {
  console.error(error);
  await stopAll();
  process.exit(1);
});
