import { type Static, Type } from '@sinclair/typebox';
import { QueryInteger } from './query-integer.ts';

/**
 * Logs and dashboard-data API. Query strings are text and are coerced (an empty value reads as 0
 * or ''); a value of the wrong type or out of range is refused with `success: false`.
 *
 * Routes:
 * - `GET /api/log/` (admin) and `GET /api/log/self/` (own rows): LogListQuery →
 *   `data: {items, page, page_size, total, total_capped}` (LogPage), newest first (created_at,
 *   then id). `request_id=` finds the row of one request.
 * - `GET /api/log/stat` (admin) and `GET /api/log/self/stat`: LogFilterQuery → `data: LogStat`.
 * - `GET /api/log/export` (admin): LogExportQuery → the filtered list as a CSV file.
 * - `GET /api/log/search?keyword=` (admin) and `GET /api/log/self/search?keyword=`: at most
 *   LOG_RECENT_MAX_ROWS rows, newest first, as a plain array.
 * - `GET /api/log/token?key=` (or `Authorization: Bearer sk-…`): the newest LOG_RECENT_MAX_ROWS
 *   rows of that token, as a plain array of self-view rows (no `ip` either). A disabled or deleted
 *   token is refused with HTTP 401.
 * - `GET /api/data/` (admin) and `GET /api/data/self`: QuotaDataQuery → a plain array of
 *   QuotaDataRow (or QuotaDataBucket for the admin's all-user view).
 */

/** Most rows of the search and token-log routes (the reference's MaxRecentItems). */
export const LOG_RECENT_MAX_ROWS = 100;

/** Longest span of `GET /api/data/self`, in seconds (30 days). */
export const QUOTA_DATA_SELF_MAX_SPAN = 2_592_000;

/** Unix seconds; 0 (or an empty or non-integer value such as `NaN`) means "no bound". */
const Timestamp = QueryInteger({ minimum: 0, maximum: 100_000_000_000 });

/**
 * The filters shared by the list and stat routes, all optional and combined with AND:
 * - `type`: 0 = every type; 1 top-up, 2 consume, 3 management, 4 system, 5 error.
 * - `username` (admin routes only; ignored on self routes): exact.
 * - `token_name`: exact. `group`: exact.
 * - `model_name`: contains, matched literally (`%` and `_` are not wildcards) and ignoring ASCII case.
 * - `start_timestamp` / `end_timestamp`: `created_at` ≥ start and ≤ end (seconds).
 * - `channel` (admin routes only; ignored on self routes): the channel id.
 */
export const LogFilterQuery = Type.Object({
  type: QueryInteger({ minimum: 0, maximum: 1000 }),
  username: Type.Optional(Type.String({ maxLength: 64 })),
  token_name: Type.Optional(Type.String({ maxLength: 255 })),
  model_name: Type.Optional(Type.String({ maxLength: 255 })),
  start_timestamp: Timestamp,
  end_timestamp: Timestamp,
  channel: QueryInteger({ minimum: 0, maximum: 2_147_483_647 }),
  group: Type.Optional(Type.String({ maxLength: 64 })),
});
export type LogFilterQuery = Static<typeof LogFilterQuery>;

/**
 * LogFilterQuery plus paging: `p` from 1 (clamped), `page_size` 1..100 (default 10), and
 * `request_id` (exact; combined with the other filters).
 */
export const LogListQuery = Type.Object({
  ...LogFilterQuery.properties,
  p: QueryInteger(),
  page_size: QueryInteger(),
  request_id: Type.Optional(Type.String({ maxLength: 128 })),
});
export type LogListQuery = Static<typeof LogListQuery>;

/** The widest UTC offsets in use, in minutes east of UTC: −12:00 and +14:00. */
export const UTC_OFFSET_MIN = -720;
export const UTC_OFFSET_MAX = 840;
/** A browser's UTC offset in minutes east of UTC (dayjs' `utcOffset()`). */
const UtcOffset = QueryInteger({ minimum: UTC_OFFSET_MIN, maximum: UTC_OFFSET_MAX });

/**
 * `GET /api/log/export` (admin): the rows of `GET /api/log/` for the same filters, every page, as a
 * CSV download (docs/console-wire.md). `utc_offset`: minutes east of UTC for the readable time
 * column (the console sends the browser's; 0 = UTC). `new_api_user`: the signed-in user's id, in
 * place of the New-Api-User header, which a download link cannot send.
 */
export const LogExportQuery = Type.Object({
  ...LogFilterQuery.properties,
  utc_offset: UtcOffset,
  new_api_user: Type.Optional(Type.String({ maxLength: 20 })),
});
export type LogExportQuery = Static<typeof LogExportQuery>;

/**
 * `GET /api/log/search?keyword=`: rows whose type equals the keyword (when it is an integer) or
 * whose content starts with it (literally). `GET /api/log/self/search?keyword=`: own rows whose
 * type equals the keyword; a non-integer keyword finds nothing.
 */
