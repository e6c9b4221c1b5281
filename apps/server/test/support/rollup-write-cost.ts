/**
 * The write side of the log roll-up (not a test; run by hand):
 *   node --conditions=source --import tsx test/support/rollup-write-cost.ts sqlite /tmp/cost.db [rows] [rounds]
 * Inserts `rows` consume rows in batches of 1,000 (as the settlement writer and the journal mover
 * write them), alternating rounds without and with the roll-up job running beside the inserts in
 * the same process, and prints the median time of the inserts and the CPU per row (inserts, and with
 * the job also its roll-up of those rows) of each mode. The relay
 * path itself gains no statement and no index; this is the cost of the background job.
 */
import { rmSync } from 'node:fs';
import type { DatabaseKind } from '../../src/config/env.ts';
import { openDatabase } from '../../src/db/database.ts';
import { migrateDatabases } from '../../src/db/migrate.ts';
import { LogRepository } from '../../src/db/repositories/log-repository.ts';
import { LogRollupJob } from '../../src/logs/rollup/log-rollup-job.ts';
import { rolledUpThrough } from '../../src/logs/rollup/rolled-up-through.ts';
import { rollupTimingFor } from '../../src/logs/rollup/rollup-timing.ts';
import { randomLogs, seeded } from '../rollup/rollup-fixtures.ts';

const [kind, location, rowsArg, roundsArg] = process.argv.slice(2) as [
  DatabaseKind,
  string,
  string?,
  string?,
];
const rows = Number(rowsArg ?? 100_000);
const rounds = Number(roundsArg ?? 5);
if (kind === 'sqlite') rmSync(location, { force: true });
const handle = openDatabase({ kind, location });
await migrateDatabases(handle.db as never, null);
const logs = new LogRepository(handle.db);
const random = seeded(5);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const results: Record<'off' | 'on', { wall: number[]; cpu: number[] }> = {
  off: { wall: [], cpu: [] },
  on: { wall: [], cpu: [] },
};
// A job that has caught up before each round, so 'on' measures steady-state work.
const job = new LogRollupJob(
  handle.db,
  handle.kind,
  { warn: () => undefined },
  { ...rollupTimingFor(kind), settleMs: 0, idleMs: 200 },
);
for (let round = 0; round < rounds; round++) {
  for (const mode of round % 2 === 0 ? (['off', 'on'] as const) : (['on', 'off'] as const)) {
    const batch = randomLogs(random, rows).map((row) => ({
      ...row,
      created_at: Math.floor(Date.now() / 1000),
    }));
    await job.catchUp();
    const roller =
      mode === 'on'
        ? new LogRollupJob(
            handle.db,
            handle.kind,
            { warn: () => undefined },
            { ...rollupTimingFor(kind), settleMs: 0, idleMs: 200 },
          )
        : null;
    roller?.start();
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    for (let i = 0; i < batch.length; i += 1000) await logs.insertMany(batch.slice(i, i + 1000));
    const wall = (performance.now() - t0) * 1000;
    if (roller) {
      // Count the roll-up's work for these rows too: wait until it has passed them.
      const last = Number(
        (
          await handle.db
            .selectFrom('logs')
            .select((eb) => eb.fn.max('id').as('id'))
            .executeTakeFirst()
        )?.id,
      );
      while ((await rolledUpThrough(handle.db)) < last)
        await new Promise((resolve) => setTimeout(resolve, 20));
      await roller.stop();
    }
    const cpu = process.cpuUsage(cpu0);
    results[mode].wall.push(wall / rows);
    results[mode].cpu.push((cpu.user + cpu.system) / rows);
  }
}
for (const mode of ['off', 'on'] as const) {
  console.log(
    `${mode === 'on' ? 'with roll-up   ' : 'without roll-up'}: median ${median(results[mode].wall).toFixed(1)} µs wall, ${median(results[mode].cpu).toFixed(1)} µs CPU per row (rounds: ${results[mode].cpu.map((v) => v.toFixed(1)).join(', ')})`,
  );
}
await handle.destroy();
