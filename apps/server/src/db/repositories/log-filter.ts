import { type Expression, type SelectQueryBuilder, sql } from 'kysely';
import { containsIgnoringCase } from '../like-pattern.ts';
import type { Database } from '../schema.ts';
import { requestIdCondition } from './log-list-query.ts';

/** The filter columns indexed together with created_at (migrations 101 and 104). */
export type LogIndexColumn =
  | 'user_id'
  | 'token_id'
  | 'type'
  | 'username'
  | 'token_name'
  | 'model_name'
  | 'channel_id'
  | 'group';

/** Log filters, all optional and combined with AND (0 / '' / undefined = no filter). */
export interface LogFilter {
  userId?: number;
  tokenId?: number;
  /** 0 = every type. */
  type?: number;
  /** Exact. */
  username?: string;
  /** Exact. */
  tokenName?: string;
  /** Contains, literally, ignoring ASCII case. */
  modelName?: string;
  /** created_at ≥ start (seconds). */
  start?: number;
  /** created_at ≤ end (seconds). */
  end?: number;
  channelId?: number;
  /** Exact. */
  group?: string;
  /** Exact model names (the model filter resolved, see resolveLogFilter); replaces modelName. */
  modelNames?: readonly string[];
  /** The row whose `other` records this request id (list routes only). */
  requestId?: string;
  /**
   * SQLite only: the one filter column whose index reads the rows; the other filter columns are
   * written `+column`, which SQLite cannot serve from an index (log-index-choice.ts).
   */
  driveBy?: LogIndexColumn;
}

export type LogQuery = SelectQueryBuilder<Database, 'logs', object>;

/**
 * The equality filters, each with its indexed column, most specific first (the order in which
 * log-index-choice.ts breaks ties). `modelNames` is the model filter resolved to exact names.
 */
export const INDEXED_FILTERS = [
  { column: 'token_id', field: 'tokenId' },
  { column: 'token_name', field: 'tokenName' },
  { column: 'user_id', field: 'userId' },
  { column: 'username', field: 'username' },
  { column: 'model_name', field: 'modelNames' },
  { column: 'channel_id', field: 'channelId' },
  { column: 'group', field: 'group' },
  { column: 'type', field: 'type' },
] as const satisfies readonly { column: LogIndexColumn; field: keyof LogFilter }[];

/** The column as a filter names it: itself, or `+column` when another column drives the query. */
function term(column: LogIndexColumn, filter: LogFilter): LogIndexColumn | Expression<unknown> {
  return filter.driveBy && filter.driveBy !== column ? sql`+${sql.ref(column)}` : column;
}

/**
 * Applies a LogFilter. The equality and time conditions match the logs indexes (each filter
 * column with created_at, and created_at + type); the model-name substring match is a filter on
 * the rows those select.
 */
export function applyLogFilter<Q extends LogQuery>(query: Q, filter: LogFilter): Q {
  let q: LogQuery = query;
  for (const { column, field } of INDEXED_FILTERS) {
    const value = filter[field];
    if (!value) continue;
    q = Array.isArray(value)
      ? q.where(term(column, filter), 'in', value)
      : q.where(term(column, filter), '=', value as string | number);
  }
  if (!filter.modelNames && filter.modelName)
    q = q.where(containsIgnoringCase('model_name', filter.modelName));
  if (filter.requestId) q = q.where(requestIdCondition(filter.requestId));
  if (filter.start) q = q.where('created_at', '>=', filter.start);
  if (filter.end) q = q.where('created_at', '<=', filter.end);
  return q as Q;
}
