import { LogType } from '@switchyard/shared';
import type { Kysely } from 'kysely';
import type { LogFilter } from '../../db/repositories/log-repository.ts';
import type { Database } from '../../db/schema.ts';
import { addSums, type LogSums, NO_SUMS, overlap, spanAfter, sumBuckets, sumRawRows } from './log-sums.ts';
import { splitRange, type TimeRange } from './range-split.ts';
import { rolledUpThrough } from './rolled-up-through.ts';
import { grainFor, HOUR } from './rollup-grains.ts';

/** Reads of the aggregates before falling back to raw rows when the roll-up keeps moving. */
const ATTEMPTS = 4;

/**
 * Sums over the logs rows a stat filter matches (with no type, consume rows), exactly as a sum
 * over the raw rows would answer, but read mostly from log_rollups:
 * - whole buckets inside the range from the smallest grain that keeps the filter's columns;
 * - rows in those buckets the roll-up has not reached (id past the watermark) from logs;
 * - the partial buckets at the range's ends from logs.
 * The watermark is read before and after the bucket and past-the-watermark reads; if a roll-up
 * batch committed in between (it moves the watermark in the same transaction as the buckets), the
 * reads are repeated, so no row is counted twice or missed. Buckets keep their sums after
 * retention deletes the raw rows; the ends of a range in deleted history count what is left.
 */
export async function sumLogs(db: Kysely<Database>, filter: LogFilter): Promise<LogSums> {
  const type = filter.type || LogType.Consume;
  const range: TimeRange = { from: filter.start || null, to: filter.end ? filter.end + 1 : null };
  const grain = grainFor(filter);
  if (grain === null) return sumRawRows(db, filter, type, range);
  const split = splitRange(range, grain.spans);
  // Edges of an hourly grain span less than an hour; those of a daily one name a user or token.
  const short = grain.spans.includes(HOUR) && !filter.userId;
  const edges = Promise.all(split.edges.map((edge) => sumRawRows(db, filter, type, edge, undefined, short)));
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const before = await rolledUpThrough(db);
    const parts = await Promise.all([
      ...split.buckets.map((segment) => sumBuckets(db, grain, segment, filter, type)),
      split.covered ? sumPastWatermark(db, filter, type, split.covered, before) : NO_SUMS,
    ]);
    if ((await rolledUpThrough(db)) !== before) continue;
    return [...parts, ...(await edges)].reduce(addSums, NO_SUMS);
  }
  await edges;
  return sumRawRows(db, filter, type, range);
}

/** Sums of the rows in `covered` the roll-up has not counted (id past the watermark). */
async function sumPastWatermark(
  db: Kysely<Database>,
  filter: LogFilter,
  type: number,
  covered: TimeRange,
  watermark: number,
): Promise<LogSums> {
  const span = await spanAfter(db, watermark);
  const range = span === null ? null : overlap(covered, span);
  return range === null ? NO_SUMS : sumRawRows(db, filter, type, range, watermark);
}
