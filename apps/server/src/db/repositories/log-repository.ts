import { LOG_TOTAL_CAP, LogType } from '@switchyard/shared';
import {
  type Insertable,
  type Kysely,
  type Selectable,
  type SelectQueryBuilder,
  type SqlBool,
  sql,
} from 'kysely';
import { containsIgnoringCase, escapeLike } from '../like-pattern.ts';
import { dialectOf } from '../migrations/column-types.ts';
import type { Database, LogTable } from '../schema.ts';
import {
  distinctModelNames,
  MAX_RESOLVED_MODEL_NAMES,
  namesContaining,
  requestIdCondition,
  requestIdWindow,
} from './log-list-query.ts';

export type NewLog = Insertable<LogTable>;
export type LogRow = Selectable<LogTable>;

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
  /** Exact model names (the model filter resolved, see listPage); replaces modelName. */
  modelNames?: readonly string[];
  /** The row whose `other` records this request id (list routes only). */
  requestId?: string;
}

export type LogQuery = SelectQueryBuilder<Database, 'logs', object>;

/**
 * Applies a LogFilter. The equality and time conditions match the logs indexes (user_id +
 * created_at, created_at + type, username, token_name, channel_id, token_id, group); the
 * model-name substring match is a filter on the rows those select.
 */
export function applyLogFilter<Q extends LogQuery>(query: Q, filter: LogFilter): Q {
  let q: LogQuery = query;
  if (filter.userId) q = q.where('user_id', '=', filter.userId);
  if (filter.tokenId) q = q.where('token_id', '=', filter.tokenId);
  if (filter.type) q = q.where('type', '=', filter.type);
  if (filter.username) q = q.where('username', '=', filter.username);
  if (filter.tokenName) q = q.where('token_name', '=', filter.tokenName);
  if (filter.modelNames) q = q.where('model_name', 'in', filter.modelNames);
  else if (filter.modelName) q = q.where(containsIgnoringCase('model_name', filter.modelName));
  if (filter.requestId) q = q.where(requestIdCondition(filter.requestId));
  if (filter.start) q = q.where('created_at', '>=', filter.start);
  if (filter.end) q = q.where('created_at', '<=', filter.end);
  if (filter.channelId) q = q.where('channel_id', '=', filter.channelId);
  if (filter.group) q = q.where('group', '=', filter.group);
  return q as Q;
}

const CONSUME = LogType.Consume;

/** Up to this many exact model names, a page is read name by name and merged (pageOf). */
const MAX_MERGED_MODEL_NAMES = 64;

/** The defaults of the logs table's NOT NULL columns (migration 101). */
export const LOG_COLUMN_DEFAULTS = {
  user_id: 0,
  type: 0,
  username: '',
  token_name: '',
  model_name: '',
  quota: 0,
  prompt_tokens: 0,
  completion_tokens: 0,
  use_time: 0,
  is_stream: 0,
  channel_id: 0,
  token_id: 0,
  group: '',
  ip: '',
} satisfies Partial<NewLog>;

