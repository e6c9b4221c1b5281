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
  if (filter.userId) q = q.where(term('user_id', filter), '=', filter.userId);
  if (filter.tokenId) q = q.where(term('token_id', filter), '=', filter.tokenId);
  if (filter.type) q = q.where(term('type', filter), '=', filter.type);
  if (filter.username) q = q.where(term('username', filter), '=', filter.username);
  if (filter.tokenName) q = q.where(term('token_name', filter), '=', filter.tokenName);
  if (filter.modelNames) q = q.where(term('model_name', filter), 'in', filter.modelNames);
  else if (filter.modelName) q = q.where(containsIgnoringCase('model_name', filter.modelName));
  if (filter.requestId) q = q.where(requestIdCondition(filter.requestId));
  if (filter.start) q = q.where('created_at', '>=', filter.start);
  if (filter.end) q = q.where('created_at', '<=', filter.end);
  if (filter.channelId) q = q.where(term('channel_id', filter), '=', filter.channelId);
  if (filter.group) q = q.where(term('group', filter), '=', filter.group);
  return q as Q;
}
