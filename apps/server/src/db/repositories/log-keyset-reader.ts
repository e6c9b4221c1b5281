import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import { applyLogFilter, type LogFilter, type LogRow } from './log-repository.ts';

/** Where a batch ends: the last row read (the next batch starts strictly after it). */
export interface LogKeysetCursor {
  createdAt: number;
  id: number;
}

/**
 * Matching log rows in the list's order (created_at, then id, both descending), read in batches
 * that each start strictly after the previous batch's last row. No OFFSET: every batch costs what
 * the list's first page costs, however deep the reader is, and rows written while it reads
 * (newer than its first row) or deleted (older ones) neither repeat nor shift rows.
 */
export class LogKeysetReader {
  constructor(private readonly db: Kysely<Database>) {}

  /** Up to `limit` rows after `after` (from the newest when null). Fewer than `limit` = the end. */
  async batch(filter: LogFilter, after: LogKeysetCursor | null, limit: number): Promise<LogRow[]> {
    let query = applyLogFilter(this.db.selectFrom('logs').selectAll(), filter);
    if (after) {
      // (created_at, id) < (after.createdAt, after.id), spelled out the same way on the three
      // databases; the plain `created_at <= …` beside it lets each one range-scan a created_at index.
      query = query
        .where('created_at', '<=', after.createdAt)
        .where((eb) =>
          eb.or([
            eb('created_at', '<', after.createdAt),
            eb.and([eb('created_at', '=', after.createdAt), eb('id', '<', after.id)]),
          ]),
        );
    }
    return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  }
}

/** The cursor after a batch's last row. */
export function cursorAfter(row: LogRow): LogKeysetCursor {
  return { createdAt: Number(row.created_at), id: Number(row.id) };
}
