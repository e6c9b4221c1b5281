/**
 * Query timings of the stat and dashboard reads on a filled log table (not a test; run by hand):
 *   node --conditions=source --import tsx test/support/rollup-timings.ts sqlite /tmp/logs.db [rows] [days]
 *   node --conditions=source --import tsx test/support/rollup-timings.ts postgres postgres://…/db [rows] [days]
 * Fills the database when its logs table is empty, rolls it up (timed), then runs each query
 * 30 times and prints p50 / p95 in milliseconds.
 */
import type { DatabaseKind } from '../../src/config/env.ts';
import { sumQuotaDataIntoModels } from '../../src/db/migrations/011-quota-data-models.ts';
import { type LogFilter, LogRepository } from '../../src/db/repositories/log-repository.ts';
import { QuotaDataReader } from '../../src/logs/quota-data-reader.ts';
import { HOURLY, slotOfQuery } from '../../src/logs/quota-data-slots.ts';
import { fixedPacing } from '../../src/logs/retention/cleanup-pacing.ts';
import { LogRollupJob } from '../../src/logs/rollup/log-rollup-job.ts';
import { rolledUpThrough } from '../../src/logs/rollup/rolled-up-through.ts';
import { sumLogs } from '../../src/logs/rollup/rollup-stat-query.ts';
import { FILL_END, openFilledLogDatabase } from './filled-log-database.ts';
import { TEN_MILLION } from './log-filler.ts';

const [kind, location, rowsArg, daysArg, skipRaw] = process.argv.slice(2) as [
  DatabaseKind,
  string,
  string?,
  string?,
  string?,
];
const rows = Number(rowsArg ?? TEN_MILLION.rows);
const days = Number(daysArg ?? TEN_MILLION.days);

const handle = await openFilledLogDatabase(kind, location, rows, days);

const models = await handle.db.selectFrom('quota_data_models').select('id').limit(1).execute();
if (models.length === 0) {
  const t0 = Date.now();
  await sumQuotaDataIntoModels(handle.db as never);
  console.log(`quota_data_models filled from quota_data in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

const job = new LogRollupJob(
  handle.db,
  handle.kind,
  { warn: (o, m) => console.warn(m, o) },
  { pacing: fixedPacing(5000, 0), idleMs: 0, settleMs: 0 },
);
const r0 = Date.now();
const cpu0 = process.cpuUsage();
const from = await rolledUpThrough(handle.db);
let batches = 0;
const batchTimes: number[] = [];
for (;;) {
  const b0 = performance.now();
  const n = await job.runOnce();
  batchTimes.push(performance.now() - b0);
  batches++;
  if (n < 5000) break;
  if (batches % 200 === 0) console.log(`rolled up through ${await rolledUpThrough(handle.db)}`);
}
const through = await rolledUpThrough(handle.db);
const seconds = (Date.now() - r0) / 1000;
const cpu = process.cpuUsage(cpu0);
console.log(
  `roll-up CPU of this process: ${((cpu.user + cpu.system) / Math.max(1, through - from)).toFixed(1)} µs per row`,
);
console.log(
  `roll-up: ${through - from} ids in ${seconds.toFixed(0)} s (${((through - from) / Math.max(seconds, 0.001)).toFixed(0)} rows/s), batch of 5000 p50 ${pct(batchTimes, 50).toFixed(0)} ms p95 ${pct(batchTimes, 95).toFixed(0)} ms`,
);
const sizes = await handle.db
  .selectFrom('log_rollups')
  .select(['grain', 'span', (eb) => eb.fn.countAll<number>().as('n')])
  .groupBy(['grain', 'span'])
  .orderBy('grain')
  .orderBy('span')
  .execute();
console.log(
  `log_rollups rows: ${sizes.map((s) => `g${s.grain}/${s.span === 3600 ? 'h' : 'd'}=${s.n}`).join(' ')}`,
);

function pct(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

async function time(label: string, run: (i: number) => Promise<unknown>, runs = 30) {
  for (let i = 0; i < 3; i++) await run(i);
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await run(i);
    ms.push(performance.now() - t);
  }
  console.log(`| ${label} | ${pct(ms, 50).toFixed(1)} | ${pct(ms, 95).toFixed(1)} |`);
}

const DAY = 86_400;
const jitter = (i: number) => (i * 7919) % 3600;
const last = (span: number, i: number) => ({ start: FILL_END - span - jitter(i), end: FILL_END - jitter(i) });
const stat: Array<[string, (i: number) => LogFilter]> = [
  ['stat: no filter', () => ({})],
  ['stat: last 24 h', (i) => last(DAY, i)],
  ['stat: last 7 days', (i) => last(7 * DAY, i)],
  ['stat: last 30 days, type 2', (i) => ({ ...last(30 * DAY, i), type: 2 })],
  ['stat: model contains, 7 days', (i) => ({ ...last(7 * DAY, i), modelName: `model-${i % 200}` })],
  ['stat: channel, 30 days', (i) => ({ ...last(30 * DAY, i), channelId: 1 + (i % 50) })],
  ['stat: group, 90 days', (i) => ({ ...last(90 * DAY, i), group: 'vip' })],
  ['stat: username, all time', (i) => ({ username: `user${1 + ((i * 37) % 1000)}` })],
  ['stat: token name, 7 days', (i) => ({ ...last(7 * DAY, i), tokenName: `token${(i * 131) % 5000}` })],
  ['self stat: user, 30 days', (i) => ({ ...last(30 * DAY, i), userId: 1 + ((i * 37) % 1000) })],
  ['self stat: user + model, all time', (i) => ({ userId: 1 + ((i * 37) % 1000), modelName: 'model-1' })],
  [
    'stat: model + channel, 7 days',
    (i) => ({ ...last(7 * DAY, i), modelName: 'model-3', channelId: 1 + (i % 50) }),
  ],
];
console.log('| query | p50 ms | p95 ms |\n|---|---|---|');
for (const [label, filter] of stat) await time(label, (i) => sumLogs(handle.db, filter(i)));
const logs = new LogRepository(handle.db);
await time('stat rpm/tpm (last 60 s, raw)', () => logs.recentConsumption({}, FILL_END - 60));
const quotaData = new QuotaDataReader(handle);
const localDays = slotOfQuery('day', 480);
await time('dashboard admin: last 24 h', (i) =>
  quotaData.sumByModel(FILL_END - DAY - jitter(i), FILL_END, HOURLY),
);
await time('dashboard admin: last 7 days, by day', (i) =>
  quotaData.sumByModel(FILL_END - 7 * DAY - jitter(i), FILL_END, localDays),
);
await time('dashboard username: last 24 h', (i) =>
  quotaData.listByUsername(`user${1 + ((i * 37) % 1000)}`, FILL_END - DAY - jitter(i), FILL_END, HOURLY),
);
await time('dashboard self: last 30 days, by day', (i) =>
  quotaData.listByUser(1 + ((i * 37) % 1000), FILL_END - 30 * DAY, FILL_END, localDays),
);
if (skipRaw !== 'skip-raw') {
  console.log('raw rows (before the aggregates), 3 runs:');
  for (const [label, filter] of stat.slice(0, 4))
    await time(`raw ${label}`, (i) => logs.sumQuota(filter(i)), 3);
}
await handle.destroy();
