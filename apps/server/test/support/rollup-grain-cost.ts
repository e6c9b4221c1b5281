/**
 * What each grain and span costs the roll-up (not a test; run by hand):
 *   node --conditions=source --import tsx test/support/rollup-grain-cost.ts sqlite /tmp/grain-cost.db [rows] [batch]
 *   node --conditions=source --import tsx test/support/rollup-grain-cost.ts postgres postgres://…/db [rows] [batch]
 * Fills the logs table at the bench's density (10M rows over 90 days) when it is empty, empties
 * the aggregates, and rolls the table up in batches of `batch` rows, each in one transaction as
 * the job runs them, timing each grain and span's statement on its own. Prints, per grain and
 * span, the median milliseconds and log_rollups rows written per batch and the share of the batch.
 */
import type { DatabaseKind } from '../../src/config/env.ts';
import { ROLLUP_GRAINS } from '../../src/logs/rollup/rollup-grains.ts';
import { rollUpGrainSpan } from '../../src/logs/rollup/rollup-sql.ts';
import { openFilledLogDatabase } from './filled-log-database.ts';
import { TEN_MILLION } from './log-filler.ts';

const [kind, location, rowsArg, batchArg] = process.argv.slice(2) as [DatabaseKind, string, string?, string?];
const rows = Number(rowsArg ?? 300_000);
const batch = Number(batchArg ?? 1000);
const days = Math.max(1, Math.round((rows / TEN_MILLION.rows) * TEN_MILLION.days));
const handle = await openFilledLogDatabase(kind, location, rows, days);
await handle.db.deleteFrom('log_rollups').execute();
const newest = Number(
  (
    await handle.db
      .selectFrom('logs')
      .select((eb) => eb.fn.max<number>('id').as('id'))
      .executeTakeFirst()
  )?.id ?? 0,
);

const parts = ROLLUP_GRAINS.flatMap((grain) => grain.spans.map((span) => ({ grain, span })));
const times = parts.map(() => [] as number[]);
const written = parts.map(() => [] as number[]);
const totals: number[] = [];
for (let after = 0; after < newest; after += batch) {
  const through = Math.min(newest, after + batch);
  const started = performance.now();
  await handle.db.transaction().execute(async (trx) => {
    for (const [i, { grain, span }] of parts.entries()) {
      const t0 = performance.now();
      written[i]!.push(Number(await rollUpGrainSpan(trx, kind, grain, span, after, through)));
      times[i]!.push(performance.now() - t0);
    }
  });
  totals.push(performance.now() - started);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
const allTime = sum(totals);
console.log(
  `${kind}: ${newest} rows in ${totals.length} batches of ${batch}; batch median ${median(totals).toFixed(1)} ms`,
);
console.log('grain span    ms/batch (median)  rows written/batch (mean)  share of time');
for (const [i, { grain, span }] of parts.entries()) {
  console.log(
    `${String(grain.id).padStart(5)} ${(span === 3600 ? 'hour' : 'day').padEnd(5)} ${median(times[i]!).toFixed(2).padStart(19)}` +
      ` ${(sum(written[i]!) / written[i]!.length).toFixed(0).padStart(26)} ${((100 * sum(times[i]!)) / allTime).toFixed(1).padStart(13)}%`,
  );
}
await handle.destroy();
