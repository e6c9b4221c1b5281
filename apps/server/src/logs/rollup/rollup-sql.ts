import { type RawBuilder, sql, type Transaction } from 'kysely';
import type { DatabaseKind } from '../../config/env.ts';
import type { Database } from '../../db/schema.ts';
import {
  ROLLUP_GRAINS,
  ROLLUP_KEY_COLUMNS,
  ROLLUP_SUM_COLUMNS,
  type RollupDimension,
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

/** The select list's value for each key column of a grain and span. */
function keyValues(dimensions: readonly RollupDimension[], grain: number, span: number) {
  const dimension = (column: RollupDimension) =>
    dimensions.includes(column) ? sql.ref(column) : sql.lit(BLANK[column]);
  return {
    grain: sql.lit(grain),
    span: sql.lit(span),
    user_id: dimension('user_id'),
    bucket: sql`created_at - created_at % ${sql.lit(span)}`,
    type: sql.ref('type'),
    username: dimension('username'),
    token_name: dimension('token_name'),
    model_name: dimension('model_name'),
    channel_id: dimension('channel_id'),
    group: dimension('group'),
  } satisfies Record<(typeof ROLLUP_KEY_COLUMNS)[number], RawBuilder<unknown>>;
}

/**
 * Adds the logs rows with after < id ≤ through to every grain and span, one INSERT … SELECT …
 * GROUP BY per grain and span (one increment per distinct key, the columns a grain does not keep
 * blank), added to the existing sums on conflict. The rows are summed by the database and never
 * cross into JS: on PostgreSQL that takes the roll-up's CPU in this process from ~97 to ~5 µs a
 * row, on SQLite (in process) from ~180 to ~120 µs (ADR-49).
 */
export async function rollUpRange(
  trx: Transaction<Database>,
  kind: DatabaseKind,
  after: number,
  through: number,
): Promise<void> {
  const keys = sql.join(ROLLUP_KEY_COLUMNS.map((column) => sql.ref(column)));
  const columns = sql.join([...ROLLUP_KEY_COLUMNS, ...ROLLUP_SUM_COLUMNS].map((column) => sql.ref(column)));
  const sums = sql`count(*), sum(quota), sum(prompt_tokens), sum(completion_tokens)`;
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
  for (const grain of ROLLUP_GRAINS) {
    for (const span of grain.spans) {
      const values = keyValues(grain.dimensions, grain.id, span);
      const groupBy = [values.bucket, sql.ref('type'), ...grain.dimensions.map((column) => sql.ref(column))];
      await sql`insert into log_rollups (${columns})
        select ${sql.join(ROLLUP_KEY_COLUMNS.map((column) => values[column]))}, ${sums}
        from logs where id > ${after} and id <= ${through}
        group by ${sql.join(groupBy)}
        ${update}`.execute(trx);
    }
  }
}