export const LogSearchQuery = Type.Object({
  keyword: Type.Optional(Type.String({ maxLength: 255 })),
});
export type LogSearchQuery = Static<typeof LogSearchQuery>;

/** `GET /api/log/token?key=sk-…`: the token key itself (with or without `sk-`). */
export const TokenLogQuery = Type.Object({
  key: Type.Optional(Type.String({ maxLength: 200 })),
});
export type TokenLogQuery = Static<typeof TokenLogQuery>;

/**
 * One log row as the console sees it.
 * - Admin views carry `channel` (channel id, 0 = none) and `channel_name` ('' when the channel
 *   no longer exists).
 * - Self views (own logs, token logs) carry neither, and `other` has no `admin_info` (the channels
 *   tried). Ids are the real ids (the reference's `id % 1024` obfuscation is not copied).
 * - `other` is JSON text (see the reference §4.11: frt, model_ratio, group_ratio, completion_ratio,
 *   model_price, cache fields, is_model_mapped, upstream_model_name, reasoning_effort, group, ...);
 *   '' when the row has none.
 */
export interface LogView {
  id: number;
  created_at: number;
  type: number;
  user_id: number;
  username: string;
  token_id: number;
  token_name: string;
  model_name: string;
  quota: number;
  prompt_tokens: number;
  completion_tokens: number;
  /** Seconds. */
  use_time: number;
  is_stream: boolean;
  group: string;
  /** Client address; '' in token-log views. */
  ip: string;
  content: string;
  other: string;
  channel?: number;
  channel_name?: string;
}

/** `data` of the paginated list routes. */
export interface LogPage {
  items: LogView[];
  page: number;
  page_size: number;
  /**
   * Matching rows, counted up to LOG_TOTAL_CAP rows past the page's first (logTotalCap): when
   * there are more, that cap, and `total_capped`.
   */
  total: number;
  /** True when more rows than `total` match (the count stopped at the cap). */
  total_capped?: boolean;
}

/**
 * The most rows a log list counts (its `total`); more is answered as this, with `total_capped`.
 * Counting stops there because reaching it is what costs: a filter whose rows are a few percent of
 * the rows its index walks reads ten times as many to count 10,000 (ADR-46).
 */
export const LOG_TOTAL_CAP = 1_000;

/**
 * The count a page of the list stops at: LOG_TOTAL_CAP rows past its first row, so a console that
 * pages by `total` (new-api's, Switchyard's) always sees more pages after the one it shows, while
 * the count reads about as far as the page itself does.
 */
export const logTotalCap = (offset: number): number => offset + LOG_TOTAL_CAP;

/**
 * `data` of the stat routes.
 * - `quota`: the sum of `quota` over the rows matching the filters; with `type` 0 only consume
 *   rows (type 2) count, so it is the consumed quota of the filter.
 * - `rpm` / `tpm`: consume rows, and their prompt + completion tokens, created in the last 60 s
 *   matching the same filters except the time range and type.
 */
export interface LogStat {
  quota: number;
  rpm: number;
  tpm: number;
}

/**
 * `GET /api/data/?start_timestamp=&end_timestamp=&username=` (admin) and
 * `GET /api/data/self?start_timestamp=&end_timestamp=`. Buckets whose hour start lies in
 * [start, end]. A missing or 0 `end_timestamp` means now; a missing or 0 `start_timestamp` means
 * 30 days before the end. The self route refuses spans over QUOTA_DATA_SELF_MAX_SPAN.
 * `default_time` (hour, day or week; new-api's console sends it) with `utc_offset` (minutes east
 * of UTC; Switchyard's console sends it) sums the hours into local days: `created_at` is
 * then the day's start. Without `utc_offset` the rows stay hourly.
 */
export const QuotaDataQuery = Type.Object({
  start_timestamp: Timestamp,
  end_timestamp: Timestamp,
  username: Type.Optional(Type.String({ maxLength: 64 })),
  default_time: Type.Optional(Type.String({ maxLength: 16 })),
  utc_offset: UtcOffset,
});
export type QuotaDataQuery = Static<typeof QuotaDataQuery>;

/**
 * One hourly usage bucket of one user and model: `GET /api/data/self` rows, and the admin's rows
 * with `username=` given. `created_at` is the hour start (Unix seconds); `count` requests,
 * `quota` charged, `token_used` prompt + completion tokens.
 */
export interface QuotaDataRow {
  id: number;
  user_id: number;
  username: string;
  model_name: string;
  created_at: number;
  token_used: number;
  count: number;
  quota: number;
}

/**
 * The admin's all-user view (no `username=`): sums per model and hour, ordered by hour then model.
 * It carries every QuotaDataRow field, as the reference's rows do: `id`, `user_id` 0 and
 * `username` '' (a sum belongs to no one row or user).
 */
export type QuotaDataBucket = QuotaDataRow;
