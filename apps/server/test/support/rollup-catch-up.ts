/**
 * The roll-up's catch-up speed and batch cost (not a test; run by hand):
 *   node --conditions=source --import tsx test/support/rollup-catch-up.ts sqlite /tmp/catch-up.db [rows] [batches]
 *   node --conditions=source --import tsx test/support/rollup-catch-up.ts postgres postgres://…/db [rows] [batches]
 * Fills the logs table (when empty) with the bench's density (10M rows over 90 days: 1,000 users,
 * 5,000 tokens, 200 models, 50 channels), then for each batch size in `batches` (comma-separated)
 * empties the aggregates and rolls the table up at full duty, printing rows per second, this
 * process's CPU per row, and batch times.
 */
import type { DatabaseKind } from '../../src/config/env.ts';
import { fixedPacing } from '../../src/logs/retention/cleanup-pacing.ts';
import { LogRollupJob } from '../../src/logs/rollup/log-rollup-job.ts';
import { openFilledLogDatabase } from './filled-log-database.ts';
import { TEN_MILLION } from './log-filler.ts';

const [kind, location, rowsArg, batchesArg] = process.argv.slice(2) as [
  DatabaseKind,
  string,
  string?,
  string?,
];
const rows = Number(rowsArg ?? 300_000);
const sizes = (batchesArg ?? '100,1000,5000').split(',').map(Number);
const days = Math.max(1, Math.round((rows / TEN_MILLION.rows) * TEN_MILLION.days));

const handle = await openFilledLogDatabase(kind, location, rows, days);
const total = Number(
  (
    await handle.db
      .selectFrom('logs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst()
  )?.n,
);

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!;

for (const size of sizes) {
  {
    await handle.db.deleteFrom('log_rollups').execute();
    await handle.db.updateTable('log_rollup_state').set({ rolled_up_through: 0 }).execute();
    const job = new LogRollupJob(
      handle.db,
      kind,
      { warn: (o, m) => console.warn(m, o) },
      { pacing: fixedPacing(size, 0), idleMs: 0, settleMs: 0 },
    );
    const times: number[] = [];
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    for (;;) {
      const b0 = performance.now();
      const counted = await job.runOnce();
      times.push(performance.now() - b0);
      if (counted < size) break;
    }
    const seconds = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(cpu0);
    console.log(
      `${kind} batch ${size}: ${(total / seconds).toFixed(0)} rows/s, ` +
        `${((cpu.user + cpu.system) / total).toFixed(1)} µs CPU/row here, ` +
        `batch p50 ${percentile(times, 0.5).toFixed(1)} ms, p95 ${percentile(times, 0.95).toFixed(1)} ms, ` +
        `max ${Math.max(...times).toFixed(1)} ms (${times.length} batches)`,
    );
  }
}
await handle.destroy();
