import { LOG_TOTAL_CAP, LogType, logTotalCap } from '@switchyard/shared';
import { type Insertable, type Kysely, type Selectable, type SqlBool, sql } from 'kysely';
import { escapeLike } from '../like-pattern.ts';
import type { Database, LogTable } from '../schema.ts';
import { applyLogFilter, type LogFilter } from './log-filter.ts';
import { newestLogRows } from './newest-log-rows.ts';
import { resolveLogFilter } from './resolve-log-filter.ts';

export { applyLogFilter, type LogFilter, type LogQuery } from './log-filter.ts';

export type NewLog = Insertable<LogTable>;
export type LogRow = Selectable<LogTable>;

const CONSUME = LogType.Consume;

/** The matching rows counted up to cap + 1 (a count over a limited sub-select). */
export function cappedTotalQuery(db: Kysely<Database>, filter: LogFilter, cap = LOG_TOTAL_CAP) {
  return db
    .selectFrom(
      applyLogFilter(db.selectFrom('logs').select('id'), filter)
        .limit(cap + 1)
        .as('m'),
    )
    .select((eb) => eb.fn.countAll<number | string>().as('total'));
}

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
   * total counted up to LOG_TOTAL_CAP rows past the page's start (`capped` when there are more). Each filter column is
   * indexed with created_at (migration 104); the filter is first resolved (resolveLogFilter):
   * the model pattern to the exact names it matches, each read from the index in time order and
   * merged, a request id to the hour after the time it begins with, and on SQLite the one index
   * that drives both the page and the total.
   */
  async listPage(
    filter: LogFilter,
    paging: { offset: number; limit: number },
  ): Promise<{ items: LogRow[]; total: number; capped: boolean }> {
    const resolved = await resolveLogFilter(this.db, filter);
    if (resolved === null) return { items: [], total: 0, capped: false };
    const cap = logTotalCap(paging.offset);
    const [items, counted] = await Promise.all([
      newestLogRows(this.db, resolved, paging),
      cappedTotalQuery(this.db, resolved, cap).executeTakeFirst(),
    ]);
    const total = Number(counted?.total ?? 0);
    return total > cap ? { items, total: cap, capped: true } : { items, total, capped: false };
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
