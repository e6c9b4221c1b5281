/** Fills a migrated, empty database with the world's log rows, its console rows and dashboard buckets. */
import { channelRows, tokenRows, userRows } from './console-rows.ts';
import type { LogFill } from './log-fill.ts';
import { emptyTotals, generateLogBatches, type QuotaBucket } from './log-rows.ts';
import type { World } from './log-world.ts';

export interface FillOutcome {
  seconds: number;
  indexSeconds: number;
  /** The request id of a consume row about two thirds into the table (about a month old). */
  requestId: string;
}

const BATCH = 10_000;

export async function fillLogs(
  fill: LogFill,
  world: World,
  rows: number,
  now: number,
  progress: (line: string) => void,
): Promise<FillOutcome> {
  const started = performance.now();
  const totals = emptyTotals();
  const plan = { rows, from: now - 90 * 86400, to: now - 60 };
  const target = Math.floor((rows * 2) / 3);
  let requestId = '';
  let pendingBuckets: QuotaBucket[] = [];
  let done = 0;
  let lastReport = started;
  for (const batch of generateLogBatches(world, plan, BATCH, totals, (buckets) => {
    pendingBuckets = pendingBuckets.concat(buckets);
  })) {
    await fill.insertLogs(batch);
    if (pendingBuckets.length >= 20_000) {
      await fill.insertBuckets(pendingBuckets);
      pendingBuckets = [];
    }
    if (requestId === '' && done + batch.length > target) {
      for (let i = 0; i < batch.length && requestId === ''; i++) {
        const match = /"request_id":"([^"]+)"/.exec(batch.other[i]!);
        if (batch.type[i] === 2 && match && done + i >= target) requestId = match[1]!;
      }
    }
    done += batch.length;
    if (performance.now() - lastReport > 10_000) {
      lastReport = performance.now();
      const rate = done / ((lastReport - started) / 1000);
      progress(`  ${done.toLocaleString('en-US')} rows (${Math.round(rate).toLocaleString('en-US')}/s)`);
    }
  }
  if (pendingBuckets.length > 0) await fill.insertBuckets(pendingBuckets);
  await fill.insertConsoleRows([
    ['users', userRows(world, totals, plan.from)],
    ['tokens', tokenRows(world, totals, plan.from)],
    ['channels', channelRows(world, totals, plan.from)],
  ]);
  const indexStarted = performance.now();
  progress(`  rows in after ${Math.round((indexStarted - started) / 1000)} s; re-creating the logs indexes`);
  await fill.finish();
  const ended = performance.now();
  return { seconds: (ended - started) / 1000, indexSeconds: (ended - indexStarted) / 1000, requestId };
}
