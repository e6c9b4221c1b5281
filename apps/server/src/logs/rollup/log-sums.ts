import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import { containsIgnoringCase } from '../../db/like-pattern.ts';
import { dialectOf } from '../../db/migrations/column-types.ts';
import type { LogFilter } from '../../db/repositories/log-repository.ts';
import type { Database } from '../../db/schema.ts';
import type { BucketSegment, TimeRange } from './range-split.ts';
import type { RollupGrain } from './rollup-grains.ts';

/** Sums over consume rows: what log_rollups keeps per bucket. */
export interface LogSums {
  count: number;
  quota: number;
  prompt_tokens: number;
  completion_tokens: number;
}

export const NO_SUMS: LogSums = { count: 0, quota: 0, prompt_tokens: 0, completion_tokens: 0 };

export const addSums = (a: LogSums, b: LogSums): LogSums => ({
  count: a.count + b.count,
  quota: a.quota + b.quota,
  prompt_tokens: a.prompt_tokens + b.prompt_tokens,
  completion_tokens: a.completion_tokens + b.completion_tokens,
});

type SumRow = {
  count: number | string | null;
  quota: number | string | null;
  prompt_tokens: number | string | null;
  completion_tokens: number | string | null;
};
const toSums = (row: SumRow | undefined): LogSums => ({
  count: Number(row?.count ?? 0),
  quota: Number(row?.quota ?? 0),
  prompt_tokens: Number(row?.prompt_tokens ?? 0),
  completion_tokens: Number(row?.completion_tokens ?? 0),
});

/**
 * The equality filters both tables share, and the model name matched as the log lists match it
 * (contains, literally, ignoring ASCII case), so a bucket and its raw rows agree on every database.
 */
// biome-ignore lint/suspicious/noExplicitAny: applied to selects on logs and on log_rollups alike.
function whereFilter<Q extends SelectQueryBuilder<Database, any, object>>(
  query: Q,
  filter: LogFilter,
  type: number,
  byTime = false,
): Q {
  // biome-ignore lint/suspicious/noExplicitAny: the columns exist on both tables.
  let q = query as SelectQueryBuilder<any, any, object>;
  q = q.where('type', '=', type);
  if (filter.userId) q = q.where('user_id', '=', filter.userId);
  if (filter.username) q = q.where('username', '=', filter.username);
  if (filter.tokenName) q = q.where('token_name', '=', filter.tokenName);
  if (filter.modelName) q = q.where(containsIgnoringCase('model_name', filter.modelName));
  // `+column` keeps SQLite (which has no statistics) from taking the channel or group index, which
  // reads every row of that channel or group, when an hour of rows by created_at is far fewer.
  const column = (name: string) => (byTime ? sql<number>`+${sql.ref(name)}` : sql.ref(name));
  if (filter.channelId) q = q.where(column('channel_id'), '=', filter.channelId);
  if (filter.group) q = q.where(column('group'), '=', filter.group);
  return q as Q;
}

/**
 * Sums of raw logs rows matching the filter with created_at in `range` (and id > `idAfter`).
 * `byTime`: the range is short (at most an hour), read it along created_at on SQLite.
 */
export async function sumRawRows(
  db: Kysely<Database>,
  filter: LogFilter,
  type: number,
  range: TimeRange,
  idAfter?: number,
  byTime = false,
): Promise<LogSums> {
  let query = whereFilter(db.selectFrom('logs'), filter, type, byTime && dialectOf(db as never) === 'sqlite');
  if (filter.tokenId) query = query.where('token_id', '=', filter.tokenId);
  if (range.from !== null) query = query.where('created_at', '>=', range.from);
  if (range.to !== null) query = query.where('created_at', '<', range.to);
  if (idAfter !== undefined) query = query.where('id', '>', idAfter);
  const row = await query
    .select((eb) => [
      eb.fn.countAll<number | string>().as('count'),
      eb.fn.sum<number | string | null>('quota').as('quota'),
      eb.fn.sum<number | string | null>('prompt_tokens').as('prompt_tokens'),
      eb.fn.sum<number | string | null>('completion_tokens').as('completion_tokens'),
    ])
    .executeTakeFirst();
  return toSums(row);
}

/**
 * Sums of one grain's whole buckets of one length. A grain that does not keep user_id stores 0
 * there, and saying so lets the primary key (grain, span, user_id, bucket, …) range over buckets;
 * not when the filter names a token name, whose own index (token_name, grain, span, bucket) finds
 * that name's buckets (SQLite, without statistics, would otherwise take the primary key and read
 * every name's).
 */
export async function sumBuckets(
  db: Kysely<Database>,
  grain: RollupGrain,
  segment: BucketSegment,
  filter: LogFilter,
  type: number,
): Promise<LogSums> {
  let query = whereFilter(db.selectFrom('log_rollups'), filter, type)
    .where('grain', '=', grain.id)
    .where('span', '=', segment.span);
  if (!grain.dimensions.includes('user_id') && !filter.tokenName) query = query.where('user_id', '=', 0);
  if (segment.from !== null) query = query.where('bucket', '>=', segment.from);
  if (segment.to !== null) query = query.where('bucket', '<', segment.to);
  const row = await query
    .select((eb) => [
      eb.fn.sum<number | string | null>('count').as('count'),
      eb.fn.sum<number | string | null>('quota').as('quota'),
      eb.fn.sum<number | string | null>('prompt_tokens').as('prompt_tokens'),
      eb.fn.sum<number | string | null>('completion_tokens').as('completion_tokens'),
    ])
    .executeTakeFirst();
  return toSums(row);
}

/**
 * The created_at span of the rows past the watermark, read along the primary key. The stat reads
 * those rows' sums with its covered range narrowed to this span, so the created_at index (if the
 * planner takes it rather than the id range) scans seconds of rows, not the whole range. The count
 * keeps PostgreSQL from answering min and max by walking the created_at index, filtering on id,
 * through every row when none is past the watermark.
 */
export async function spanAfter(db: Kysely<Database>, idAfter: number): Promise<TimeRange | null> {
  const row = await db
    .selectFrom('logs')
    .select((eb) => [
      eb.fn.countAll<number | string>().as('rows'),
      eb.fn.min<number | string | null>('created_at').as('first'),
      eb.fn.max<number | string | null>('created_at').as('last'),
    ])
    .where('id', '>', idAfter)
    .executeTakeFirst();
  if (row?.first === null || row?.first === undefined || row.last === null) return null;
  return { from: Number(row.first), to: Number(row.last) + 1 };
}

/** The overlap of two ranges, or null when they do not meet. */
export function overlap(a: TimeRange, b: TimeRange): TimeRange | null {
  const from = a.from === null ? b.from : b.from === null ? a.from : Math.max(a.from, b.from);
  const to = a.to === null ? b.to : b.to === null ? a.to : Math.min(a.to, b.to);
  return from !== null && to !== null && to <= from ? null : { from, to };
}
