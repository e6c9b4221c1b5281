import { type RawBuilder, sql, type Transaction } from 'kysely';
import type { DatabaseKind } from '../../config/env.ts';
import type { Database } from '../../db/schema.ts';
import {
  FULL_GRAIN_ID,
  ROLLUP_GRAINS,
  ROLLUP_KEY_COLUMNS,
  ROLLUP_SUM_COLUMNS,
  type RollupDimension,
  type RollupGrain,
} from './rollup-grains.ts';

/** What a grain holds in a column it does not keep. */
const BLANK: Record<RollupDimension, number | string> = {
  user_id: 0,
  username: '',
  token_name: '',
  model_name: '',
  channel_id: 0,
  group: '',
};

/** The select list's value for each key column of a grain and span, given the bucket's start. */
function keyValues(
  dimensions: readonly RollupDimension[],
  grain: number,
  span: number,
  bucket: RawBuilder<unknown>,
) {
  const dimension = (column: RollupDimension) =>
    dimensions.includes(column) ? sql.ref(column) : sql.lit(BLANK[column]);
  return {
    grain: sql.lit(grain),
    span: sql.lit(span),
    user_id: dimension('user_id'),
    bucket,
    type: sql.ref('type'),
    username: dimension('username'),
    token_name: dimension('token_name'),
    model_name: dimension('model_name'),
    channel_id: dimension('channel_id'),
    group: dimension('group'),
  } satisfies Record<(typeof ROLLUP_KEY_COLUMNS)[number], RawBuilder<unknown>>;
}

/** Where a grain's sums come from: logs rows, or the full grain's buckets of the same span. */
type Source = { from: 'logs'; where: RawBuilder<unknown> } | { from: 'full grain' };

/**
 * `insert into log_rollups … select … group by` for one grain and span: one row per distinct key,
 * the columns the grain does not keep blank; `conflict` is appended (the upsert of a batch).
 */
function insertSums(grain: RollupGrain, span: number, source: Source, conflict: RawBuilder<unknown>) {
  const columns = sql.join([...ROLLUP_KEY_COLUMNS, ...ROLLUP_SUM_COLUMNS].map((column) => sql.ref(column)));
  const raw = source.from === 'logs';
  const values = keyValues(
    grain.dimensions,
    grain.id,
    span,
    raw ? sql`created_at - created_at % ${sql.lit(span)}` : sql.ref('bucket'),
  );
  const sums = raw
    ? sql`count(*), sum(quota), sum(prompt_tokens), sum(completion_tokens)`
    : sql`sum(count), sum(quota), sum(prompt_tokens), sum(completion_tokens)`;
  const rows = raw
    ? sql`logs where ${source.where}`
    : sql`log_rollups where grain = ${sql.lit(FULL_GRAIN_ID)} and span = ${sql.lit(span)}`;
  const groupBy = [values.bucket, sql.ref('type'), ...grain.dimensions.map((column) => sql.ref(column))];
  return sql`insert into log_rollups (${columns})
    select ${sql.join(ROLLUP_KEY_COLUMNS.map((column) => values[column]))}, ${sums}
    from ${rows}
    group by ${sql.join(groupBy)}
    ${conflict}`;
}

/**
 * Adds the logs rows with after < id ≤ through to every grain and span, one INSERT … SELECT …
 * GROUP BY per grain and span, added to the existing sums on conflict. The rows are summed by the
 * database and never cross into JS: on PostgreSQL that takes the roll-up's CPU in this process
 * from ~97 to ~5 µs a row, on SQLite (in process) from ~180 to ~120 µs (ADR-49).
 */
export async function rollUpRange(
  trx: Transaction<Database>,
  kind: DatabaseKind,
  after: number,
  through: number,
): Promise<void> {
  for (const grain of ROLLUP_GRAINS) {
    for (const span of grain.spans) await rollUpGrainSpan(trx, kind, grain, span, after, through);
  }
}

/** One grain and span of {@link rollUpRange}; answers the rows of log_rollups it wrote. */
export async function rollUpGrainSpan(
  trx: Transaction<Database>,
  kind: DatabaseKind,
  grain: RollupGrain,
  span: number,
  after: number,
  through: number,
): Promise<bigint> {
  const keys = sql.join(ROLLUP_KEY_COLUMNS.map((column) => sql.ref(column)));
  const update =
    kind === 'mysql'
      ? sql`on duplicate key update ${sql.join(
          ROLLUP_SUM_COLUMNS.map((c) => sql`${sql.ref(c)} = ${sql.ref(c)} + values(${sql.ref(c)})`),
        )}`
      : sql`on conflict (${keys}) do update set ${sql.join(
          ROLLUP_SUM_COLUMNS.map(
            (c) => sql`${sql.ref(c)} = ${sql.ref(`log_rollups.${c}`)} + ${sql.ref(`excluded.${c}`)}`,
          ),
        )}`;
  const where = sql`id > ${after} and id <= ${through}`;
  const result = await insertSums(grain, span, { from: 'logs', where }, update).execute(trx);
  return result.numAffectedRows ?? 0n;
}

/**
 * Fills the history of a grain added to a database whose roll-up has already counted rows up to
 * `through` (the watermark), which it must not count again: each span the full grain keeps (days)
 * is summed from the full grain's buckets, which keep every column and the history retention has
 * deleted from logs; shorter spans (hours) from the logs rows left with id ≤ through. Where the raw
 * rows are gone, the grain's hours are missing as the rows are: a range ending there counts, for
 * its partial days, the rows that are left, as before the grain existed. The grain's buckets must
 * be empty; the caller holds the watermark still meanwhile.
 */
export async function fillGrainHistory(
  trx: Transaction<Database>,
  grain: RollupGrain,
  through: number,
): Promise<void> {
  const full = ROLLUP_GRAINS.find((candidate) => candidate.id === FULL_GRAIN_ID)!;
  for (const span of grain.spans) {
    const source: Source = full.spans.includes(span)
      ? { from: 'full grain' }
      : { from: 'logs', where: sql`id <= ${through}` };
    await insertSums(grain, span, source, sql``).execute(trx);
  }
}
