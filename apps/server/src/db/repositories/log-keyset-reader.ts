import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import type { LogFilter, LogRow } from './log-repository.ts';
import { type LogKeysetCursor, newestLogRows } from './newest-log-rows.ts';

export type { LogKeysetCursor } from './newest-log-rows.ts';

/**
 * Matching log rows in the list's order (created_at, then id, both descending), read in batches
 * that each start strictly after the previous batch's last row. No OFFSET: every batch costs what
 * the list's first page costs, however deep the reader is, and rows written while it reads
 * (newer than its first row) or deleted (older ones) neither repeat nor shift rows. The filter is
 * read as the list reads it (give it resolved, resolveLogFilter), several model names merged alike.
 */
export class LogKeysetReader {
  constructor(private readonly db: Kysely<Database>) {}

  /** Up to `limit` rows after `after` (from the newest when null). Fewer than `limit` = the end. */
  batch(filter: LogFilter, after: LogKeysetCursor | null, limit: number): Promise<LogRow[]> {
    return newestLogRows(this.db, filter, { offset: 0, limit, after });
  }
}

/** The cursor after a batch's last row. */
export function cursorAfter(row: LogRow): LogKeysetCursor {
  return { createdAt: Number(row.created_at), id: Number(row.id) };
}
