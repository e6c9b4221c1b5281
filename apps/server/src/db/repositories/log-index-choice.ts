/**
 * SQLite's choice of index for a log list with more than one indexed filter (ADR-48). SQLite
 * plans without statistics (the server never runs ANALYZE), so with two equality filters it
 * guesses, and a wrong guess walks a heavy user's million rows to find a rare model's hundred. A
 * bounded probe measures instead: for each filter column, the index entries it matches in the time
 * range (counted up to a cap, read from the index alone) and, when there are more than that, how
 * many of its first rows match the whole filter. The column expected to read the fewest entries
 * drives the query; the others are written `+column` so SQLite cannot pick them (applyLogFilter).
 * PostgreSQL and MySQL/MariaDB choose from their own statistics and are not probed.
 */
import { LOG_TOTAL_CAP } from '@switchyard/shared';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../schema.ts';
import {
  applyLogFilter,
  INDEXED_FILTERS,
  type LogFilter,
  type LogIndexColumn,
  type LogQuery,
} from './log-filter.ts';

export interface ProbeLimits {
  /** Index entries a probe counts at most per filter column. */
  cap: number;
  /** Entries (with their rows) a column with more than `cap` entries is sampled over. */
  sample: number;
}

/** A probe reads at most about cap × columns index entries and sample × columns rows. */
export const PROBE_LIMITS: ProbeLimits = { cap: 5000, sample: 200 };

interface Candidate {
  column: LogIndexColumn;
  /** The filter of this column alone, with the time range. */
  alone: LogFilter;
}

/** The filter's indexed equality columns, most specific first (the order breaks ties). */
function candidatesOf(filter: LogFilter): Candidate[] {
  const range = { start: filter.start, end: filter.end };
  return INDEXED_FILTERS.filter(({ field }) => filter[field]).map(({ column, field }) => ({
    column,
    alone: { ...range, [field]: filter[field] },
  }));
}

/** The columns a filter reads (a sample keeps only these from each row). */
const FILTER_COLUMNS = [...INDEXED_FILTERS.map(({ column }) => column), 'created_at' as const];

/** The column's index entries in the range, counted up to the cap (from the index alone). */
async function entriesOf(db: Kysely<Database>, candidate: Candidate, limits: ProbeLimits): Promise<number> {
  const entries = applyLogFilter(db.selectFrom('logs').select(sql<number>`1`.as('one')), candidate.alone)
    .limit(limits.cap)
    .as('entries');
  const row = await db
    .selectFrom(entries)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * Of the column's first `sample` entries in the range (index order, as the capped total
 * reads them), how many rows match the whole filter.
 */
async function matchesInSample(
  db: Kysely<Database>,
  candidate: Candidate,
  filter: LogFilter,
  limits: ProbeLimits,
): Promise<number> {
  const columns = filter.requestId ? [...FILTER_COLUMNS, 'other' as const] : FILTER_COLUMNS;
  const sample = applyLogFilter(db.selectFrom('logs').select(columns), candidate.alone)
    .limit(limits.sample)
    .as('logs');
  // The derived table has the filter's columns under the table's name, so the filter applies as is.
  const sampled = db.selectFrom(sample) as unknown as LogQuery;
  const row = await applyLogFilter(sampled, { ...filter, driveBy: undefined })
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * Index entries the list's capped total is expected to read through the column: all of them when
 * there are fewer than the cap, else as many as LOG_TOTAL_CAP + 1 matches take at the sampled
 * rate (a sample without a match counts as half of one).
 */
async function expectedReads(
  db: Kysely<Database>,
  candidate: Candidate,
  filter: LogFilter,
  limits: ProbeLimits,
): Promise<number> {
  const entries = await entriesOf(db, candidate, limits);
  if (entries < limits.cap) return entries;
  const matches = await matchesInSample(db, candidate, filter, limits);
  return ((LOG_TOTAL_CAP + 1) * limits.sample) / Math.max(matches, 0.5);
}

/**
 * The filter with `driveBy` set to the indexed column expected to read the fewest entries, when
 * it has more than one; otherwise the filter as it is. SQLite only.
 */
export async function withDrivingIndex(
  db: Kysely<Database>,
  filter: LogFilter,
  limits: ProbeLimits = PROBE_LIMITS,
): Promise<LogFilter> {
  const candidates = candidatesOf(filter);
  if (candidates.length < 2) return filter;
  let best: { column: LogIndexColumn; reads: number } | null = null;
  for (const candidate of candidates) {
    const reads = await expectedReads(db, candidate, filter, limits);
    if (best === null || reads < best.reads) best = { column: candidate.column, reads };
  }
  return { ...filter, driveBy: best?.column };
}