/** The logs table (possibly in its own database, see LOG_SQL_DSN). */
export class LogRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(log: NewLog): Promise<void> {
    await this.insertMany([log]);
  }

  async insertMany(logs: NewLog[]): Promise<void> {
    if (logs.length === 0) return;
    const now = Math.floor(Date.now() / 1000);
    // Every row gets every NOT NULL column: in a multi-row insert SQLite fills a column missing
    // from one row with NULL (not its default), so a batch mixing consume and error rows failed.
    await this.db
      .insertInto('logs')
      .values(logs.map((log) => ({ ...LOG_COLUMN_DEFAULTS, created_at: now, ...log })))
      .execute();
  }

  /**
   * One page of matching rows, newest first (created_at, then id, both descending), and their
   * total counted up to LOG_TOTAL_CAP (`capped` when there are more). Each filter column is
   * indexed with created_at (migration 103); the model filter is first resolved to the exact
   * names it matches, each read from the index in time order and merged; a request id narrows
   * the time range to the hour after the time it begins with.
   */
  async listPage(
    filter: LogFilter,
    paging: { offset: number; limit: number },
  ): Promise<{ items: LogRow[]; total: number; capped: boolean }> {
    const resolved = await this.resolveFilter(filter);
    if (resolved === null) return { items: [], total: 0, capped: false };
    const [items, counted] = await Promise.all([
      this.pageOf(resolved, paging),
      this.db
        .selectFrom(
          applyLogFilter(this.db.selectFrom('logs').select('id'), resolved)
            .limit(LOG_TOTAL_CAP + 1)
            .as('m'),
        )
        .select((eb) => eb.fn.countAll<number | string>().as('total'))
        .executeTakeFirst(),
    ]);
    const total = Number(counted?.total ?? 0);
    return total > LOG_TOTAL_CAP
      ? { items, total: LOG_TOTAL_CAP, capped: true }
      : { items, total, capped: false };
  }

  /** The filter with its model pattern resolved to exact names and its request id's window; null = matches nothing. */
  private async resolveFilter(filter: LogFilter): Promise<LogFilter | null> {
    let resolved = filter;
    if (filter.modelName && !filter.modelNames) {
      const names = namesContaining(
        await distinctModelNames(this.db, dialectOf(this.db as Kysely<unknown>)),
        filter.modelName,
      );
      if (names.length === 0) return null;
      if (names.length <= MAX_RESOLVED_MODEL_NAMES) resolved = { ...resolved, modelNames: names };
    }
    const window = filter.requestId ? requestIdWindow(filter.requestId) : null;
    if (window) {
      const start = Math.max(filter.start || 0, window.start);
      const end = filter.end ? Math.min(filter.end, window.end) : window.end;
      if (start > end) return null;
      resolved = { ...resolved, start, end };
    }
    return resolved;
  }

  /**
   * The page's rows. Several exact model names are read name by name (each from its index in
   * time order, at most offset + limit rows) and merged, rather than left to a planner that may
   * sort every row of a popular model.
   */
  private pageOf(filter: LogFilter, paging: { offset: number; limit: number }): Promise<LogRow[]> {
    const names = filter.modelNames;
    if (!names || names.length <= 1 || names.length > MAX_MERGED_MODEL_NAMES) {
      return applyLogFilter(this.db.selectFrom('logs').selectAll(), filter)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .offset(paging.offset)
        .limit(paging.limit)
        .execute();
    }
    const branch = (name: string, i: number) =>
      this.db
        .selectFrom(
          applyLogFilter(this.db.selectFrom('logs').selectAll(), { ...filter, modelNames: [name] })
            .orderBy('created_at', 'desc')
            .orderBy('id', 'desc')
            .limit(paging.offset + paging.limit)
            .as(`m${i}`),
        )
        .selectAll();
    let merged = branch(names[0]!, 0);
    for (let i = 1; i < names.length; i++) merged = merged.unionAll(branch(names[i]!, i));
    return this.db
      .selectFrom(merged.as('merged'))
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .offset(paging.offset)
      .limit(paging.limit)
      .execute() as Promise<LogRow[]>;
  }

  /** The newest `limit` matching rows (search and token-log routes). */
  async listRecent(filter: LogFilter, limit: number): Promise<LogRow[]> {
    return applyLogFilter(this.db.selectFrom('logs').selectAll(), filter)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }

  /**
   * The admin keyword search of the reference: rows whose type equals the keyword (when it is an
   * integer) or whose content starts with it, matched literally; newest first.
   */
  async searchByKeyword(keyword: string, limit: number): Promise<LogRow[]> {
    const type = /^\d{1,9}$/.test(keyword) ? Number(keyword) : null;
    return this.db
      .selectFrom('logs')
      .selectAll()
      .where((eb) => {
        const startsWith = sql<SqlBool>`${sql.ref('content')} like ${`${escapeLike(keyword)}%`} escape '!'`;
        return type === null ? startsWith : eb.or([eb('type', '=', type), startsWith]);
      })
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }

  /** Sum of `quota` over the matching rows; with no type filter only consume rows count. */
  async sumQuota(filter: LogFilter): Promise<number> {
    const row = await applyLogFilter(this.db.selectFrom('logs'), { ...filter, type: filter.type || CONSUME })
      .select((eb) => eb.fn.sum<number | string | null>('quota').as('quota'))
      .executeTakeFirst();
    return Number(row?.quota ?? 0);
  }

  /**
   * Consume rows since `since` (seconds) matching the filter's other conditions (its time range
   * and type are replaced), and their prompt + completion tokens: the stat routes' rpm and tpm.
   */
  async recentConsumption(filter: LogFilter, since: number): Promise<{ requests: number; tokens: number }> {
    const row = await applyLogFilter(this.db.selectFrom('logs'), {
      ...filter,
      type: CONSUME,
      start: since,
      end: undefined,
    })
      .select((eb) => [
        eb.fn.countAll<number | string>().as('requests'),
        eb.fn.sum<number | string | null>('prompt_tokens').as('prompt'),
        eb.fn.sum<number | string | null>('completion_tokens').as('completion'),
      ])
      .executeTakeFirst();
    return {
      requests: Number(row?.requests ?? 0),
      tokens: Number(row?.prompt ?? 0) + Number(row?.completion ?? 0),
    };
  }
}
